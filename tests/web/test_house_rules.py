"""The house-rules editor in the browser: five fields changed in the create-room form (at
phone and desktop sizes, in English and Chinese), an invalid kitty refused at its field
before any room exists, a deal played under the rules, the waiting room's list of what
differs from the preset, and the share link opened in another browser giving the same
rules. Screenshots of the editor land in tests/artifacts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.table import enter, play_until, state

FIVE: dict[str, Any] = {
    "tractor_follow": "free",
    "throw_policy": "never",
    "dealer_rotation": "same",
    "kitty_cap": 8,
    "allow_reinforce": False,
}
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def change_five(page: Page) -> None:
    """Change the five fields in the editor as a player would."""
    page.get_by_test_id("house-rules").locator("summary").click()
    page.get_by_test_id("rule-tractor_follow").select_option("free")
    page.get_by_test_id("rule-throw_policy").select_option("never")
    page.get_by_test_id("rule-dealer_rotation").select_option("same")
    page.get_by_test_id("rule-kitty_cap").fill("8")
    page.get_by_test_id("rule-kitty_cap").press("Tab")
    page.get_by_test_id("rule-allow_reinforce").uncheck()


def editor_values(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in FIVE:
        box = page.get_by_test_id(f"rule-{name}")
        if name == "allow_reinforce":
            out[name] = box.is_checked()
        elif name == "kitty_cap":
            out[name] = int(box.input_value())
        else:
            out[name] = box.input_value()
    return out


@pytest.mark.parametrize("lang", ["en-US", "zh-CN"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_house_rules_made_played_and_shared(
    browser: Browser, site: str, artifacts: Path, lang: str, size: str
) -> None:
    ctx = browser.new_context(viewport=SIZES[size], locale=lang)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    enter(page, site, "Hu")
    page.get_by_test_id("preset").select_option("classic")
    change_five(page)
    expect(page.get_by_test_id("rules-count")).to_contain_text("5")
    expect(page.get_by_test_id("field-tractor_follow")).to_have_class("rulefield changed")

    # an invalid kitty is refused at its field, with the server's message, and no room made
    page.get_by_test_id("rule-kitty_size").fill("7")
    page.get_by_test_id("rule-kitty_size").press("Tab")
    err = page.get_by_test_id("field-kitty_size").get_by_test_id("rule-error")
    expect(err).to_contain_text("split evenly")
    expect(page.get_by_test_id("create")).to_be_disabled()
    tag = f"{size}-{lang[:2]}"
    page.get_by_test_id("field-kitty_size").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"house-rules-refused-{tag}.png"))
    page.get_by_test_id("rule-kitty_size").fill("8")
    page.get_by_test_id("rule-kitty_size").press("Tab")
    expect(err).to_have_count(0)
    expect(page.get_by_test_id("create")).to_be_enabled()
    page.get_by_test_id("house-rules").screenshot(path=str(artifacts / f"house-rules-{tag}.png"))
    link = page.get_by_test_id("rules-link").input_value()
    assert "#/new?rules=" in link

    # saved under a name, reset, and loaded back
    page.get_by_test_id("rules-save-name").fill("Friday")
    page.get_by_test_id("rules-save").click()
    expect(page.get_by_test_id("rules-saved-msg")).to_contain_text("Friday")
    page.get_by_test_id("rules-reset").click()
    expect(page.get_by_test_id("rules-count")).to_have_count(0)
    page.get_by_test_id("rules-saved").select_option("Friday")
    page.get_by_test_id("rules-load").click()
    expect(page.get_by_test_id("rules-count")).to_contain_text("5")
    assert editor_values(page) == FIVE

    # the room keeps them, says what differs from the preset, and a deal is played
    page.get_by_test_id("max-deals").fill("1")
    page.get_by_test_id("fill-bots").select_option("heuristic")
    page.get_by_test_id("create").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.seat === 0")
    ruleset = page.evaluate("() => window.__shengji.room.ruleset")
    assert {k: ruleset[k] for k in FIVE} == FIVE
    expect(page.get_by_test_id("rules-diff").locator("li")).to_have_count(5)
    diff = page.get_by_test_id("rules-diff")
    diff.screenshot(path=str(artifacts / f"house-rules-room-{tag}.png"))
    page.get_by_test_id("ready").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    # at the table the side column keeps them, folded
    panel = page.get_by_test_id("rules-panel")
    expect(panel).to_contain_text("5")
    panel.locator("summary").click()
    expect(panel.locator("li")).to_have_count(5)
    panel.screenshot(path=str(artifacts / f"house-rules-table-{tag}.png"))
    play_until([page], lambda: state(page).get("summary") or state(page).get("matchOver"),
               timeout=240)

    # another browser opens the link and gets the same rules
    other = browser.new_context(viewport=SIZES[size], locale=lang)
    page2 = other.new_page()
    enter(page2, site, "Bo", path="/" + link.split("/", 3)[3])
    expect(page2.get_by_test_id("rules-count")).to_contain_text("5")
    assert editor_values(page2) == FIVE
    page2.get_by_test_id("private").check()
    page2.get_by_test_id("create").click()
    page2.wait_for_function("() => window.__shengji && window.__shengji.room")
    assert page2.evaluate("() => window.__shengji.room.ruleset") == ruleset
    assert errors == []
    other.close()
    ctx.close()


def test_rank_lists_are_ticked_and_the_room_plays_them(
    browser: Browser, site: str, artifacts: Path
) -> None:
    """Levels played and 必打 as ticked ranks: 2 5 10 J Q K A with 5 必打 gives a room whose
    ruleset says so, and the waiting room lists both."""
    ctx = browser.new_context(viewport=SIZES["phone"], locale="zh-CN")
    page = ctx.new_page()
    enter(page, site, "Ra")
    page.get_by_test_id("preset").select_option("classic")
    page.get_by_test_id("house-rules").locator("summary").click()
    for rank in ("3", "4", "6", "7", "8", "9"):
        page.get_by_test_id(f"rule-level_sequence-{rank}").uncheck()
        expect(page.get_by_test_id("rules-count")).to_contain_text("1")
    page.get_by_test_id("rule-must_play-5").check()
    expect(page.get_by_test_id("rules-count")).to_contain_text("2")
    page.get_by_test_id("field-level_sequence").screenshot(
        path=str(artifacts / "house-rules-ranks-phone-zh.png"))
    page.get_by_test_id("create").click()
    page.wait_for_function("() => window.__shengji && window.__shengji.room")
    ruleset = page.evaluate("() => window.__shengji.room.ruleset")
    assert ruleset["level_sequence"] == ["2", "5", "10", "J", "Q", "K", "A"]
    assert ruleset["must_play"] == ["5", "A"]
    expect(page.get_by_test_id("diff-level_sequence")).to_contain_text("2 5 10 J Q K A")
    expect(page.get_by_test_id("diff-must_play")).to_contain_text("5 A")
    ctx.close()
