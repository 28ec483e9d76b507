"""Tables of every size in the browser: a 3-seat 竞标 table where a bid is made by clicking,
a 5-seat find-a-friend table, a friend called by clicking the picker, and four decks' 54
cards on one screen. Seat plates and trick cards must not cover one another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.web.table import enter, play_until, state

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

OVERLAPS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const felt = box(document.querySelector('[data-testid=felt]'));
  const plates = [...document.querySelectorAll('.seat .plate')].map(box);
  // where the cards rest: a play still flying in (motion) is brought to its place first
  document.getAnimations().forEach((a) => {
    const el = a.effect && a.effect.target;
    if (el && el.closest && el.closest('.trick')) a.finish();
  });
  const plays = [...document.querySelectorAll('.trick > .play')].map(box);
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const out = [];
  plates.forEach((a, i) => {
    if (a.left < felt.left - 1 || a.right > felt.right + 1 || a.top < felt.top - 1 ||
        a.bottom > felt.bottom + 1) out.push(`plate ${i} leaves the felt`);
    plates.forEach((b, j) => { if (j > i && hit(a, b)) out.push(`plates ${i} and ${j}`); });
    plays.forEach((b, j) => { if (hit(a, b)) out.push(`plate ${i} and play ${j}`); });
  });
  plays.forEach((a, i) => plays.forEach((b, j) => {
    if (j > i && hit(a, b)) out.push(`plays ${i} and ${j}`);
  }));
  const g = window.__shengji.game;
  return {plates: plates.length, plays: plays.length, out,
          playing: !!g && g.phase === "playing", done: g ? g.tricks_done : 0};
}"""


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return errors


def _room_with_bots(page: Page, preset: str) -> None:
    """Create a one-deal room of ``preset`` from the lobby form, bots in the other seats."""
    page.get_by_test_id("preset").select_option(preset)
    page.get_by_test_id("max-deals").fill("1")
    page.get_by_test_id("fill-bots").select_option("heuristic")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting")).to_be_visible()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")


class Layout:
    """Watches the felt while the deal is played (``play_until(..., layout.seen)``) until a
    trick shows the cards of most seats (all but one in the first eight tricks, later any
    two), and keeps the geometry of that moment: each seat's plate on the felt, and no plate
    or trick covering another."""

    def __init__(self, page: Page, seats: int) -> None:
        self.page = page
        self.seats = seats
        self.got: dict[str, Any] = {}

    def seen(self) -> bool:
        got: dict[str, Any] = self.page.evaluate(OVERLAPS)
        need = self.seats - 1 if got["done"] < 8 else 2
        if got["playing"] and got["plays"] >= need:
            self.got = got
            return True
        return False

    def check(self, shot: Path) -> None:
        self.page.screenshot(path=shot)
        got = self.got
        assert got["plates"] == self.seats and got["out"] == [], got


def test_a_three_seat_table_where_a_bid_is_clicked(
    browser: Browser, site: str, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    errors = _errors(page)
    enter(page, site, "Ann")
    page.get_by_test_id("preset").select_option("three-player")
    expect(page.get_by_test_id("preset-desc")).to_contain_text("3 players")
    _room_with_bots(page, "three-player")
    for seat in (1, 2):
        expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text("Heuristic (seat")
    expect(page.get_by_test_id("seat-3")).to_have_count(0)
    page.get_by_test_id("ready").click()
    # the first deal's auction opens at seat 0: ours, after the 99 cards are dealt
    picker = page.get_by_test_id("bid-picker")
    expect(picker).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("shown").locator(".card")).to_have_count(3)
    expect(page.get_by_test_id("hand").locator(".hcard")).to_have_count(33)
    page.get_by_test_id("bid-value").select_option("140")
    page.screenshot(path=artifacts / "bid-1280x800.png")
    page.get_by_test_id("bid").click()
    expect(page.get_by_test_id("bid-0")).to_have_text("140")
    page.wait_for_function("() => window.__shengji.game.auction.length >= 1")
    assert page.evaluate("() => window.__shengji.game.auction[0]") == [0, 140]
    layout = Layout(page, 3)
    play_until([page], layout.seen, timeout=180)
    expect(page.get_by_test_id("points")).to_contain_text("/")
    layout.check(artifacts / "table-3-seats-1280x800.png")
    assert errors == []
    ctx.close()


def test_a_five_seat_table_on_a_desktop_and_a_phone(
    browser: Browser, site: str, artifacts: Path
) -> None:
    for size, name in ((DESKTOP, "1280x800"), (PHONE, "390x844")):
        ctx = browser.new_context(viewport=size, locale="zh-CN" if size is PHONE else "en-US")
        page = ctx.new_page()
        errors = _errors(page)
        enter(page, site, "Bo")
        _room_with_bots(page, "five-player")
        expect(page.locator(".wseat")).to_have_count(5)
        page.get_by_test_id("ready").click()
        expect(page.get_by_test_id("hand")).to_be_visible()
        layout = Layout(page, 5)
        play_until([page], layout.seen, timeout=180)
        expect(page.get_by_test_id("friend-call")).to_be_visible()
        layout.check(artifacts / f"table-5-seats-{name}.png")
        if size is DESKTOP:
            # the hand (3 decks, 31 cards) fits beside nothing: no card sticks out
            right = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('.hcard')]"
                ".map(c => c.getBoundingClientRect().right))"
            )
            assert right <= size["width"]
        assert errors == []
        ctx.close()


