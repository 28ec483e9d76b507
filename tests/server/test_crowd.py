"""A crowded room: spectators beyond ``max_spectators`` are refused (``room-full``, close code
4429) while the seated players play on; presence is coalesced and, on request, sent as
deltas, so a crowd joining does not send every client a message per join."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room


def _connect(base: str, code: str) -> ClientConnection:
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    return connect(url, open_timeout=10, max_queue=None).__enter__()  # closed by the test


def _seated_with_bots(base: str) -> tuple[Client, Msg]:
    """A human at seat 0 with three bots, the match running."""
    ann = new_player(base, "ann")
    room = new_room(base, ann["token"], bots={"1": "random", "2": "random", "3": "random"})
    c = Client(base, room["code"], ann["token"])
    c.send({"t": "sit", "v": 2, "seat": 0})
    c.send({"t": "ready", "v": 2})
    c.wait(lambda m: m["t"] == "room" and m["room"]["status"] == "playing")
    return c, room


def _watch(
    base: str, code: str, name: str, token: str | None = None
) -> tuple[Msg, ClientConnection]:
    """Connect a new guest (or the one of ``token``); returns its first answer and the open
    socket (or the close)."""
    token = token or new_player(base, name)["token"]
    ws = _connect(base, code)
    ws.send(json.dumps({"t": "hello", "v": 2, "token": token}))
    first: Msg = json.loads(ws.recv(timeout=10))
    return first, ws


def test_spectators_beyond_the_cap_are_refused_and_the_players_still_play(
    tmp_path: Path,
) -> None:
    settings = fast_settings(str(tmp_path), max_spectators=5, signup_rate="100/minute")
    with live_server(settings) as base:
        player, room = _seated_with_bots(base)
        with ThreadPoolExecutor(6) as pool:
            crowd = list(pool.map(lambda i: _watch(base, room["code"], f"w{i}"), range(12)))
        welcomed = [ws for first, ws in crowd if first["t"] == "welcome"]
        refused = [(first, ws) for first, ws in crowd if first["t"] == "error"]
        assert len(welcomed) == 5 and len(refused) == 7
        for first, ws in refused:
            assert first["code"] == "room-full"
            assert first["message"] == (
                "this room has 5 spectators, the most it takes; try again later"
            )
            try:
                ws.recv(timeout=10)
                raise AssertionError("a refused spectator's socket stays open")
            except ConnectionClosed as e:
                assert e.rcvd is not None and e.rcvd.code == 4429
        # the seated player is not held up: its turns come and its moves are accepted
        played = 0
        while played < 3:
            player.send({"t": "sync", "v": 2})
            snap = player.wait(lambda m: m["t"] == "snapshot")
            game = snap["game"]
            if not game or game["to_act"] != 0 or game["phase"] == "dealing":
                player.wait(lambda m: m["t"] == "update", timeout=30)
                continue
            player.send({"t": "hint", "v": 2})
            action = player.wait(lambda m: m["t"] == "hint")["action"]
            player.act(action)
            seq = snap["seq"]
            done = player.wait(lambda m, seq=seq: m["t"] in ("update", "error") and m["seq"] > seq)
            assert done["t"] == "update", done
            played += 1
        assert not [m for m in player.messages if m["t"] == "error"]
        # a watcher who leaves frees a place
        welcomed[0].close()
        first, ws = _watch(base, room["code"], "late")
        for _ in range(50):
            if first["t"] == "welcome":
                break
            ws.close()
            first, ws = _watch(base, room["code"], "late")
        assert first["t"] == "welcome"
        for w in [*welcomed[1:], ws]:
            w.close()
        player.close()


def test_the_owner_gets_into_a_room_full_of_spectators(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), max_spectators=1)) as base:
        ann, eve, bob = (new_player(base, n) for n in ("ann", "eve", "bob"))
        room = new_room(base, ann["token"])
        watcher = Client(base, room["code"], eve["token"])
        assert watcher.welcome["t"] == "welcome"
        refused = Client(base, room["code"], bob["token"])
        assert refused.welcome["t"] == "error" and refused.welcome["code"] == "room-full"
        owner = Client(base, room["code"], ann["token"])  # not seated, still let in
        assert owner.welcome["t"] == "welcome"
        for c in (watcher, refused, owner):
            c.close()


def test_presence_is_coalesced_and_sent_as_deltas_on_request(tmp_path: Path) -> None:
    n, interval = 30, 1.0
    settings = fast_settings(
        str(tmp_path), max_spectators=100, presence_interval_s=interval, signup_rate="100/minute"
    )
    with live_server(settings) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"])
        full = Client(base, room["code"], ann["token"])
        full.wait(lambda m: m["t"] == "presence")
        bob = new_player(base, "bob")
        tokens = [new_player(base, f"w{i}")["token"] for i in range(n)]  # signed up before
        ws = _connect(base, room["code"])
        start, before = time.monotonic(), len(full.messages)
        ws.send(json.dumps({"t": "hello", "v": 2, "token": bob["token"], "presence": "delta"}))
        with ThreadPoolExecutor(8) as pool:
            crowd = list(pool.map(lambda i: _watch(base, room["code"], "", tokens[i]), range(n)))
        for _, w in crowd[:10]:
            w.close()
        expect = {ann["id"], bob["id"]} | {first["player"] for first, _ in crowd[10:]}
        # the delta client: one whole list, then deltas that add up to who is here
        here: dict[str, Msg] = {}
        kinds: list[str] = []
        while set(here) != expect:
            m = json.loads(ws.recv(timeout=10))
            if m["t"] == "presence":
                kinds.append("presence")
                here = {p["player"]: p for p in m["players"]}
            elif m["t"] == "presence_delta":
                kinds.append("presence_delta")
                here.update({p["player"]: p for p in m["joined"]})
                for pid in m["left"]:
                    here.pop(pid, None)
        assert kinds[0] == "presence" and set(kinds[1:]) <= {"presence_delta"}
        # the full-list client: at most one message per interval (a crowd joining on a
        # loaded machine takes a while), far fewer than the 41 joins and leaves
        full.wait(lambda m: m["t"] == "presence" and {p["player"] for p in m["players"]} == expect)
        elapsed = time.monotonic() - start
        count = sum(1 for m in full.messages[before:] if m["t"] == "presence")
        assert count <= elapsed / interval + 1, (count, elapsed)
        assert count < n + 11, (count, elapsed)  # bob, 30 joins, 10 leaves
        for _, w in crowd[10:]:
            w.close()
        ws.close()
        full.close()
