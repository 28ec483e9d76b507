"""Driving the browser table like a player: enter a name, create a room, take turns by
asking for a hint and pressing Play (the Play button is only enabled for legal cards)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

STATE = """() => {
  const s = window.__shengji;
  if (!s) return null;
  const g = s.game;
  return {
    seat: s.seat, status: s.room && s.room.status, summary: !!s.summary,
    matchOver: !!s.matchOver,
    phase: g && g.phase, to: g && g.to_act, hand: g ? g.hand.length : 0,
    deal: g && g.deal_no, trick: g ? g.trick.length : 0, done: g ? g.tricks_done : 0,
    lead: g && g.trick.length ? g.trick[0][1].split(" ").length : 0,
  };
}"""


def state(page: Page) -> dict[str, Any]:
    """The table as the page's store holds it (seat, phase, whose turn, hand size ...)."""
    st: dict[str, Any] | None = page.evaluate(STATE)
    return st or {}


def enter(page: Page, base: str, name: str, path: str = "/") -> None:
    """Open the site and register a guest name."""
    page.goto(base + path)
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("name-ok").click()
    expect(page.get_by_test_id("me")).to_have_text(name)


def create_room(page: Page, max_deals: int | None = 1, fill: str = "") -> str:
    """Create a room from the lobby form; returns its code (the creator sits at seat 0)."""
    page.get_by_test_id("preset").wait_for()
    if max_deals is not None:
        page.get_by_test_id("max-deals").fill(str(max_deals))
    if fill:
        page.get_by_test_id("fill-bots").select_option(fill)
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting")).to_be_visible()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    code = page.evaluate("() => window.__shengji.code")
    assert isinstance(code, str) and code
    return code


def take_turn(page: Page, timeout: float = 10.0) -> bool:
    """If it is this page's turn, act like a player would; True if it acted."""
    st = state(page)
    if st.get("status") != "playing" or st.get("to") != st.get("seat") or st.get("seat") is None:
        return False
    if st["summary"] or st["matchOver"]:
        return False
    phase = st["phase"]
    if phase in ("declaring", "rebury"):
        button = page.get_by_test_id("pass")
        page.evaluate("() => { window.__before = window.__shengji.game; }")
        try:
            button.click(timeout=timeout * 1000)
        except Exception:
            return False
        # any update replaces the game: the window may come round to this seat again at once
        page.wait_for_function(
            "() => window.__shengji.game !== window.__before", timeout=timeout * 1000
        )
        return True
    if phase in ("calling", "bidding"):
        # ask for a hint: it fills the friend picker or the bid, then confirm it
        page.get_by_test_id("hint").click()
        page.wait_for_function(
            "() => window.__shengji.lastHint !== undefined", timeout=timeout * 1000
        )
        hint = page.evaluate("() => window.__shengji.lastHint") or "pass"
        button = "pass" if hint == "pass" else {"calling": "call", "bidding": "bid"}[phase]
        said = page.evaluate("() => (window.__shengji.game.auction || []).length")
        page.get_by_test_id(button).click()
        page.wait_for_function(  # the bots may bid round to this seat again at once
            "(n) => { const g = window.__shengji.game;"
            " return !g || g.phase !== 'bidding' || (g.auction || []).length > n; }",
            arg=said,
            timeout=timeout * 1000,
        )
        return True
    if phase == "naming":
        page.locator("[data-testid^=trump-]").first.click(timeout=timeout * 1000)
        _wait_turn_over(page, phase, timeout)
        return True
    if phase not in ("burying", "playing"):
        return False
    n, deal = st["hand"], st["deal"]
    # the turn is over: a card left the hand, or the deal (or the match) moved on
    gone = ("([n, d]) => { const s = window.__shengji, g = s.game;"
            " return !g || g.hand.length < n || g.deal_no !== d || !!s.summary"
            " || !!s.matchOver; }")
    # or it is this seat's turn again in the same phase: the key did nothing, press again
    again = ("([n, d, p]) => { const s = window.__shengji, g = s.game;"
             " return !g || g.hand.length < n || g.deal_no !== d || !!s.summary"
             " || !!s.matchOver || (g.to_act === s.seat && g.phase === p); }")
    deadline = time.monotonic() + timeout
    while True:
        # the hint selects cards; the server checks them; then Play is enabled
        page.get_by_test_id("hint").click()
        play = page.get_by_test_id("play")
        expect(play).to_be_enabled(timeout=timeout * 1000)
        if phase == "playing":
            page.keyboard.press("Enter")  # Enter = play
        else:
            play.click()
        try:  # an update between the check and the key can void the check: press again
            page.wait_for_function(gone, arg=[n, deal], timeout=2000)
            return True
        except Exception:
            # not yet: the answer may be slow (wait for it), or the key did nothing
            left = max(deadline - time.monotonic(), 1.0)
            page.wait_for_function(again, arg=[n, deal, phase], timeout=left * 1000)
            if page.evaluate(gone, [n, deal]):
                return True
            if time.monotonic() > deadline:
                raise AssertionError(f"the turn was not taken: {state(page)}") from None


def _wait_turn_over(page: Page, phase: str, timeout: float) -> None:
    page.wait_for_function(
        "(p) => { const g = window.__shengji.game;"
        " return !g || g.phase !== p || g.to_act !== window.__shengji.seat; }",
        arg=phase,
        timeout=timeout * 1000,
    )


def play_until(pages: list[Page], done: Any, timeout: float = 120.0) -> None:
    """Take every turn of these pages until ``done()`` holds."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, [state(p) for p in pages]
        acted = False
        for p in pages:
            acted = take_turn(p) or acted
        if not acted:
            time.sleep(0.03)
