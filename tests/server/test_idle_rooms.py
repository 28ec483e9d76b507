"""Idle rooms leave memory and come back from their log (issue 15, server/live/idle_rooms.py):
a room left mid-match by its only human is unloaded (a stub stays in the lobby and the
room list), and when the player comes back the match goes on exactly where it stopped:
the same hand, the same sequence number, and the next action is accepted."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from shengji.server.http.app import create_app
from shengji.server.live.lobby import Lobby
from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room

BOTS3 = {"1": "random", "2": "random", "3": "random"}


def _until(pred: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _my_turn(c: Client) -> Msg:
    """Play along (hints) until the match waits for seat 0 after the deal."""
    return c.wait(
        lambda m: m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing", 60
    )


def _seen(c: Client) -> Msg:
    snap = c.wait(lambda m: m["t"] == "snapshot")
    return {"seq": snap["seq"], "game": snap["game"], "status": snap["room"]["status"],
            "seats": [(s["kind"], s["name"]) for s in snap["room"]["seats"]]}


def test_an_idle_room_is_unloaded_and_its_match_goes_on_when_the_player_returns(
    tmp_path: Path,
) -> None:
    # the away player's seat waits an hour for them: nothing is due, the room is idle
    settings = fast_settings(str(tmp_path), idle_unload_s=0.3, seat_grace_s=3600.0)
    app = create_app(settings)
    with live_server(settings, app) as base:
        lobby: Lobby = app.state.lobby
        ann = new_player(base, "ann")
        code = new_room(base, ann["token"], bots=BOTS3, private=False)["code"]
        c = Client(base, code, ann["token"])
        c.send({"t": "sit", "v": 1, "seat": 0})
        c.send({"t": "ready", "v": 1})
        _my_turn(c)
        c.close()
        again = Client(base, code, ann["token"])
        before = _seen(again)
        again.close()

        _until(lambda: code in lobby.idle)
        assert code not in lobby.rooms
        listed = httpx.get(f"{base}/api/rooms/{code}").json()  # the stub answers
        assert listed["status"] == "playing" and listed["seats"][0]["name"] == "ann"
        assert code in [r["code"] for r in httpx.get(f"{base}/api/rooms").json()]

        back = Client(base, code, ann["token"], last_seq=before["seq"])
        assert back.welcome["t"] == "welcome" and back.welcome["seat"] == 0
        after = _seen(back)
        assert code in lobby.rooms and code not in lobby.idle
        assert after == before  # same hand, same sequence number, same turn
        back.send({"t": "hint", "v": 1})
        hint = back.wait(lambda m: m["t"] == "hint")
        back.act(hint["action"])
        moved = back.wait(lambda m: m["t"] in ("update", "error"))
        assert moved["t"] == "update" and moved["seq"] == before["seq"] + 1
        back.close()


def test_a_bots_only_match_is_never_idle_and_an_unloaded_room_still_expires(
    tmp_path: Path,
) -> None:
    settings = fast_settings(
        str(tmp_path), idle_unload_s=0.2, room_idle_s=2.0, bot_delay_s=0.05
    )
    app = create_app(settings)
    with live_server(settings, app) as base:
        lobby: Lobby = app.state.lobby
        ann = new_player(base, "ann")
        bots = new_room(base, ann["token"], bots={"0": "random", **BOTS3})["code"]
        _until(lambda: lobby.rooms[bots].status == "playing")
        empty = new_room(base, ann["token"])["code"]
        _until(lambda: empty in lobby.idle)  # nobody came, nothing to do
        for _ in range(30):  # playing for nobody: never unloaded (room_idle_s closes it)
            assert bots not in lobby.idle
            time.sleep(0.02)
        _until(lambda: empty not in lobby.idle)  # room_idle_s: closed while unloaded
        assert httpx.get(f"{base}/api/rooms/{empty}").status_code == 404
        refused = Client(base, empty, ann["token"])
        assert refused.welcome["t"] == "error" and refused.welcome["code"] == "no-room"
        refused.close()
