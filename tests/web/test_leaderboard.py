"""Stakes in the browser: a coin room created from the lobby form, its deal settled, and the
leaderboard page (both languages) with the player's own balances and ledger."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.server.helpers import Client, fast_settings, live_server, new_player
from tests.web.table import create_room, enter

DESKTOP = {"width": 1280, "height": 800}


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    return errors


def _stakes(base: str, pid: str, kind: str, deals: int) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        data: dict[str, Any] = httpx.get(f"{base}/api/players/{pid}/stakes").json()
        if data["deals"][kind] >= deals or time.monotonic() > deadline:
            return data
        time.sleep(0.1)


def test_a_coin_room_from_the_form_and_the_leaderboard(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    settings = fast_settings(str(tmp_path), bot_delay_s=0.0, seat_grace_s=0.0)
    with live_server(settings) as base:
        ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
        page = ctx.new_page()
        errors = _errors(page)
        enter(page, base, "Ann")
        expect(page.get_by_test_id("leaderboard-link")).to_have_attribute(
            "href", "/leaderboard.html"
        )
        page.get_by_test_id("stakes-kind").select_option("coins")
        page.get_by_test_id("stakes-n").fill("1000")
        code = create_room(page, max_deals=1)
        room = httpx.get(f"{base}/api/rooms/{code}").json()
        assert room["stakes"] == {
            "kind": "coins",
            "coefficient": 1000,
            "house": 0,
            "slam_points": None,
            "overturn_doubling": False,  # seed 000's 游戏币 rule does not double
        }
        # Bob takes seat 1 and leaves (a stand-in plays for him); bots in seats 2 and 3
        bob = new_player(base, "Bob")
        c = Client(base, code, bob["token"])
        c.send({"t": "sit", "v": 1, "seat": 1})
        c.send({"t": "ready", "v": 1})
        c.wait(lambda m: m["t"] == "room" and bool(m["room"]["seats"][1]["ready"]))
        c.close()
        for seat in (2, 3):
            page.get_by_test_id(f"add-bot-{seat}").click()
            expect(page.get_by_test_id(f"remove-bot-{seat}")).to_be_visible()
        page.get_by_test_id("ready").click()
        page.wait_for_function("() => window.__shengji.room.status === 'playing'")
        ann = json.loads(page.evaluate("() => localStorage.getItem('shengji.player')"))

        # Ann leaves for the leaderboard: a stand-in finishes the deal for her
        page.goto(base + "/leaderboard.html")
        expect(page.get_by_test_id("kind-rating")).to_be_visible()
        mine = _stakes(base, ann["id"], "coins", 1)
        assert mine["deals"]["coins"] == 1
        page.reload()
        page.get_by_test_id("kind-coins").click()
        board = page.get_by_test_id("board")
        expect(board).to_contain_text("Ann")
        expect(board).to_contain_text("Bob")
        expect(page.get_by_test_id("my-coins")).to_have_text(str(mine["coins"]))
        expect(page.get_by_test_id("ledger")).to_contain_text("deal 1")
        page.get_by_test_id("kind-beans").click()
        expect(page.get_by_test_id("board-empty")).to_be_visible()
        page.get_by_test_id("kind-coins").click()
        page.screenshot(path=artifacts / "leaderboard-1280x800.png")
        page.get_by_test_id("lang").click()
        expect(page.locator("h1")).to_have_text("排行榜")
        expect(page.get_by_test_id("kind-coins")).to_have_text("游戏币")
        expect(page.get_by_test_id("ledger")).to_contain_text("第1局")
        expect(page.get_by_test_id("ledger")).to_contain_text("N=")
        expect(page.get_by_test_id("ledger")).not_to_contain_text("dealer side")
        expect(page.get_by_test_id("ledger")).not_to_contain_text("attackers")
        page.screenshot(path=artifacts / "leaderboard-zh-1280x800.png")
        assert errors == []
        ctx.close()


def test_a_spectator_sees_the_room_stakes_and_each_seats_settlement(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    settings = fast_settings(str(tmp_path), bot_delay_s=0.05, seat_grace_s=0.0)
    with live_server(settings) as base:
        ann, bob = new_player(base, "Ann"), new_player(base, "Bob")
        r = httpx.post(
            f"{base}/api/rooms",
            json={
                "max_deals": 1,
                "stakes": {"kind": "coins", "coefficient": 1000},
                "bots": {"2": "random", "3": "random"},
            },
            headers={"Authorization": f"Bearer {ann['token']}"},
        )
        code = r.json()["code"]
        ctx = browser.new_context(viewport=DESKTOP, locale="zh-CN")
        page = ctx.new_page()
        errors = _errors(page)
        enter(page, base, "观众", path=f"/#/room/{code}")
        expect(page.get_by_test_id("waiting")).to_be_visible()
        # Ann and Bob sit on opposite sides and leave: stand-ins play for them
        for seat, p in enumerate((ann, bob)):
            c = Client(base, code, p["token"])
            c.send({"t": "sit", "v": 2, "seat": seat})
            c.send({"t": "ready", "v": 2})
            c.wait(lambda m, s=seat: m["t"] == "room" and bool(m["room"]["seats"][s]["ready"]))
            c.close()
        expect(page.get_by_test_id("room-stakes")).to_have_text("游戏币场 N=1000")
        summary = page.get_by_test_id("summary")
        expect(summary).to_be_visible(timeout=60_000)
        stakes = page.get_by_test_id("summary-stakes")
        expect(stakes).to_contain_text("本局结算（游戏币）")
        mine = _stakes(base, ann["id"], "coins", 1)
        delta = mine["ledger"][0]["delta"]
        expect(page.get_by_test_id("stake-0")).to_contain_text(f"{delta:+d}")
        expect(page.get_by_test_id("stake-2")).to_contain_text("—")  # bots are unrated
        page.screenshot(path=artifacts / "summary-stakes-zh-1280x800.png")
        assert errors == []
        ctx.close()
