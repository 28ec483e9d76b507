"""The first hour's smaller items, one browser test each: bots named by level and seat
everywhere (the table, the lobby's rows), "Watch" on a full room, the bot speed of "Play
now", quick chat in each reader's language, the match end's buttons, unchanged levels not
struck through, the hosting hint only for the room's owner, the replay's seat names."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.web.table import enter

DESKTOP = {"width": 1366, "height": 900}


def _page(browser: Browser, lang: str = "en-US", viewport: dict[str, int] = DESKTOP) -> Page:
    page = browser.new_context(viewport=viewport, locale=lang).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.__dict__["errors"] = errors
    return page


def _play_now(page: Page, site: str, name: str, level: str, speed: str = "normal") -> str:
    page.goto(site + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("playnow-level").select_option(level)
    page.get_by_test_id("playnow-speed").select_option(speed)
    page.get_by_test_id("play-now").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    expect(page.get_by_test_id("hand")).to_be_visible()
    code = page.evaluate("() => window.__shengji.code")
    assert isinstance(code, str)
    return code


def test_bots_are_named_by_level_and_seat_and_a_full_room_is_watched(
    browser: Browser, site: str, artifacts: Path
) -> None:
    mei = _page(browser)
    code = _play_now(mei, site, "Mei", "expert", "fast")
    for seat in (1, 2, 3):
        expect(mei.get_by_test_id(f"seat-{seat}")).to_contain_text(f"Expert (seat {seat + 1})")
    assert mei.evaluate("() => window.__shengji.room.options.bot_pace") == 0.25
    assert mei.evaluate("() => window.__shengji.room.private") is False  # a public room
    bo = _page(browser)
    enter(bo, site, "Bo")
    row = bo.get_by_test_id("rooms").locator("li", has_text="Mei")
    expect(row.get_by_test_id("room-names")).to_have_text(
        "Mei, Expert (seat 2), Expert (seat 3), Expert (seat 4)"
    )
    expect(row.get_by_test_id("room-join")).to_have_text("Watch")
    bo.screenshot(path=artifacts / "first-hour-lobby-rows-1366x900.png")
    row.get_by_test_id("room-join").click()
    expect(bo.get_by_test_id("watching")).to_be_visible()
    assert bo.evaluate("() => window.__shengji.code") == code
    assert mei.__dict__["errors"] == [] and bo.__dict__["errors"] == []
    mei.context.close()
    bo.context.close()


def test_quick_chat_reads_in_each_players_language(browser: Browser, site: str) -> None:
    mei = _page(browser)
    code = _play_now(mei, site, "Mei", "beginner")
    li = _page(browser, "zh-CN")
    enter(li, site, "Li", f"/#/room/{code}")
    expect(li.get_by_test_id("watching")).to_be_visible()
    mei.get_by_test_id("quick-toggle").click()
    mei.get_by_test_id("quick-hello").click()
    expect(mei.get_by_test_id("chat")).to_contain_text("Mei: Hi everyone!")
    expect(li.get_by_test_id("chat")).to_contain_text("Mei: 大家好！")
    li.get_by_test_id("emoji").first.click()
    expect(mei.get_by_test_id("chat")).to_contain_text("Li (watching): 😄")
    mei.context.close()
    li.context.close()


def test_the_match_end_the_summary_levels_and_the_hosting_hint(
    browser: Browser, site: str, artifacts: Path
) -> None:
    owner = _page(browser, "zh-CN", {"width": 390, "height": 844})
    enter(owner, site, "Wu")
    owner.get_by_test_id("max-deals").fill("1")
    owner.get_by_test_id("fill-bots").select_option("heuristic")
    owner.get_by_test_id("create").click()
    owner.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    expect(owner.get_by_test_id("local-only")).to_be_visible()  # the owner, on loopback
    code = owner.evaluate("() => window.__shengji.code")
    guest = _page(browser)
    enter(guest, site, "Xu", f"/#/room/{code}")
    expect(guest.get_by_test_id("waiting")).to_be_visible()
    expect(guest.get_by_test_id("local-only")).to_have_count(0)  # not for the others
    guest.context.close()
    owner.get_by_test_id("ready").click()
    owner.get_by_test_id("auto-on").click()  # 托管 on purpose: the bots play the deal
    summary = owner.get_by_test_id("summary")
    expect(summary).to_be_visible(timeout=120000)
    expect(owner.get_by_test_id("summary-head")).to_contain_text("打2")
    levels = owner.get_by_test_id("summary-levels")
    expect(levels).to_contain_text("不变")  # nobody goes up on both sides
    for span in levels.locator(":scope > span").all():
        text = span.inner_text()
        if "不变" in text:
            expect(span.locator("s")).to_have_count(0)  # "2 (不变)", never "2̶ → 2"
    owner.get_by_test_id("next-deal").click()
    over = owner.get_by_test_id("match-over")
    expect(over).to_be_visible()
    expect(owner.get_by_test_id("new-match")).to_have_text("立即开始下一场")
    expect(owner.get_by_test_id("again")).to_have_count(0)  # one button, not two alike
    expect(owner.get_by_test_id("match-next-hint")).to_contain_text("立即发牌")
    owner.screenshot(path=artifacts / "first-hour-match-end-zh-390x844.png")
    owner.get_by_test_id("watch-replay").click()
    expect(owner.get_by_test_id("replay-board")).to_be_visible()
    seats = owner.get_by_test_id("replay-seat").locator("option").all_text_contents()
    assert seats[1:] == ["Wu", "智能·2号", "智能·3号", "智能·4号"], seats  # named as at the table
    owner.screenshot(path=artifacts / "first-hour-replay-zh-390x844.png")
    assert owner.__dict__["errors"] == []
    owner.context.close()
