"""The live table in the browser (issue 13, item 5): the turn countdown and 托管 on timeout,
take back, the away badge on disconnect and its clearing, the waiting room freeing a gone
guest, the summary holding the next deal, the match end naming the winners. Screenshots at
phone, tablet and desktop sizes go to tests/artifacts/."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.helpers import fast_settings, live_server
from tests.web.table import enter, play_until, state

SIZES = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1280, 800)}


def _context(browser: Browser, size: str = "desktop", lang: str = "en-US") -> BrowserContext:
    w, h = SIZES[size]
    return browser.new_context(viewport={"width": w, "height": h}, locale=lang)


def _create(
    page: Page,
    turn: int | None = None,
    next_deal: int | None = None,
    max_deals: int | None = 1,
    fill: str = "random",
) -> str:
    """Create a room from the lobby form, the pace set in its fields; returns the code."""
    page.get_by_test_id("preset").wait_for()
    if max_deals is not None:
        page.get_by_test_id("max-deals").fill(str(max_deals))
    if fill:
        page.get_by_test_id("fill-bots").select_option(fill)
    if turn is not None:
        page.get_by_test_id("pace-turn").fill(str(turn))
        page.get_by_test_id("pace-long-turn").fill(str(turn))
    if next_deal is not None:
        page.get_by_test_id("pace-next-deal").fill(str(next_deal))
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("waiting")).to_be_visible()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    code = page.evaluate("() => window.__shengji.code")
    assert isinstance(code, str)
    return code


def _shots(page: Page, artifacts: Path, name: str) -> None:
    """The same screen at the three sizes."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        page.screenshot(path=artifacts / f"{name}-{size}-{w}x{h}.png")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_countdown_runs_out_into_auto_play_and_take_back(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    # bots (and 托管 for me) take half a second a move: the deal outlasts the looks below,
    # so its summary does not cover the take-back button on a slow machine
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.5)) as base:
        ctx = _context(browser)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        enter(page, base, "Ann")
        page.get_by_test_id("pace-turn").wait_for()
        _shots(page, artifacts, "create-form-pace")
        _create(page, turn=5)
        page.get_by_test_id("ready").click()
        # the window to declare after the deal runs out into a pass, not 托管: wait for a play
        page.wait_for_function(
            "() => { const s = window.__shengji; const g = s && s.game;"
            " return !!g && g.phase === 'playing' && g.to_act === s.seat; }",
            timeout=60000,
        )
        countdown = page.get_by_test_id("countdown-0")
        expect(countdown).to_be_visible(timeout=30000)  # my turn: my clock runs
        left = int(countdown.inner_text().strip().rstrip("s"))
        assert 0 < left <= 5
        _shots(page, artifacts, "countdown")
        mark = page.get_by_test_id("auto-0")
        expect(mark).to_be_visible(timeout=10000)  # out of time: 托管, on my plate
        expect(mark).to_have_text("Auto")
        take_back = page.get_by_test_id("take-back")
        expect(take_back).to_be_visible()
        _shots(page, artifacts, "auto-play")
        page.get_by_test_id("lang").click()
        expect(mark).to_have_text("托管")
        expect(take_back).to_contain_text("取消托管")
        page.screenshot(path=artifacts / "auto-play-zh-1280x800.png")
        take_back.click()
        expect(mark).to_be_hidden()
        expect(take_back).to_be_hidden()
        assert errors == []
        ctx.close()


