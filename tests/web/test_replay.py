"""The game history and the replay viewer in the browser: a finished match listed with its
preset and result; the viewer is the table's own parts fed the updates the table sent one
audience, so stepping forwards and back shows, at every step, the hand, the trick and the
points of that update's view; a step (and the seat watched) has its own address; the
record downloads under its proper name and ``shengji replay`` reads that file."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from shengji.cli.main import main
from shengji.core.record import GameRecord
from tests.server.helpers import Msg, finished_match, new_player

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}

SHOWN = """() => {
  const cards = (sel) => [...document.querySelectorAll(sel + " [data-card]")]
    .map((e) => e.getAttribute("data-card")).sort().join(" ");
  const viewer = document.querySelector("[data-testid=replay]");
  const board = document.querySelector("[data-testid=replay-board]");
  const seats = document.querySelectorAll("[data-testid=felt] [data-testid^=seat-]").length;
  const points = document.querySelector("[data-testid=points-value]");
  return {
    deal: Number(viewer.dataset.deal), step: Number(viewer.dataset.step),
    shown: board ? Number(board.dataset.shown) : null, first: Number(viewer.dataset.first),
    hand: cards("[data-testid=hand]"),
    plays: Array.from({ length: seats },
      (_, s) => cards(`[data-testid=trick] [data-testid=play-${s}]`)),
    points: points ? Number(points.textContent) : null,
    summary: !!document.querySelector("[data-testid=summary]"),
  };
}"""


def _shown(page: Page) -> dict[str, Any]:
    """What the table shows, once it shows the step the controls are at (an update is put
    on the table just after the step moves)."""
    page.wait_for_function(
        "() => { const v = document.querySelector('[data-testid=replay]');"
        " const b = document.querySelector('[data-testid=replay-board]');"
        " return v && b && b.dataset.shown !== undefined; }"
    )
    for _ in range(50):
        shown: dict[str, Any] = page.evaluate(SHOWN)
        if shown["shown"] == shown["first"] + shown["step"]:
            return shown
        page.wait_for_timeout(20)
    raise AssertionError(f"the table never showed step {shown['step']}")


def _sorted(cards: str) -> str:
    return " ".join(sorted(cards.split()))


def _expected(update: dict[str, Any]) -> dict[str, Any]:
    """What the table's parts show of one update's view: the hand, each seat's cards on the
    felt (the trick, or the last one until the next lead), the attackers' points."""
    g = update["game"]
    n = len(g["hand_sizes"])
    trick = g["trick"] or (
        g["last_trick"]["plays"] if g["last_trick"] and g["phase"] == "playing" else []
    )
    plays = dict((s, c) for s, c in trick)
    return {
        "hand": _sorted(g["hand"]),
        "plays": [_sorted(plays.get(s, "")) for s in range(n)],
        "points": g["attacker_points"],
        "summary": any(e["type"] == "deal_ended" for e in update["events"]),
    }


def _signed_in(
    browser: Browser, base: str, player: Msg, viewport: dict[str, int], locale: str,
    still: bool = False,
) -> Page:
    """A page signed in as ``player``; ``still``: no motion (a card flying in from its
    seat's plate may stick out for a moment, and a layout is measured at rest)."""
    ctx = browser.new_context(viewport=viewport, locale=locale, accept_downloads=True,
                              reduced_motion="reduce" if still else "no-preference")
    ctx.add_init_script(f"localStorage.setItem('shengji.player', {json.dumps(json.dumps(player))})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.__dict__["errors"] = errors
    return page


def test_the_replay_is_the_table_fed_each_update_it_sent(
    browser: Browser, site: str, artifacts: Path, tmp_path: Path
) -> None:
    ann = new_player(site, "Ann")
    gid, _ = finished_match(site, ann["token"])
    record = GameRecord.from_json(httpx.get(f"{site}/api/games/{gid}").text)
    rep = httpx.get(f"{site}/api/games/{gid}/replay?seat=0").json()
    updates = rep["updates"]
    last = len(updates) - 1  # one deal
    page = _signed_in(browser, site, ann, DESKTOP, "en-US")
    page.goto(site + "/#/")
    page.get_by_test_id("history-link").click()
    row = page.get_by_test_id("my-games").get_by_test_id(f"game-{gid}")  # among my matches
    expect(row).to_contain_text("Classic")
    expect(row).to_contain_text("1 deal")
    expect(row).to_contain_text("Ann, Random (seat 2), Random (seat 3), Random (seat 4)")
    entry = httpx.get(f"{site}/api/players/{ann['id']}/games").json()["games"][0]
    expect(row).to_contain_text("won by" if entry["winners"] else "no winner")
    page.screenshot(path=artifacts / "history-1280x800.png")
    page.get_by_test_id(f"replay-{gid}").click()
    # the table's own parts, watching Ann's seat (she sat in it)
    expect(page.get_by_test_id("felt")).to_be_visible()
    expect(page.get_by_test_id("infobar")).to_be_visible()
    expect(page.get_by_test_id("replay-seat")).to_have_value("0")
    expect(page.get_by_test_id("seat-0")).to_contain_text("Ann")
    # forwards with the → key: every step draws exactly its update's view
    play_start = next(i for i, u in enumerate(updates) if u["game"]["phase"] == "playing")
    for k in range(0, play_start + 14):
        shown = _shown(page)
        assert (shown["deal"], shown["step"]) == (1, k)
        want = _expected(updates[k])
        assert {key: shown[key] for key in want} == want, k
        if k == play_start + 9:
            page.screenshot(path=artifacts / "replay-trick-1280x800.png")
        page.keyboard.press("ArrowRight")
    # the slider's end: the deal's end, its summary as the table showed it
    page.get_by_test_id("replay-slider").fill(str(last))
    expect(page.get_by_test_id("summary")).to_be_visible()
    end = next(e for e in updates[-1]["events"] if e["type"] == "deal_ended")
    expect(page.get_by_test_id("summary-points")).to_have_text(str(end["attacker_points"]))
    page.screenshot(path=artifacts / "replay-end-1280x800.png")
    page.get_by_test_id("next-deal").click()  # the summary closes, as at the table
    # back with the button and the ← key
    page.get_by_test_id("replay-back").click()
    for k in range(last - 1, last - 6, -1):
        shown = _shown(page)
        want = _expected(updates[k])
        assert shown["step"] == k and {key: shown[key] for key in want} == want, k
        page.keyboard.press("ArrowLeft")
    page.get_by_test_id("replay-slider").fill(str(play_start + 3))
    # each step has an address, with the seat watched: opening it shows that table
    assert page.url.endswith(f"#/replay/{gid}/1/{play_start + 3}/as/0")
    page.reload()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(play_start + 3))
    assert _shown(page)["plays"] == _expected(updates[play_start + 3])["plays"]
    # as a spectator: the same table, no hand
    page.get_by_test_id("replay-seat").select_option("s")
    expect(page.get_by_test_id("watching")).to_be_visible()
    expect(page.get_by_test_id("hand")).to_have_count(0)
    spectator = httpx.get(f"{site}/api/games/{gid}/replay").json()["updates"]
    shown = _shown(page)
    assert shown["plays"] == _expected(spectator[shown["step"]])["plays"]
    assert page.url.endswith("/as/s")
    # play at 4×: it moves on by itself, and pauses
    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    at = shown["step"]
    page.wait_for_function(
        f"() => Number(document.querySelector('[data-testid=replay]').dataset.step) >= {at + 2}",
        timeout=5000,
    )
    page.get_by_test_id("replay-play").click()  # pause: it stays where it is
    paused = page.evaluate(SHOWN)["step"]
    page.wait_for_timeout(700)
    assert page.evaluate(SHOWN)["step"] == paused
    # the record downloads under its name, and the command line replays that file
    with page.expect_download() as got:
        page.get_by_test_id("replay-download").click()
    download = got.value
    assert download.suggested_filename.startswith("shengji-classic-")
    assert download.suggested_filename.endswith(f"-game{gid}.json")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    assert GameRecord.from_json(path.read_text("utf-8")) == record
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", str(path)]) == 0
    tricks = sum(e["type"] == "trick_won" for u in updates for e in u["events"])
    assert f"Trick {tricks}:" in out.getvalue() and "Result:" in out.getvalue()
    assert page.__dict__["errors"] == []
    page.context.close()