def test_a_friend_is_called_by_clicking(browser: Browser, site: str, artifacts: Path) -> None:
    """Four people at a find-a-friend table: whoever deals calls ♥A by clicking (a card, no
    copy: its holder nearest the dealer is the friend)."""
    ctxs = [browser.new_context(viewport=DESKTOP, locale="en-US") for _ in range(4)]
    pages = [c.new_page() for c in ctxs]
    errors: list[str] = []
    for p in pages:
        errors += _errors(p)
    enter(pages[0], site, "Ann")
    pages[0].get_by_test_id("preset").select_option("find-friend")
    pages[0].get_by_test_id("create").click()
    expect(pages[0].get_by_test_id("waiting")).to_be_visible()
    pages[0].wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    code = pages[0].evaluate("() => window.__shengji.code")
    for i, p in enumerate(pages[1:], start=1):
        enter(p, site, f"P{i}", path=f"/#/room/{code}")
        p.get_by_test_id(f"sit-{i}").click()
        p.wait_for_function(f"() => window.__shengji.seat === {i}")
    for p in pages:
        p.get_by_test_id("ready").click()
    called: dict[str, Page | None] = {"by": None}

    def done() -> bool:
        for p in pages:
            st = state(p)
            if st.get("phase") == "calling" and st.get("to") == st.get("seat"):
                picker = p.get_by_test_id("friend-picker")
                expect(picker).to_be_visible()
                p.get_by_test_id("call-suit-H").click()
                p.get_by_test_id("call-rank-A").click()
                expect(p.get_by_test_id("call-nth")).to_have_count(0)  # a card, not a copy
                p.screenshot(path=artifacts / "friend-picker-1280x800.png")
                p.get_by_test_id("call").click()
                called["by"] = p
        return called["by"] is not None

    play_until(pages, done, timeout=180)
    for p in pages:  # everyone sees the call
        expect(p.get_by_test_id("friend-call")).to_contain_text("♥A")
        expect(p.get_by_test_id("friend-status")).to_be_visible()
    play_until(pages, lambda: state(pages[0]).get("done", 0) >= 2, timeout=120)
    pages[0].screenshot(path=artifacts / "friend-table-1280x800.png")
    assert errors == []
    for c in ctxs:
        c.close()


def test_four_decks_fit_on_one_screen(browser: Browser, site: str, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    enter(page, site, "Dee")
    _room_with_bots(page, "four-deck")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand").locator(".hcard")).to_have_count(54, timeout=60_000)
    layout = Layout(page, 4)
    play_until([page], layout.seen, timeout=180)
    box = page.evaluate(
        "() => { const r = [...document.querySelectorAll('.hcard')]"
        ".map(c => c.getBoundingClientRect());"
        " return {right: Math.max(...r.map(x => x.right)),"
        " bottom: Math.max(...r.map(x => x.bottom))}; }"
    )
    assert box["right"] <= DESKTOP["width"] and box["bottom"] <= DESKTOP["height"], box
    layout.check(artifacts / "table-four-deck-1280x800.png")
    ctx.close()


def test_find_a_friend_options_in_the_create_room_form(browser: Browser, site: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    enter(page, site, "Eve")
    expect(page.get_by_test_id("level-shares")).to_have_count(0)  # classic: fixed partners
    page.get_by_test_id("preset").select_option("five-player")
    expect(page.get_by_test_id("level-shares")).to_have_value("fixed")  # the preset's value
    page.get_by_test_id("level-shares").select_option("elastic")
    page.get_by_test_id("ace-penalty").uncheck()
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting")).to_be_visible()
    page.wait_for_function("() => window.__shengji.room")
    rs = page.evaluate("() => window.__shengji.room.ruleset")
    assert (rs["level_shares"], rs["ace_kitty_penalty"], rs["jack_kitty_penalty"]) == (
        "elastic",
        False,
        True,
    )
    expect(page.locator(".wseat")).to_have_count(5)
    ctx.close()


def test_the_form_names_each_sheet_and_starts_huanle_on_beans(browser: Browser, site: str) -> None:
    # Decisions 113, 115: the create-room form shows the sheet a preset follows and starts
    # its stakes at the preset's (欢乐升级 plays for 欢乐豆); choosing nothing keeps it plain
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    enter(page, site, "Hua")
    expect(page.get_by_test_id("preset-source")).to_contain_text("QQ游戏")
    expect(page.get_by_test_id("stakes-kind")).to_have_value("plain")
    page.get_by_test_id("preset").select_option("huanle")
    expect(page.get_by_test_id("preset-source")).to_contain_text("欢乐升级")
    expect(page.get_by_test_id("stakes-kind")).to_have_value("beans")
    expect(page.get_by_test_id("stakes-n")).to_have_value("100")
    page.get_by_test_id("stakes-kind").select_option("plain")  # the creator says otherwise
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting")).to_be_visible()
    page.wait_for_function("() => window.__shengji.room")
    room = page.evaluate("() => window.__shengji.room")
    assert room["ruleset"]["rebury"] is True and room["stakes"]["kind"] == "plain"
    ctx.close()
