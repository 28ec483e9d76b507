"""The pages run under their Content-Security-Policy without a single violation, and the bot
controls are shown only to the room's owner."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.web.table import create_room, enter

DESKTOP = {"width": 1280, "height": 800}


def _collect(page: Page, errors: list[str]) -> None:
    """Console errors (a CSP violation is reported as one) and uncaught exceptions."""
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))


def test_pages_load_under_the_policy_and_only_the_owner_sees_bot_controls(
    browser: Browser, site: str
) -> None:
    errors: list[str] = []
    a = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    b = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    for page in (a, b):
        _collect(page, errors)
    response = a.goto(site + "/")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    enter(a, site, "Ann")
    code = create_room(a, max_deals=1)
    enter(b, site, "Bob", path=f"/?room={code}")
    expect(b.get_by_test_id("waiting")).to_be_visible()
    expect(b.get_by_test_id("sit-1")).to_be_visible()  # anyone may take a free seat
    expect(b.get_by_test_id("add-bot-1")).to_have_count(0)
    expect(b.get_by_test_id("fill-bots-btn")).to_have_count(0)
    a.get_by_test_id("add-bot-1").click()
    expect(b.get_by_test_id("seat-1")).to_contain_text("(seat 2)")
    expect(b.get_by_test_id("remove-bot-1")).to_have_count(0)
    expect(a.get_by_test_id("remove-bot-1")).to_be_visible()
    b.get_by_test_id("sit-2").click()
    expect(a.get_by_test_id("unseat-2")).to_be_visible()  # the owner may move Bob out
    a.goto(site + "/leaderboard.html")
    expect(a.locator("main.board")).to_be_visible()
    assert errors == []