def test_the_away_badge_shows_on_disconnect_and_clears_on_return(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    with live_server(fast_settings(str(tmp_path), presence_interval_s=0.2)) as base:
        ann_ctx, bob_ctx = _context(browser), _context(browser, "phone")
        ann = ann_ctx.new_page()
        enter(ann, base, "Ann")
        code = _create(ann, fill="")
        bob = bob_ctx.new_page()
        enter(bob, base, "Bob", f"/#/room/{code}")
        bob.get_by_test_id("sit-1").click()
        expect(ann.get_by_test_id("seat-1")).to_contain_text("Bob")
        away = ann.get_by_test_id("away-1")
        expect(away).to_be_hidden()
        bob.close()  # the tab is gone
        gone = time.monotonic()
        expect(away).to_be_visible(timeout=10000)
        assert time.monotonic() - gone < 5.0  # within ~2 s, for everyone (a busy machine: later)
        _shots(ann, artifacts, "away")
        bob = bob_ctx.new_page()
        bob.goto(f"{base}/#/room/{code}")
        expect(away).to_be_hidden(timeout=5000)  # back
        ann_ctx.close()
        bob_ctx.close()


def test_the_waiting_room_frees_a_guest_gone_past_the_grace_time(
    browser: Browser, tmp_path: Path
) -> None:
    settings = fast_settings(str(tmp_path), presence_interval_s=0.1, waiting_grace_s=1.0)
    with live_server(settings) as base:
        ann_ctx, bob_ctx = _context(browser), _context(browser)
        ann = ann_ctx.new_page()
        enter(ann, base, "Ann")
        code = _create(ann, fill="")
        bob = bob_ctx.new_page()
        enter(bob, base, "Bob", f"/#/room/{code}")
        bob.get_by_test_id("sit-1").click()
        expect(ann.get_by_test_id("seat-1")).to_contain_text("Bob")
        bob_ctx.close()
        expect(ann.get_by_test_id("seat-1")).not_to_contain_text("Bob", timeout=8000)
        expect(ann.get_by_test_id("sit-1")).to_be_visible()  # the seat is free again
        ann_ctx.close()


def test_the_summary_holds_the_next_deal_until_next_deal_is_pressed(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.2)) as base:
        ctx = _context(browser)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        enter(page, base, "Ann")
        _create(page, next_deal=60, max_deals=2)
        page.get_by_test_id("ready").click()
        page.get_by_test_id("auto-on").click()  # 托管: a bot plays most of the deal for me
        expect(page.get_by_test_id("auto-0")).to_be_visible()
        page.wait_for_function(
            "() => { const g = window.__shengji.game;"
            " return g && g.phase === 'playing' && g.hand.length <= 6; }",
            timeout=120000,
        )
        # the last tricks I play myself (six leave a loaded machine seconds to click before the
        # deal ends): I am waited for
        page.get_by_test_id("take-back").click()
        expect(page.get_by_test_id("auto-0")).to_be_hidden()
        play_until([page], lambda: state(page).get("summary"), timeout=60)
        summary = page.get_by_test_id("summary")
        expect(summary).to_be_visible()
        hold = page.get_by_test_id("hold")
        expect(hold).to_be_visible()
        time.sleep(1.5)  # nothing is dealt behind the summary
        assert page.evaluate("() => window.__shengji.game.cards_dealt") == 0
        assert page.evaluate("() => window.__shengji.hold.waiting") == [0]
        _shots(page, artifacts, "summary-hold")
        page.get_by_test_id("next-deal").click()
        expect(summary).to_be_hidden()
        page.wait_for_function("() => window.__shengji.game.cards_dealt > 0", timeout=10000)
        assert state(page)["deal"] == 1
        assert errors == []
        ctx.close()


def test_the_match_end_names_the_winners_and_the_owner_starts_the_next(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.0)) as base:
        ctx = _context(browser)
        page = ctx.new_page()
        enter(page, base, "Ann")
        _create(page, max_deals=1)
        page.get_by_test_id("ready").click()
        page.get_by_test_id("auto-on").click()
        page.wait_for_function("() => window.__shengji.matchOver", timeout=120000)
        if page.get_by_test_id("summary").is_visible():
            page.get_by_test_id("next-deal").click()  # (closes it: the match is over)
        over = page.get_by_test_id("match-over")
        expect(over).to_be_visible()
        mo = page.evaluate("() => window.__shengji.matchOver")
        winner = page.get_by_test_id("match-winner")
        if mo["names"]:  # the winning team, then its players by name
            for name in mo["names"]:
                expect(over).to_contain_text(name)
        else:
            expect(winner).to_contain_text("level")  # cut short, all level: a draw
        expect(page.get_by_test_id("new-match")).to_be_visible()  # the owner's
        expect(page.get_by_test_id("close-room")).to_be_visible()
        _shots(page, artifacts, "match-over")
        page.get_by_test_id("new-match").click()
        page.wait_for_function(
            "() => window.__shengji.room.status === 'playing'"
            " && window.__shengji.room.match_no === 2",
            timeout=10000,
        )
        ctx.close()
