"""The browser table while the server cannot write (a full disk): a banner says the table
waits, in English and in Chinese, and it goes away when the table goes on by itself."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from shengji.server.http.app import create_app
from tests.server.faults import WriteFault
from tests.server.helpers import fast_settings, live_server
from tests.web.table import create_room, enter, play_until, state

DESKTOP = {"width": 1280, "height": 800}


def test_the_table_shows_a_storage_pause_and_goes_on(
    browser: Browser, tmp_path: Path, artifacts: Path
) -> None:
    settings = fast_settings(
        str(tmp_path), bot_delay_s=0.0, storage_retry_first_s=0.05, storage_retry_max_s=0.2
    )
    app = create_app(settings)
    with live_server(settings, app) as base:
        fault = WriteFault(app.state.store)
        ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        enter(page, base, "Ann")
        create_room(page, max_deals=1, fill="random")
        page.get_by_test_id("ready").click()
        expect(page.get_by_test_id("hand")).to_be_visible()
        play_until([page], lambda: state(page).get("phase") == "playing" and state(page)["to"] == 0)
        cards = state(page)["hand"]
        fault.on()  # the disk is full from now on
        page.get_by_test_id("hint").click()
        expect(page.get_by_test_id("play")).to_be_enabled()
        page.keyboard.press("Enter")
        banner = page.get_by_test_id("paused")
        expect(banner).to_contain_text("cannot save")
        assert state(page)["hand"] == cards  # nothing is shown before it is saved
        page.screenshot(path=artifacts / "paused-1280x800.png")
        page.get_by_test_id("lang").click()
        expect(banner).to_contain_text("服务器暂时无法保存")
        page.screenshot(path=artifacts / "paused-zh-1280x800.png")
        fault.off()
        expect(banner).to_be_hidden()  # (a short "the table goes on" notice shows, unless
        # the play itself brings one, a failed throw's)
        assert page.evaluate("() => window.__shengji.paused") is False
        page.wait_for_function("(n) => window.__shengji.game.hand.length < n", arg=cards)
        assert errors == []
        ctx.close()
