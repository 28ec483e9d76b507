"""The browser table in a first deal (rules.md Decision 100): while trumps are declared, the
seat that will deal is marked 庄? — under QQ rules the first declarer ("开局中，双方争庄，先亮者
为庄家"), whoever overturns afterwards — and the mark gives way to the dealer badge."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.table import enter

GAME = """() => {
  const s = window.__shengji, g = s && s.game;
  return g ? {seat: s.seat, phase: g.phase, to: g.to_act, dealer: g.dealer,
              toBe: g.dealer_to_be, decl: g.declaration && g.declaration.seat} : null;
}"""


def _game(page: Page) -> dict[str, Any]:
    g: dict[str, Any] | None = page.evaluate(GAME)
    return g or {}


def _act(page: Page, button: str) -> None:
    """Click a window button and wait until the game moves on."""
    page.evaluate("() => { window.__before = window.__shengji.game; }")
    page.locator(button).first.click()
    page.wait_for_function("() => window.__shengji.game !== window.__before")


def test_the_first_deal_marks_the_seat_that_will_deal(
    browser: Browser, site: str, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    enter(page, site, "Cai")
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("max-deals").fill("1")
    page.get_by_test_id("fill-bots").select_option("heuristic")
    page.get_by_test_id("create").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    marks = page.locator("[data-testid^=to-deal-]")
    checked = False
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, _game(page)
        g = _game(page)
        if g.get("phase") not in (None, "dealing", "declaring"):
            break
        if g.get("phase") != "declaring" or g.get("to") != g.get("seat"):
            time.sleep(0.03)
            continue
        # the window waits for this seat: the table is still
        if g["toBe"] is not None:
            expect(page.get_by_test_id(f"to-deal-{g['toBe']}")).to_be_visible()
            expect(marks).to_have_count(1)
            expect(marks.first).to_have_attribute("title", re.compile("先亮者为庄家"))
            if not checked:
                page.screenshot(path=artifacts / "first-deal-to-deal-1280x800.png")
            checked = True
            _act(page, "[data-testid=pass]")
        elif page.locator("[data-testid=declare]:enabled").count():
            _act(page, "[data-testid=declare]:enabled")  # nobody declared: show first
            page.wait_for_function("() => window.__shengji.game.dealer_to_be === 0")
        else:
            _act(page, "[data-testid=pass]")
    assert checked, "nobody declared in the first deal"
    g = _game(page)
    assert g["dealer"] is not None and g["toBe"] is None
    expect(marks).to_have_count(0)
    expect(page.get_by_test_id(f"seat-{g['dealer']}").locator(".badge.dealer")).to_be_visible()
    assert errors == []
    ctx.close()
