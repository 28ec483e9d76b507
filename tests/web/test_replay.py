"""The game history and the replay viewer in the browser (issue 14): a finished match listed
with its preset and result; stepping forwards and back shows, at every position, each hand
and each trick exactly as the engine replays the record; a position has its own address;
the record downloads under its proper name and ``shengji replay`` reads that file."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from shengji.cli.main import main
from shengji.core.actions import Redeal
from shengji.core.cards import cards_str
from shengji.core.events import DealEnded, TrickWon
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay_steps
from tests.server.helpers import Msg, finished_match, new_player

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}

SHOWN = """() => {
  const cards = (id) => [...document.querySelectorAll(`[data-testid=${id}] [data-card]`)]
    .map((e) => e.getAttribute("data-card")).join(" ");
  const n = document.querySelectorAll("[data-testid^=rseat-]").length;
  const board = document.querySelector("[data-testid=replay-board]");
  return {
    deal: Number(board.dataset.deal), pos: Number(board.dataset.pos),
    hands: Array.from({ length: n }, (_, s) => cards("rhand-" + s)),
    plays: Array.from({ length: n }, (_, s) => cards("rplayed-" + s)),
  };
}"""


def _expected(record: GameRecord) -> list[dict[str, Any]]:
    """The first deal's positions, straight from the engine: every hand as the first lead is
    made, then each trick's plays and the hands after it."""
    players = int(record.ruleset["players"])
    out: list[dict[str, Any]] = []
    prev = record.start()
    for action, after, events in replay_steps(record):
        assert not isinstance(action, Redeal)
        deal = prev.deal.apply(action)[0]
        if deal.phase is Phase.PLAYING and not out:
            out.append({"hands": [cards_str(deal.hand(s)) for s in range(players)],
                        "plays": [""] * players})
        for e in events:
            if isinstance(e, TrickWon):
                plays = dict(deal.tricks[-1].plays)
                out.append({
                    "hands": [cards_str(deal.hand(s)) for s in range(players)],
                    "plays": [cards_str(plays[s]) for s in range(players)],
                })
        if any(isinstance(e, DealEnded) for e in events):
            break
        prev = after
    return out


def _signed_in(
    browser: Browser, base: str, player: Msg, viewport: dict[str, int], locale: str
) -> Page:
    ctx = browser.new_context(viewport=viewport, locale=locale, accept_downloads=True)
    ctx.add_init_script(f"localStorage.setItem('shengji.player', {json.dumps(json.dumps(player))})")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.__dict__["errors"] = errors
    return page


def test_the_replay_shows_every_trick_as_the_record_says(
    browser: Browser, site: str, artifacts: Path, tmp_path: Path
) -> None:
    ann = new_player(site, "Ann")
    gid, _ = finished_match(site, ann["token"])
    record = GameRecord.from_json(httpx.get(f"{site}/api/games/{gid}").text)
    expected = _expected(record)
    last = len(expected) - 1  # before the first lead, then after each trick
    assert last >= 10
    page = _signed_in(browser, site, ann, DESKTOP, "en-US")
    page.goto(site + "/#/")
    page.get_by_test_id("history-link").click()
    row = page.get_by_test_id("my-games").get_by_test_id(f"game-{gid}")  # among my matches
    expect(row).to_contain_text("Classic")
    expect(row).to_contain_text("1 deal")
    expect(row).to_contain_text("Ann, Random bot #2, Random bot #3, Random bot #4")
    # the outcome the table announced: the seats that led when the deals ran out, if any
    entry = httpx.get(f"{site}/api/players/{ann['id']}/games").json()["games"][0]
    expect(row).to_contain_text("won by" if entry["winners"] else "no winner")
    page.screenshot(path=artifacts / "history-1280x800.png")
    page.get_by_test_id(f"replay-{gid}").click()
    expect(page.get_by_test_id("replay-start")).to_be_visible()  # declarations, kitty
    expect(page.get_by_test_id("replay-kitty").first).to_contain_text("buried")
    page.screenshot(path=artifacts / "replay-start-1280x800.png")
    # forwards with the → key through every trick, then the deal's end
    for k, want in enumerate(expected):
        shown = page.evaluate(SHOWN)
        assert (shown["deal"], shown["pos"]) == (1, k)
        assert shown["hands"] == want["hands"], k
        assert shown["plays"] == want["plays"], k
        if k == 7:
            page.screenshot(path=artifacts / "replay-trick-1280x800.png")
        page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-end")).to_be_visible()
    expect(page.get_by_test_id("replay-levels")).to_contain_text("→")
    page.screenshot(path=artifacts / "replay-end-1280x800.png")
    # back with the button and the ← key; the slider jumps
    page.get_by_test_id("replay-back").click()
    for k in range(last, last - 6, -1):
        shown = page.evaluate(SHOWN)
        assert shown["pos"] == k and shown["plays"] == expected[k]["plays"], k
        page.keyboard.press("ArrowLeft")
    page.get_by_test_id("replay-slider").fill("3")
    shown = page.evaluate(SHOWN)
    assert shown["pos"] == 3 and shown["hands"] == expected[3]["hands"]
    # each position has an address: opening it shows that table
    assert page.url.endswith(f"#/replay/{gid}/1/3")
    page.reload()
    expect(page.get_by_test_id("replay-board")).to_have_attribute("data-pos", "3")
    assert page.evaluate(SHOWN)["plays"] == expected[3]["plays"]
    # play at 4×: it moves on by itself, and pauses
    page.get_by_test_id("replay-speed").select_option("4")
    page.get_by_test_id("replay-play").click()
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=replay-board]').dataset.pos) >= 5",
        timeout=5000,
    )
    page.get_by_test_id("replay-play").click()  # pause: it stays where it is
    paused = page.evaluate(SHOWN)["pos"]
    page.wait_for_timeout(700)
    assert page.evaluate(SHOWN)["pos"] == paused
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
    assert f"Trick {last}:" in out.getvalue() and "Result:" in out.getvalue()
    assert page.__dict__["errors"] == []
    page.context.close()


