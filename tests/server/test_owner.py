"""Rooms have an owner (server/table/owners.py): only the creator adds and removes bots and moves
others out of seats; anyone may still take a free seat. A room from before owners (no
``created_by``) is open to everyone as before."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.server.helpers import (
    Client,
    Msg,
    fast_settings,
    live_server,
    new_player,
    new_room,
    sql,
)


def _snapshot(c: Client) -> Msg:
    c.send({"t": "sync", "v": 2})
    return c.wait(lambda m: m["t"] == "snapshot")


def _refused(c: Client, msg: Msg) -> Msg:
    c.send(msg)
    return c.wait(lambda m: m["t"] == "error")


def test_a_spectators_add_bot_is_refused_and_the_owners_succeeds(server: str) -> None:
    ann, eve = new_player(server, "ann"), new_player(server, "eve")
    room = new_room(server, ann["token"], bots={"3": "random"})
    assert room["owner"] == ann["id"]
    assert httpx.get(f"{server}/api/rooms/{room['code']}").json()["owner"] == ann["id"]
    owner = Client(server, room["code"], ann["token"])
    spectator = Client(server, room["code"], eve["token"])
    before = _snapshot(spectator)
    assert before["room"]["owner"] == ann["id"]
    for msg, what in (
        ({"t": "add_bot", "v": 2, "seat": 1, "bot": "random"}, "add bots"),
        ({"t": "remove_bot", "v": 2, "seat": 3}, "remove bots"),
        ({"t": "unseat", "v": 2, "seat": 3}, "move players out of seats"),
    ):
        err = _refused(spectator, msg)
        assert err["code"] == "not-owner" and err["message"] == f"only the room's owner may {what}"
    after = _snapshot(spectator)
    assert after["seq"] == before["seq"] and after["room"] == before["room"]
    # the owner's add_bot and remove_bot go through
    owner.send({"t": "add_bot", "v": 2, "seat": 1, "bot": "random"})
    got = owner.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["kind"] == "bot")
    assert got["room"]["seats"][1]["bot"] == "random"
    owner.send({"t": "remove_bot", "v": 2, "seat": 3})
    spectator.wait(lambda m: m["t"] == "room" and m["room"]["seats"][3]["kind"] == "empty")
    owner.close()
    spectator.close()


def test_anyone_takes_a_free_seat_and_only_the_owner_moves_others_out(server: str) -> None:
    ann, bob, eve = (new_player(server, n) for n in ("ann", "bob", "eve"))
    room = new_room(server, ann["token"])
    owner = Client(server, room["code"], ann["token"])
    sitter = Client(server, room["code"], bob["token"])
    other = Client(server, room["code"], eve["token"])
    sitter.send({"t": "sit", "v": 2, "seat": 1})
    sitter.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["name"] == "bob")
    other.send({"t": "sit", "v": 2, "seat": 2})  # a seated non-owner has no owner's rights
    other.wait(lambda m: m["t"] == "room" and m["room"]["seats"][2]["name"] == "eve")
    err = _refused(other, {"t": "unseat", "v": 2, "seat": 1})
    assert err["code"] == "not-owner"
    err = _refused(other, {"t": "add_bot", "v": 2, "seat": 0})
    assert err["code"] == "not-owner"
    err = _refused(owner, {"t": "unseat", "v": 2, "seat": 0})
    assert err["code"] == "bad-seat"  # nobody in seat 0
    owner.send({"t": "unseat", "v": 2, "seat": 1})
    moved = sitter.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["kind"] == "empty")
    assert moved["room"]["seats"][2]["name"] == "eve"
    # bob now watches; he may sit again (seats are free to take)
    assert _snapshot(sitter)["room"]["spectators"] == 2
    # during a match nobody is moved out
    for seat in (0, 3):
        owner.send({"t": "add_bot", "v": 2, "seat": seat, "bot": "random"})
    sitter.send({"t": "sit", "v": 2, "seat": 1})
    for c in (sitter, other):
        c.send({"t": "ready", "v": 2})
    owner.wait(lambda m: m["t"] == "room" and m["room"]["status"] == "playing")
    err = _refused(owner, {"t": "unseat", "v": 2, "seat": 1})
    assert err["code"] == "wrong-phase"
    for c in (owner, sitter, other):
        c.close()


def test_a_room_without_an_owner_is_open_to_everyone_and_owners_survive_restarts(
    tmp_path: Path,
) -> None:
    settings = fast_settings(str(tmp_path))
    with live_server(settings) as base:
        ann, eve = new_player(base, "ann"), new_player(base, "eve")
        old = new_room(base, ann["token"])
        owned = new_room(base, ann["token"])
    sql(tmp_path, "UPDATE rooms SET created_by = NULL WHERE code = :c", c=old["code"])
    with live_server(settings) as base:
        assert httpx.get(f"{base}/api/rooms/{owned['code']}").json()["owner"] == ann["id"]
        assert httpx.get(f"{base}/api/rooms/{old['code']}").json()["owner"] is None
        c = Client(base, old["code"], eve["token"])
        c.send({"t": "add_bot", "v": 2, "seat": 0, "bot": "random"})
        c.wait(lambda m: m["t"] == "room" and m["room"]["seats"][0]["kind"] == "bot")
        c.close()
        c = Client(base, owned["code"], eve["token"])
        assert _refused(c, {"t": "add_bot", "v": 2, "seat": 0})["code"] == "not-owner"
        c.close()


def test_a_room_its_owner_closed_leaves_the_lobby_and_is_not_restored(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path))
    with live_server(settings) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"], bots={"1": "random"})
        code = room["code"]
        owner = Client(base, code, ann["token"])
        owner.send({"t": "close_room", "v": 2})
        err = owner.wait(lambda m: m["t"] == "error")
        assert err["code"] == "no-room" and "closed by its owner" in err["message"]
        owner.close()
        deadline = time.monotonic() + 30
        while httpx.get(f"{base}/api/rooms/{code}").status_code != 404:
            assert time.monotonic() < deadline, "the closed room is still served"
            time.sleep(0.05)
        assert code not in {r["code"] for r in httpx.get(f"{base}/api/rooms").json()}
        # the row is closed once the room's task has stopped, just after it left the lobby
        while sql(tmp_path, "SELECT closed FROM rooms WHERE code = :c", c=code) != [(True,)]:
            assert time.monotonic() < deadline, "the closed room's row is still open"
            time.sleep(0.05)
    with live_server(settings) as base:  # a restart does not bring it back
        assert httpx.get(f"{base}/api/rooms/{code}").status_code == 404
