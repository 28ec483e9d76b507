"""Many processes, one platform (issue 16, routing): real ``shengji serve`` processes on one
PostgreSQL schema and one Redis. A client whose socket is on one process plays in a room
another process runs; the lobby lists every process's rooms; Redis going away is said
(``/readyz`` 503, a clear error) and stalls nothing."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.helpers import Client, Msg, new_player, new_room
from tests.server.route_cluster import cluster


def _play_until_a_trick_is_won(clients: dict[int, Client], watchers: list[Client]) -> Msg:
    """Sit and play by hints until the first trick is won; returns that update (as the
    first client saw it). Every message of every client is kept on it."""
    won: Msg | None = None
    while won is None:
        for seat, c in clients.items():
            try:
                m = c.recv(0.2)
            except TimeoutError:
                continue
            assert m["t"] != "error" or m["code"] in ("wrong-phase", "not-your-turn"), m
            if m["t"] == "update":
                if any(e["type"] == "trick_won" for e in m["events"]) and seat == 0:
                    won = m
                if m["to_act"] == seat and m["phase"] != "dealing":
                    c.send({"t": "hint", "v": 1})
            elif m["t"] == "hint" and m["action"]:
                c.act(m["action"])
    return won


def _updates(c: Client) -> dict[int, Any]:
    return {m["seq"]: (m["events"], m.get("game")) for m in c.messages if m["t"] == "update"}


def test_a_client_on_one_process_plays_in_a_room_another_runs(tmp_path: Path) -> None:
    with cluster(tmp_path, ["a", "b", "c"]) as group:
        a, b, c = group.instances
        ann, bob, cat = (new_player(a.base, n) for n in ("ann", "bob", "cat"))
        room = new_room(a.base, ann["token"], max_deals=1, bots={"2": "random", "3": "random"})
        code = room["code"]
        # bob plays from b (routed to a), and has a second tab on a itself (local)
        bob_b = Client(b.base, code, bob["token"])
        assert bob_b.welcome["t"] == "welcome", bob_b.welcome
        ann_a = Client(a.base, code, ann["token"])
        bob_a = Client(a.base, code, bob["token"])
        cat_c = Client(c.base, code, cat["token"])  # a spectator on a third process
        ann_a.send({"t": "sit", "v": 1, "seat": 0})
        bob_b.send({"t": "sit", "v": 1, "seat": 1})
        ann_a.send({"t": "ready", "v": 1})
        bob_b.send({"t": "ready", "v": 1})
        won = _play_until_a_trick_is_won({0: ann_a, 1: bob_b}, [bob_a, cat_c])
        assert won["phase"] == "playing"
        # chat from b reaches a and c; presence on a shows bob seated
        bob_b.send({"t": "chat", "v": 2, "text": "hi from b"})
        line = ann_a.wait(lambda m: m["t"] == "chat")
        assert line["text"] == "hi from b" and line["name"] == "bob"
        assert cat_c.wait(lambda m: m["t"] == "chat")["text"] == "hi from b"
        ann_a.send({"t": "ping", "v": 2})
        ann_a.wait(lambda m: m["t"] == "pong")
        seen = {p["name"]: p["seat"] for p in
                [m for m in ann_a.messages if m["t"] == "presence"][-1]["players"]}
        assert seen == {"ann": 0, "bob": 1, "cat": None}
        # hands: the routed socket got exactly what bob's local tab got, his seat's view
        for tab in (bob_b, bob_a, cat_c):
            tab.send({"t": "ping", "v": 2})
            tab.wait(lambda m: m["t"] == "pong")
        routed, local = _updates(bob_b), _updates(bob_a)
        common = sorted(set(routed) & set(local))
        assert len(common) > 20
        assert all(routed[s] == local[s] for s in common)
        views = [g for _, g in routed.values() if g is not None]
        assert views and all(g["seat"] == 1 for g in views)
        dealt = Counter(e["seat"] for ev, _ in routed.values() for e in ev
                        if e["type"] == "card_dealt")
        assert set(dealt) == {1}, dealt
        spectator = [g for _, g in _updates(cat_c).values() if g is not None]
        assert spectator and all(g["seat"] is None and g["hand"] == "" for g in spectator)
        assert not any(e["type"] == "card_dealt" for ev, _ in _updates(cat_c).values()
                       for e in ev)
        # HTTP about the live room from another process: the room and bob's replay
        # (another process's listing is up to route_lobby.REFRESH_S old: it catches up)
        deadline = time.monotonic() + 30
        while (got := httpx.get(f"{b.base}/api/rooms/{code}").json())["status"] != "playing":
            assert time.monotonic() < deadline, got
            time.sleep(0.2)
        assert got["code"] == code
        replay = httpx.get(f"{b.base}/api/rooms/{code}/replay",
                           headers={"Authorization": f"Bearer {bob['token']}"})
        assert replay.status_code == 200, replay.text
        assert replay.json()["code"] == code and replay.json()["seat"] == 1
        # a room created on b is in a's and c's lobby at once, and enterable from a
        other = new_room(b.base, bob["token"])
        for inst in (a, c):
            listed = [r["code"] for r in httpx.get(f"{inst.base}/api/rooms").json()]
            assert listed[0] == other["code"] and code in listed
        private = new_room(c.base, cat["token"], private=True)
        assert private["code"] not in [r["code"] for r in
                                       httpx.get(f"{a.base}/api/rooms").json()]
        assert httpx.get(f"{a.base}/api/rooms/{private['code']}").json()["private"] is True
        assert httpx.get(f"{a.base}/api/rooms/nosuchroom").status_code == 404
        ann_b = Client(a.base, other["code"], ann["token"])
        assert ann_b.welcome["t"] == "welcome" and ann_b.welcome["room"] == other["code"]
        nothing = Client(b.base, "nosuchroom", ann["token"])
        assert nothing.welcome["code"] == "no-room"
        # a routed client that leaves is away on the owner's table
        bob_b.close()
        bob_a.close()
        ann_a.wait(lambda m: m["t"] in ("presence", "presence_delta") and 1 in m["away"])
        for cl in (ann_a, cat_c, ann_b):
            cl.close()
        metrics = httpx.get(f"{b.base}/metrics").text
        assert "shengji_routed_clients" in metrics


def test_redis_down_is_said_and_stalls_nothing(tmp_path: Path) -> None:
    with cluster(tmp_path, ["a", "b"]) as group:
        if not group.redis.private:
            pytest.skip("needs a Redis of its own to stop (redis-server is not installed)")
        a, b = group.instances
        ann, bob = new_player(a.base, "ann"), new_player(a.base, "bob")
        code = new_room(a.base, ann["token"])["code"]
        ann_a = Client(a.base, code, ann["token"])
        bob_b = Client(b.base, code, bob["token"])
        bob_b.send({"t": "sit", "v": 1, "seat": 1})
        bob_b.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["name"] == "bob")
        assert httpx.get(f"{a.base}/readyz").status_code == 200
        group.redis.stop()
        # the routed socket is closed promptly with "try again later"
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                bob_b.recv(15)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert time.monotonic() - started < 10
        for inst in (a, b):
            r = httpx.get(f"{inst.base}/readyz", timeout=10)
            assert r.status_code == 503 and not r.json()["checks"]["redis"]["ok"], r.text
        # a new socket on b for a's room: a clear error at once, no stall
        started = time.monotonic()
        again = Client(b.base, code, bob["token"])
        assert again.welcome["t"] == "error" and again.welcome["code"] == "unavailable"
        assert "Redis" in again.welcome["message"]
        assert time.monotonic() - started < 5
        assert httpx.get(f"{b.base}/api/rooms/{code}").status_code == 503
        # a's own clients play on: the room runs, chat works
        ann_a.send({"t": "chat", "v": 2, "text": "still here"})
        assert ann_a.wait(lambda m: m["t"] == "chat")["text"] == "still here"
        assert [r["code"] for r in httpx.get(f"{a.base}/api/rooms").json()] == [code]
        # Redis back: routing resumes; bob reconnects through b, still in his seat
        group.redis.start()
        deadline = time.monotonic() + 30
        while httpx.get(f"{b.base}/readyz").status_code != 200:
            assert time.monotonic() < deadline, "b did not become ready again"
            time.sleep(0.2)
        deadline = time.monotonic() + 30
        while True:  # a re-subscribes its rooms when its own link is back
            back = Client(b.base, code, bob["token"], last_seq=bob_b.last_seq)
            if back.welcome["t"] == "welcome":
                break
            back.close()
            assert time.monotonic() < deadline, back.welcome
            time.sleep(0.3)
        assert back.welcome["seat"] == 1
        deadline = time.monotonic() + 30  # a lists its rooms again in the new Redis
        while [r["code"] for r in httpx.get(f"{b.base}/api/rooms").json()] != [code]:
            assert time.monotonic() < deadline, "a's room is not listed again"
            time.sleep(0.2)
        back.close()
        ann_a.close()


def test_a_dead_owner_s_room_is_adopted_and_its_routed_client_plays_on(
    tmp_path: Path,
) -> None:
    """The owner of a room is killed (SIGKILL) while a player plays in it through another
    process: the routed socket is closed (1012); until the room's lease runs out (room
    leases, server/store/lease_keeper.py) the room is "between servers"; then a survivor
    adopts it from the log and the player, reconnecting through the same process, is back in
    their seat with the same hand."""
    with cluster(tmp_path, ["a", "b", "c"]) as group:
        a, b, _ = group.instances
        ann = new_player(a.base, "ann")
        bots = {"1": "random", "2": "random", "3": "random"}
        code = new_room(a.base, ann["token"], max_deals=1, bots=bots)["code"]
        ann_b = Client(b.base, code, ann["token"])
        assert ann_b.welcome["t"] == "welcome"
        ann_b.send({"t": "sit", "v": 1, "seat": 0})
        ann_b.send({"t": "ready", "v": 1})
        # ann's turn after the deal: nothing moves until she acts (no timers here)
        ann_b.wait(lambda m: m["t"] == "update" and m["to_act"] == 0
                   and m["phase"] != "dealing", 60)
        ann_b.send({"t": "sync", "v": 1})
        hand = ann_b.wait(lambda m: m["t"] == "snapshot")["game"]["hand"]
        a.kill()
        killed = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ann_b.recv(15)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # nobody runs the room now, but it is open in the database: "try again", not gone
        again = Client(b.base, code, ann["token"])
        assert again.welcome["t"] == "welcome" or again.welcome["code"] == "unavailable", (
            again.welcome)
        again.close()
        while True:  # as the browser does: reconnect through b until the room is back
            back = Client(b.base, code, ann["token"], last_seq=ann_b.last_seq)
            if back.welcome["t"] == "welcome":
                break
            back.close()
            assert time.monotonic() - killed < 20, back.welcome
            time.sleep(0.3)
        assert back.welcome["seat"] == 0
        snap = back.wait(lambda m: m["t"] == "snapshot")
        assert snap["game"]["hand"] == hand and snap["game"]["to_act"] == 0
        back.close()
