"""Malformed, fuzzed, out-of-phase and out-of-seat messages are refused with an ``error``
and change nothing; unknown tokens and rooms are refused; the rate limit holds."""

from __future__ import annotations

import json
import random
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room


def _waiting_for_seat0(base: str) -> tuple[Client, Client, Msg]:
    """A human at seat 0 with three bots, the table waiting for seat 0; and a spectator."""
    p = new_player(base, "ann")
    room = new_room(base, p["token"], bots={"1": "random", "2": "random", "3": "random"})
    c = Client(base, room["code"], p["token"])
    c.send({"t": "sit", "v": 1, "seat": 0})
    c.send({"t": "ready", "v": 1})
    c.wait(lambda m: m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing")
    spectator = Client(base, room["code"], new_player(base, "eve")["token"])
    return c, spectator, room


def _snapshot(c: Client) -> Msg:
    c.send({"t": "sync", "v": 1})
    return c.wait(lambda m: m["t"] == "snapshot")


def _errors_for(c: Client, frames: list[str | bytes]) -> list[Msg]:
    out = []
    for f in frames:
        c.send(f)
        out.append(c.wait(lambda m: m["t"] in ("error", "pong", "snapshot", "hint")))
    return out


@pytest.mark.usefixtures("ws_layer")
def test_malformed_and_out_of_turn_messages_change_nothing(server: str) -> None:
    c, spectator, _room = _waiting_for_seat0(server)
    before = _snapshot(c)
    bad: list[str | bytes] = [
        "not json",
        b"\x00\xff\xfe",
        "{}",
        "[]",
        '{"t":"nope","v":1}',
        '{"t":"act","v":1}',
        '{"t":"act","v":4,"action":"pass"}',
        '{"t":"act","v":3,"action":{"type":"play","seat":1,"cards":"SA"}}',
        '{"t":"act","v":3,"action":{"type":"deal"}}',
        '{"t":"act","v":3,"action":{"type":"play","cards":"XX"}}',
        '{"t":"act","v":0,"action":"pass"}',
        '{"t":"act","v":1,"action":5}',
        '{"t":"act","v":1,"action":"pass","seat":1}',
        '{"t":"act","v":1,"action":"deal"}',
        '{"t":"act","v":1,"action":"play 1 SA"}',
        '{"t":"act","v":1,"action":"play XX"}',
        '{"t":"act","v":1,"action":"bury"}',
        '{"t":"act","v":1,"action":""}',
        '{"t":"sit","v":1,"seat":-1}',
        '{"t":"sit","v":1,"seat":2}',
        '{"t":"remove_bot","v":1,"seat":1}',
        '{"t":"add_bot","v":1,"seat":1,"bot":"nobody"}',
        '{"t":"hello","v":1,"token":"x"}',
        '{"t":"chat","v":1,"text":""}',
        json.dumps({"t": "chat", "v": 1, "text": "x" * 6000}),
    ]
    errors = _errors_for(c, bad)
    assert all(e["t"] == "error" for e in errors), errors
    assert errors[-1]["code"] == "too-big"
    # a spectator cannot act for anyone
    spectator.act("pass")
    assert spectator.wait(lambda m: m["t"] == "error")["code"] == "not-seated"
    after = _snapshot(c)
    assert after["seq"] == before["seq"] and after["game"] == before["game"]
    c.send({"t": "ping", "v": 1})
    assert c.wait(lambda m: m["t"] == "pong")["seq"] == before["seq"]
    # playing a card one does not hold (or out of phase) is refused too
    hand = after["game"]["hand"].split()
    missing = next(x for x in ("BJ", "LJ", "SA", "HA", "DA", "CA", "S2") if x not in hand)
    c.act(f"play {missing}")
    assert c.wait(lambda m: m["t"] == "error")["code"] in ("wrong-phase", "not-in-hand")
    assert _snapshot(c)["game"] == before["game"]
    c.close()
    spectator.close()


def test_fuzzed_messages_are_refused_and_the_server_stays_up(server: str) -> None:
    c, spectator, _room = _waiting_for_seat0(server)
    before = _snapshot(c)
    rng = random.Random(7)
    valid = [
        '{"t":"act","v":1,"action":"play SA SA"}',
        '{"t":"sit","v":1,"seat":1}',
        '{"t":"chat","v":1,"text":"hi"}',
        '{"t":"ready","v":1,"ready":true}',
    ]
    frames: list[str | bytes] = []
    for _ in range(150):
        base = bytearray(rng.choice(valid).encode())
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(base))
            op = rng.random()
            if op < 0.4:
                base[i] = rng.randrange(256)
            elif op < 0.7:
                del base[i]
            else:
                base.insert(i, rng.randrange(256))
        frames.append(bytes(base))
    for f in frames:
        spectator.send(f)
    spectator.send({"t": "ping", "v": 1})
    spectator.wait(lambda m: m["t"] == "pong")
    after = _snapshot(c)
    # nothing a spectator sends can change the game
    assert after["game"] == before["game"]
    c.close()
    spectator.close()


@pytest.mark.usefixtures("ws_layer")
def test_tokens_rooms_and_hello_are_checked(server: str) -> None:
    p = new_player(server, "ann")
    room = new_room(server, p["token"])
    bad = Client(server, room["code"], "not-a-token")
    assert bad.welcome["t"] == "error" and bad.welcome["code"] == "auth"
    with pytest.raises(ConnectionClosed):
        bad.recv(5)
    nowhere = Client(server, "no-such-room", p["token"])
    assert nowhere.welcome["code"] == "no-room"
    # a client that does not say hello first
    with connect(server.replace("http://", "ws://") + f"/ws/{room['code']}") as ws:
        ws.send('{"t":"ping","v":1}')
        assert json.loads(ws.recv(5))["code"] == "hello-first"
    # HTTP: a token is needed to create a room; presets and options are checked
    assert httpx.post(f"{server}/api/rooms", json={}).status_code == 401
    auth = {"Authorization": f"Bearer {p['token']}"}
    assert httpx.post(f"{server}/api/rooms", json={"preset": "x"}, headers=auth).status_code == 400
    r = httpx.post(f"{server}/api/rooms", json={"options": {"decks": 9}}, headers=auth).status_code
    assert r == 400
    private = new_room(server, p["token"], private=True)
    listed = [x["code"] for x in httpx.get(f"{server}/api/rooms").json()]
    assert room["code"] in listed and private["code"] not in listed
    assert httpx.get(f"{server}/api/rooms/{private['code']}").status_code == 200
    assert httpx.get(f"{server}/api/games/999").status_code == 404
    assert httpx.get(f"{server}/api/players/nobody/games").status_code == 404


@pytest.mark.usefixtures("ws_layer")
def test_rate_limit(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), rate_per_s=2.0, rate_burst=5)) as base:
        p = new_player(base, "ann")
        room = new_room(base, p["token"])
        c = Client(base, room["code"], p["token"])
        for _ in range(20):
            c.send({"t": "ping", "v": 1})
        got = [c.wait(lambda m: m["t"] in ("pong", "error")) for _ in range(20)]
        assert sum(m["t"] == "pong" for m in got) <= 7
        assert any(m.get("code") == "rate-limited" for m in got)
        c.close()
