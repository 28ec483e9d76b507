"""Screenshots of a new player's first hour at phone (390×844), tablet (820×1180) and desktop
(1366×900) size, in Chinese and English, into docs/screenshots/first-hour/ (squeezed with
pngquant when it is installed).

    PYTHONPATH=src .venv/bin/python scripts/first_hour_shots.py [OUT]

Each run: landing → Play now → the declare window left alone (its first-deal hint) → a
trick → the summary → the next deal (tests/web/first_hour.py); then the lobby's rows seen
by a second player, a four-deck summary and the match end.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright
from tests.server.helpers import live_server
from tests.web.conftest import ARGS, CHROMIUM
from tests.web.first_hour import SIZES, FirstHour, first_hour_settings
from tests.web.table import enter

LANGS = {"zh": "zh-CN", "en": "en-US"}


def four_deck_summary_and_match_end(browser: Browser, base: str, out: Path, size: str,
                                    lang: str) -> None:
    """A one-deal four-deck room the bots play (托管 asked for): its summary, then the
    match end; and the lobby's row of a full room as a second player sees it."""
    w, h = SIZES[size]
    tag = f"{lang}-{size}"
    page: Page = browser.new_context(viewport={"width": w, "height": h},
                                     locale=LANGS[lang]).new_page()
    enter(page, base, "Mei")
    page.get_by_test_id("preset").select_option("four-deck")
    page.get_by_test_id("max-deals").fill("1")
    page.get_by_test_id("fill-bots").select_option("normal")
    page.get_by_test_id("create").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    page.get_by_test_id("ready").click()
    other = browser.new_context(viewport={"width": w, "height": h},
                                locale=LANGS[lang]).new_page()
    enter(other, base, "Bo")
    expect(other.get_by_test_id("room-join").first).to_be_visible()
    other.screenshot(path=out / f"6-lobby-rows-watch-{tag}.png", full_page=True)
    other.context.close()
    page.get_by_test_id("auto-on").click()
    expect(page.get_by_test_id("summary")).to_be_visible(timeout=240000)
    page.screenshot(path=out / f"7-summary-four-deck-{tag}.png", full_page=True)
    page.get_by_test_id("next-deal").click()
    expect(page.get_by_test_id("match-over")).to_be_visible()
    page.screenshot(path=out / f"8-match-end-{tag}.png")
    page.context.close()


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots/first-hour")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, live_server(first_hour_settings(tmp)) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for size in SIZES:
            for lang in LANGS:
                run = FirstHour(browser, base, size, LANGS[lang], out)
                run.landing_to_table()
                run.play_deal()
                run.summary()
                run.close()
                four_deck_summary_and_match_end(browser, base, out, size, lang)
                print(size, lang, "done", flush=True)
        browser.close()
    if shutil.which("pngquant"):
        for png in sorted(out.glob("*.png")):
            subprocess.run(["pngquant", "--force", "--skip-if-larger", "--quality", "50-80",
                            "--ext", ".png", str(png)], check=False)


if __name__ == "__main__":
    main()
