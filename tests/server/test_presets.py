"""Every preset over the server: the catalog lists them all, a preset the engine cannot play
yet is refused with a clear reason, and a room of each playable preset (3, 4 or 5 seats)
plays a whole deal to the end with bots while a spectator watches."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from shengji.core.record import GameRecord, record_result, replay
from shengji.core.ruleset import PRESET_INFO, PRESETS, RESERVED_PRESETS
from shengji.server.live.lobby import preset_catalog, unplayable
from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room

PLAYABLE = [p["name"] for p in preset_catalog() if p["playable"]]


@pytest.fixture
def server(tmp_path: object) -> Iterator[str]:
    """A fresh server whose rooms keep a whole deal's messages for a client that resumes
    from the start: the bots play without delay, so by the time the spectator connects the
    default 64 KiB buffer may have dropped the first ones (a snapshot instead, not resume)."""
    settings = fast_settings(str(tmp_path), replay_bytes=8 << 20, log_size=100_000)
    with live_server(settings) as base:
        yield base


def test_the_catalog_lists_every_preset_and_says_which_are_played(server: str) -> None:
    meta = httpx.get(f"{server}/api/meta").json()
    info = {p["name"]: p for p in meta["preset_info"]}
    assert set(info) == set(PRESETS) | set(RESERVED_PRESETS)
    for name in ("tournament", "four-deck", "find-friend", "five-player", "three-player"):
        assert name in info
    assert info["classic"]["players"] == 4 and info["classic"]["playable"] is True
    assert info["tournament"]["level_sequence"] == ["2", "5", "10", "J", "Q", "K", "A"]
    assert info["four-deck"]["decks"] == 4
    for p in info.values():
        assert p["playable"] == (p["reason"] is None), p


def test_each_preset_names_its_sheet_and_huanle_rooms_play_for_beans(server: str) -> None:
    # Decisions 113, 115: the catalog carries each preset's sheet and default stakes; a room
    # created without stakes takes its preset's (欢乐升级: 欢乐豆), an explicit plain overrides
    info = {p["name"]: p for p in httpx.get(f"{server}/api/meta").json()["preset_info"]}
    for name in PRESETS:
        assert info[name]["source"] == PRESET_INFO[name].source and "seed 00" in info[name][
            "source"]
    assert info["classic"]["source"].startswith("QQ游戏") and info["classic"]["stakes"] == {
        "kind": "plain"}
    assert info["huanle"]["stakes"]["kind"] == "beans" and info["huanle"]["ruleset"]["rebury"]
    assert info["lianzhong-three-deck"]["decks"] == 3
    token = new_player(server, "hu")["token"]
    room = new_room(server, token, preset="huanle", private=True)
    assert (room["stakes"]["kind"], room["stakes"]["coefficient"]) == ("beans", 100)
    plain = new_room(server, token, preset="huanle", private=True, stakes={"kind": "plain"})
    assert plain["stakes"]["kind"] == "plain"
    assert new_room(server, token, preset="classic", private=True)["stakes"]["kind"] == "plain"


def test_a_preset_the_engine_cannot_play_is_refused_with_its_reason(server: str) -> None:
    token = new_player(server, "ann")["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for p in preset_catalog():
        if p["playable"]:
            continue
        r = httpx.post(f"{server}/api/rooms", json={"preset": p["name"]}, headers=auth)
        assert r.status_code == 400 and r.json()["detail"], p["name"]
    # fixed partners at an odd table cannot be played: refused, not crashed
    body = {"preset": "classic", "options": {"players": 5, "kitty_size": 8}}
    r = httpx.post(f"{server}/api/rooms", json=body, headers=auth)
    assert r.status_code == 400 and "even number of players" in r.json()["detail"]
    assert unplayable(PRESETS["classic"]) is None
    assert httpx.get(f"{server}/api/rooms").json() == []


@pytest.mark.parametrize("name", PLAYABLE)
def test_a_room_of_bots_plays_a_whole_deal(server: str, name: str) -> None:
    watcher = new_player(server, "watcher")
    n = next(p["players"] for p in preset_catalog() if p["name"] == name)
    room = new_room(
        server, watcher["token"], preset=name, max_deals=1, bots={i: "random" for i in range(n)}
    )
    assert len(room["seats"]) == n
    fixed = PRESETS[name].partnership == "fixed"
    assert room["teams"] == ([seat % 2 for seat in range(n)] if fixed else [])
    c = Client(server, room["code"], watcher["token"], last_seq=0)  # everything from the start
    assert c.welcome["resume"] is True
    over = c.wait(lambda m: m["t"] == "match_over", timeout=120)
    assert not any(m["t"] == "error" for m in c.messages)
    updates: list[Msg] = [m for m in c.messages if m["t"] == "update"]
    ends = [e for m in updates for e in m["events"] if e["type"] == "deal_ended"]
    assert len(ends) == 1 and over["result"]["deals"] == 1
    # a spectator saw every seat's card count and nobody's cards
    counts = [e for m in updates for e in m["events"] if e["type"] == "card_count_dealt"]
    assert {e["seat"] for e in counts} == set(range(n))
    assert not any(e["type"] in ("card_dealt", "kitty_taken") for m in updates for e in m["events"])
    # each update carries the spectator's whole view (only the oldest ones, resent from the
    # log, come without), and the deal's end carries its summary
    viewed = [i for i, m in enumerate(updates) if m.get("game") is not None]
    assert viewed and viewed == list(range(viewed[0], len(updates)))
    for m in updates[viewed[0] :]:
        g = m["game"]
        assert g["seat"] is None and g["hand"] == "" and g["options"] == [], g
        assert g["phase"] == m["phase"] and g["trumps"] and len(g["roles"]) == n
    summary = ends[0]["summary"]
    assert len(summary["seat_steps"]) == n and summary["deal_no"] == 0
    assert set(summary["roles"]) <= {"dealer", "partner", "friend", "attacker"}
    rec = GameRecord.from_json(httpx.get(f"{server}/api/games/{over['game']}").text)
    assert rec.ruleset["players"] == n
    assert record_result(replay(rec)) == rec.result == over["result"]
    c.close()
