"""The browser table, clicked through like a player: a whole deal against bots, two people
at one table, a reload mid-deal, and screenshots at desktop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.web.table import create_room, enter, play_until, state

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _no_page_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))


def test_a_whole_deal_against_three_bots(browser: Browser, site: str, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    errors: list[str] = []
    _no_page_errors(page, errors)
    enter(page, site, "Ann")
    expect(page.get_by_test_id("preset-desc")).to_contain_text("Two decks")
    page.screenshot(path=artifacts / "lobby-1280x800.png")
    create_room(page, max_deals=1)
    # fill the three other seats with bots, one level each way
    page.get_by_test_id("bot-level-1").select_option("random")
    for seat in (1, 2, 3):
        page.get_by_test_id(f"add-bot-{seat}").click()
        expect(page.get_by_test_id(f"remove-bot-{seat}")).to_be_visible()
    expect(page.get_by_test_id("seat-1")).to_contain_text("Random (seat 2)")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Heuristic (seat")
    page.screenshot(path=artifacts / "room-1280x800.png")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()

    shots = {"trick": False, "refused": False}

    def done() -> bool:
        st = state(page)
        mine = st.get("phase") == "playing" and st.get("to") == 0
        if mine and not shots["refused"] and st["hand"] >= max(2, st["lead"] + 1):
            # a mixed lead (a trump and a card of the last suit), or one card too many to
            # follow: Play stays disabled and the server's reason is shown
            picks = [0, st["hand"] - 1] if st["lead"] == 0 else range(st["lead"] + 1)
            for i in picks:
                page.get_by_test_id(f"hand-{i}").click()
            refusal = re.compile("one suit|as many cards as the lead")
            expect(page.get_by_test_id("reason")).to_contain_text(refusal)
            expect(page.get_by_test_id("play")).to_be_disabled()
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("reason")).to_have_text("Select cards to play.")
            shots["refused"] = True
        mid = st.get("phase") == "playing" and st.get("done", 0) >= 3 and st.get("trick", 0) >= 2
        if mid and not shots["trick"]:
            page.screenshot(path=artifacts / "table-1280x800.png")
            shots["trick"] = True
        return bool(st.get("summary"))

    play_until([page], done)
    assert shots["refused"] and shots["trick"]
    summary = page.get_by_test_id("summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Deal 1 is over")
    expect(page.get_by_test_id("summary-changes")).not_to_be_empty()
    expect(summary).to_contain_text("Kitty")
    page.screenshot(path=artifacts / "summary-1280x800.png")
    page.get_by_test_id("next-deal").click()
    expect(page.get_by_test_id("match-over")).to_be_visible()  # max one deal
    expect(page.get_by_test_id("new-match")).to_be_visible()
    assert errors == []
    ctx.close()


def test_two_people_and_two_bots_at_one_table(browser: Browser, site: str, artifacts: Path) -> None:
    a_ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    b_ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
    a, b = a_ctx.new_page(), b_ctx.new_page()
    errors: list[str] = []
    _no_page_errors(a, errors)
    _no_page_errors(b, errors)
    enter(a, site, "Ann")
    code = create_room(a, max_deals=1)
    # Bob opens the shared link (?room=CODE works as well as /#/room/CODE)
    enter(b, site, "鲍勃", path=f"/?room={code}")
    expect(b.get_by_test_id("waiting")).to_be_visible()
    expect(b.get_by_test_id("seat-0")).to_contain_text("Ann")
    b.get_by_test_id("sit-2").click()
    expect(a.get_by_test_id("seat-2")).to_contain_text("鲍勃")
    for seat in (1, 3):
        a.get_by_test_id(f"add-bot-{seat}").click()
    expect(a.get_by_test_id("remove-bot-3")).to_be_visible()
    # chat both ways, the second one in Chinese
    a.get_by_test_id("chat-input").fill("hello partner")
    a.get_by_test_id("chat-input").press("Enter")
    expect(b.get_by_test_id("chat")).to_contain_text("hello partner")
    b.get_by_test_id("chat-input").fill("你好")
    b.get_by_test_id("chat-input").press("Enter")
    expect(a.get_by_test_id("chat")).to_contain_text("你好")
    expect(b.get_by_test_id("ready")).to_have_text("准备")  # zh-CN from the browser's language
    b.screenshot(path=artifacts / "room-zh-CN-1280x800.png")
    a.get_by_test_id("ready").click()
    b.get_by_test_id("ready").click()
    expect(a.get_by_test_id("hand")).to_be_visible()
    expect(b.get_by_test_id("hand")).to_be_visible()
    # a third person watches: no hand, no buttons, and the players see them counted
    c_ctx = browser.new_context(viewport=PHONE, locale="en-US")
    c = c_ctx.new_page()
    _no_page_errors(c, errors)
    enter(c, site, "Watcher", path=f"/#/room/{code}")
    expect(c.get_by_test_id("watching")).to_be_visible()
    expect(c.get_by_test_id("felt")).to_be_visible()
    expect(c.get_by_test_id("hand")).to_have_count(0)
    expect(a.get_by_test_id("spectators")).to_contain_text("Spectators: 1")

    shot = {"zh": False}

    def done() -> bool:
        sa, sb = state(a), state(b)
        if not shot["zh"] and sb.get("phase") == "playing" and sb.get("trick", 0) >= 1:
            b.screenshot(path=artifacts / "table-zh-CN-1280x800.png")
            shot["zh"] = True
        return bool(sa.get("summary")) and bool(sb.get("summary"))

    play_until([a, b], done)
    expect(a.get_by_test_id("summary")).to_be_visible()
    expect(b.get_by_test_id("summary")).to_contain_text("第1局结束")
    pa = a.get_by_test_id("summary-points").inner_text()
    assert pa == b.get_by_test_id("summary-points").inner_text()
    expect(c.get_by_test_id("summary")).to_be_visible()
    assert errors == []
    for ctx in (a_ctx, b_ctx, c_ctx):
        ctx.close()


def test_a_reload_mid_deal_returns_to_the_same_seat(
    browser: Browser, site: str, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    enter(page, site, "Cleo")
    create_room(page, max_deals=1, fill="heuristic")
    expect(page.get_by_test_id("seat-3")).to_contain_text("Heuristic (seat")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    play_until([page], lambda: state(page).get("done", 0) >= 4)
    before = state(page)
    assert before["seat"] == 0 and before["status"] == "playing"
    url = page.url
    assert "#/room/" in url
    page.reload()
    page.wait_for_function(
        "() => window.__shengji && window.__shengji.game && window.__shengji.seat === 0"
    )
    expect(page.get_by_test_id("hand")).to_be_visible()
    after = state(page)
    assert after["seat"] == 0 and after["deal"] == before["deal"]
    assert after["done"] >= before["done"]
    # nobody played for us meanwhile: the same cards, and play goes on from the same seat
    assert after["hand"] == before["hand"]
    play_until([page], lambda: state(page).get("done", 0) >= after["done"] + 2)
    assert state(page)["hand"] < before["hand"]
    page.screenshot(path=artifacts / "reloaded-1280x800.png")
    ctx.close()


def test_phone_size_layout_in_chinese(browser: Browser, site: str, artifacts: Path) -> None:
    ctx = browser.new_context(viewport=PHONE, locale="zh-CN", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    _no_page_errors(page, errors)
    enter(page, site, "小明")
    expect(page.get_by_test_id("create")).to_have_text("创建房间")
    page.screenshot(path=artifacts / "lobby-390x844.png", full_page=True)
    create_room(page, max_deals=1, fill="heuristic")
    expect(page.get_by_test_id("seat-1")).to_contain_text("智能·")
    page.screenshot(path=artifacts / "room-390x844.png")
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    play_until([page], lambda: state(page).get("done", 0) >= 2 and state(page).get("to") == 0)
    page.keyboard.press("h")  # H = hint
    expect(page.get_by_test_id("play")).to_be_enabled()
    page.screenshot(path=artifacts / "table-390x844.png")
    # the hand fits the screen: no card sticks out to the right
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('.hcard')]"
        ".map(c => c.getBoundingClientRect().right))"
    )
    assert right <= PHONE["width"]
    # the language toggle switches to English at once
    page.get_by_test_id("lang").click()
    expect(page.get_by_test_id("play")).to_have_text("Play")
    assert errors == []
    ctx.close()
