"""A tournament room in the browser: "在比赛过程中任何一方不许查牌、不许提示" (seed 002 十,
docs/rules.md Decision 140). The create-room form ticks "no aids" for the tournament preset,
the waiting room says so, and at the table there is no hint button, no last-trick button and
no card counter; a classic room keeps them."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.helpers import fast_settings, live_server
from tests.web.table import enter

SEEN = """() => {
  const s = window.__shengji, g = s.game;
  return {phase: g ? g.phase : null, trick: g ? g.trick.length : 0,
          last: !!(g && g.last_trick), tricks: g ? g.tricks_done : 0,
          button: !!document.querySelector("[data-testid=last-trick]"),
          panel: !!document.querySelector("[data-testid=played-panel]"),
          hint: !!document.querySelector("[data-testid=hint]")};
}"""


def _room(page: Page, preset: str) -> None:
    page.get_by_test_id("preset").select_option(preset)
    page.get_by_test_id("max-deals").fill("1")
    page.get_by_test_id("fill-bots").select_option("random")
    if preset == "tournament":
        expect(page.get_by_test_id("no-aids")).to_be_checked()
    else:
        expect(page.get_by_test_id("no-aids")).not_to_be_checked()
    page.get_by_test_id("create").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")


def _ready(page: Page) -> None:
    """Ready: the cards are being dealt (the hint is offered while they are, where it is)."""
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()


def test_a_tournament_room_offers_no_hints_last_trick_or_counter(browser: Browser,
                                                                 tmp_path: Path) -> None:
    # bots at a pace the page can watch (a deal of zero-delay bots can end between two looks
    # on a loaded machine)
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.05)) as site:
        _watch_a_tournament_room(browser, site)


def _watch_a_tournament_room(browser: Browser, site: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    enter(page, site, "Ann")
    _room(page, "tournament")
    expect(page.get_by_test_id("room-no-aids")).to_be_visible()
    _ready(page)
    assert page.evaluate("() => window.__shengji.room.ruleset.player_aids") is False
    page.get_by_test_id("auto-on").click()  # 托管 plays on; watch three tricks all along
    seen: list[dict[str, object]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        x = page.evaluate(SEEN)
        seen.append(x)
        if x["phase"] == "done" or int(str(x["tricks"])) >= 3:
            break
        if x["phase"] is None and any(y["phase"] for y in seen):
            break  # the match is over (no game before the first deal's view arrives)
        page.keyboard.press("l")
        time.sleep(0.02)
    assert any(x["phase"] == "playing" and x["tricks"] for x in seen), seen[-5:]
    assert not any(x["button"] or x["panel"] or x["hint"] for x in seen)
    assert not any(x["last"] and x["trick"] for x in seen)  # only until the next lead
    expect(page.get_by_test_id("last-trick-dialog")).to_have_count(0)
    assert errors == []
    ctx.close()


def test_a_classic_room_keeps_them(browser: Browser, tmp_path: Path) -> None:
    # bots at a fifth of a second a move: a deal of zero-delay bots can end, on a loaded
    # machine, before the page has shown its first last-trick button
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.2)) as site:
        _watch_a_classic_room(browser, site)


def _watch_a_classic_room(browser: Browser, site: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    enter(page, site, "Bob")
    _room(page, "classic")
    expect(page.get_by_test_id("room-no-aids")).to_have_count(0)
    _ready(page)
    expect(page.get_by_test_id("hint")).to_be_visible(timeout=30_000)  # dealing, or its turn
    expect(page.get_by_test_id("played-panel")).to_be_visible()
    page.get_by_test_id("auto-on").click()
    expect(page.get_by_test_id("last-trick")).to_be_visible(timeout=60_000)
    ctx.close()