def test_the_replay_on_a_phone_in_chinese(browser: Browser, site: str, artifacts: Path) -> None:
    ann = new_player(site, "小明")
    gid, _ = finished_match(site, ann["token"])
    updates = httpx.get(f"{site}/api/games/{gid}/replay?seat=0").json()["updates"]
    step = next(i for i, u in enumerate(updates) if u["game"]["tricks_done"] == 5)
    page = _signed_in(browser, site, ann, PHONE, "zh-CN", still=True)
    page.goto(f"{site}/#/replay/{gid}/1/{step}/as/0")
    expect(page.get_by_test_id("deal-no")).to_contain_text("第1局")
    expect(page.get_by_test_id("points-value")).to_have_text(
        str(updates[step]["game"]["attacker_points"])
    )
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    page.screenshot(path=artifacts / "replay-trick-390x844.png", full_page=True)
    page.get_by_test_id("replay-slider").fill("9999")  # the slider's end: the deal's end
    expect(page.get_by_test_id("summary")).to_contain_text("闲家得分")
    page.screenshot(path=artifacts / "replay-end-390x844.png", full_page=True)
    page.goto(f"{site}/#/history")
    row = page.get_by_test_id("my-games").get_by_test_id(f"game-{gid}")
    expect(row).to_contain_text("经典")
    expect(row).to_contain_text("随机·2号")
    page.screenshot(path=artifacts / "history-390x844.png")
    # a game that does not exist (or another's private one) says so
    page.goto(f"{site}/#/replay/{gid + 40}")
    expect(page.get_by_test_id("replay-error")).to_be_visible()
    assert page.__dict__["errors"] == []
    page.context.close()


def test_a_find_friend_replay_on_a_tablet(browser: Browser, site: str, artifacts: Path) -> None:
    """The friend call on the info bar as the table shows it, the friend named on the step
    that revealed it; the viewer fits a tablet held upright."""
    ann = new_player(site, "Ann")
    gid, _ = finished_match(site, ann["token"], preset="find-friend")
    updates = httpx.get(f"{site}/api/games/{gid}/replay?seat=0").json()["updates"]
    called = next(i for i, u in enumerate(updates) if u["game"]["friend_call"])
    page = _signed_in(browser, site, ann, TABLET, "en-US", still=True)
    page.goto(f"{site}/#/replay/{gid}/1/{called}/as/0")
    expect(page.get_by_test_id("friend-call")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= TABLET["width"]
    page.screenshot(path=artifacts / "replay-friend-820x1180.png")
    revealed = [i for i, u in enumerate(updates)
                if any(e["type"] == "friend_revealed" for e in u["events"])]
    if revealed:  # the friend played the card: that step says so, as the table's notice did
        page.goto(f"{site}/#/replay/{gid}/1/{revealed[0]}/as/0")
        expect(page.get_by_test_id("replay-said")).to_contain_text("friend")
        expect(page.get_by_test_id("friend-status")).not_to_be_empty()
        page.screenshot(path=artifacts / "replay-friend-revealed-820x1180.png")
    assert page.__dict__["errors"] == []
    page.context.close()
