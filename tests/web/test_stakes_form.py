"""The create-room form's 反主/反底 option: its default follows the sheets (on for 欢乐豆, off
for coins and ratings; docs/rules.md Decision 120), a creator may change it, and the room's
table's info bar says when a room doubles."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from tests.server.helpers import fast_settings, live_server
from tests.web.table import create_room, enter

DESKTOP = {"width": 1280, "height": 800}


def test_the_doubling_box_follows_the_kind_and_reaches_the_room(
    browser: Browser, tmp_path: Path
) -> None:
    settings = fast_settings(str(tmp_path), bot_delay_s=0.0)
    with live_server(settings) as base:
        ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        enter(page, base, "Ann")
        box = page.get_by_test_id("stakes-doubling")
        expect(box).to_have_count(0)  # a plain room has nothing to double
        page.get_by_test_id("stakes-kind").select_option("beans")
        expect(box).to_be_checked()  # "每次反主游戏基数*2": the 欢乐豆 sheet
        page.get_by_test_id("stakes-kind").select_option("coins")
        expect(box).not_to_be_checked()  # seed 000's 游戏币 rule has no doubling
        box.check()
        page.get_by_test_id("stakes-n").fill("1000")
        code = create_room(page, max_deals=1, fill="random")
        stakes = httpx.get(f"{base}/api/rooms/{code}").json()["stakes"]
        assert stakes["kind"] == "coins" and stakes["overturn_doubling"] is True
        page.get_by_test_id("ready").click()  # the info bar is the table's
        expect(page.get_by_test_id("room-stakes")).to_have_text("游戏币场 N=1000 · 反主/反底×2")

        ctx.close()

        ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        enter(page, base, "Bea")
        page.get_by_test_id("stakes-kind").select_option("beans")
        page.get_by_test_id("stakes-doubling").uncheck()
        code = create_room(page, max_deals=1)
        stakes = httpx.get(f"{base}/api/rooms/{code}").json()["stakes"]
        assert stakes["kind"] == "beans" and stakes["overturn_doubling"] is False
        assert errors == []
        ctx.close()