def test_the_replay_on_a_phone_in_chinese(browser: Browser, site: str, artifacts: Path) -> None:
    ann = new_player(site, "小明")
    gid, _ = finished_match(site, ann["token"])
    page = _signed_in(browser, site, ann, PHONE, "zh-CN")
    page.goto(f"{site}/#/replay/{gid}/1/6")
    expect(page.get_by_test_id("replay-where")).to_contain_text("第1局 · 第6轮")
    expect(page.get_by_test_id("replay-trick")).to_contain_text("得")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    page.screenshot(path=artifacts / "replay-trick-390x844.png", full_page=True)
    page.get_by_test_id("replay-slider").fill("99")  # the slider's end: the deal's end
    expect(page.get_by_test_id("replay-end")).to_contain_text("闲家得分")
    page.screenshot(path=artifacts / "replay-end-390x844.png", full_page=True)
    page.goto(f"{site}/#/history")
    row = page.get_by_test_id("my-games").get_by_test_id(f"game-{gid}")
    expect(row).to_contain_text("经典")
    expect(row).to_contain_text("随机机器人 #2")
    page.screenshot(path=artifacts / "history-390x844.png")
    # a game that does not exist (or another's private one) says so
    page.goto(f"{site}/#/replay/{gid + 40}")
    expect(page.get_by_test_id("replay-error")).to_be_visible()
    assert page.__dict__["errors"] == []
    page.context.close()


def test_a_find_friend_replay_on_a_tablet(browser: Browser, site: str, artifacts: Path) -> None:
    """The friend call before the first lead, the friend shown at the trick that revealed
    it; the viewer fits a tablet held upright."""
    ann = new_player(site, "Ann")
    gid, _ = finished_match(site, ann["token"], preset="find-friend")
    deal = httpx.get(f"{site}/api/games/{gid}/replay").json()["deals"][0]
    call = deal["friend_call"]["card"]
    page = _signed_in(browser, site, ann, TABLET, "en-US")
    page.goto(f"{site}/#/replay/{gid}/1/0")
    suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    label = "Big joker" if call == "BJ" else "Little joker" if call == "LJ" else (
        suit[call[0]] + call[1:])
    expect(page.get_by_test_id("replay-friend")).to_contain_text(label)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= TABLET["width"]
    page.screenshot(path=artifacts / "replay-friend-820x1180.png")
    revealed = [i for i, p in enumerate(deal["positions"]) if p.get("friend_revealed") is not None]
    if revealed:  # the friend played the card: that trick names it
        page.goto(f"{site}/#/replay/{gid}/1/{revealed[0]}")
        expect(page.get_by_test_id("replay-friend-revealed")).to_contain_text("friend")
        page.screenshot(path=artifacts / "replay-friend-revealed-820x1180.png")
    assert page.__dict__["errors"] == []
    page.context.close()
