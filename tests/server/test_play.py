"""Whole deals over real WebSockets: four humans, a human with three bots, a spectator."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import httpx

from shengji.core.cards import parse_cards
from shengji.core.record import GameRecord, record_result, replay
from tests.server.helpers import Client, Msg, new_player, new_room


def _ready(c: Client, seat: int) -> None:
    c.send({"t": "sit", "v": 1, "seat": seat})
    c.send({"t": "ready", "v": 1})


def _events(c: Client, kind: str) -> list[Msg]:
    return [e for m in c.messages if m["t"] == "update" for e in m["events"] if e["type"] == kind]


def _act_with_hint(c: Client) -> None:
    c.send({"t": "hint", "v": 1})
    h = c.wait(lambda m: m["t"] in ("hint", "error"))
    assert h["t"] == "hint" and h["action"], h
    c.act(h["action"])


def test_four_clients_play_a_deal_and_a_spectator_sees_no_hands(
    server: str, tmp_path: Path
) -> None:
    players = [new_player(server, f"p{i}") for i in range(5)]
    room = new_room(server, players[0]["token"], preset="classic", max_deals=1)
    assert len(room["code"]) >= 16
    clients = [Client(server, room["code"], p["token"]) for p in players]
    watcher = clients[4]
    for seat, c in enumerate(clients[:4]):
        _ready(c, seat)
    c0 = clients[0]
    i = 0
    over: Msg | None = None
    while over is None:
        while i >= len(c0.messages):
            c0.recv()
        m = c0.messages[i]
        i += 1
        assert m["t"] != "error", m
        if m["t"] == "match_over":
            over = m
        elif m["t"] == "update" and m["phase"] != "dealing" and (m["to_act"] or 0) >= 0:
            if m["to_act"] is None or any(x["t"] == "update" for x in c0.messages[i:]):
                continue  # a later update is already here
            _act_with_hint(clients[m["to_act"]])
    for c in clients:
        if not any(m["t"] == "match_over" for m in c.messages):
            c.wait(lambda m: m["t"] == "match_over")
        # sequence numbers of logged messages only go up, one at a time
        seqs = [m["seq"] for m in c.messages if m["t"] in ("update", "room", "match_over")]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    assert not any(m["t"] == "error" for c in clients for m in c.messages)

    # every seat saw only its own cards; the spectator none
    for seat, c in enumerate(clients[:4]):
        dealt = _events(c, "card_dealt")
        assert len(dealt) == 25 and all(e["seat"] == seat for e in dealt)
        taken = _events(c, "kitty_taken")
        assert all(e["seat"] == seat for e in taken)
    assert _events(watcher, "card_dealt") == [] and _events(watcher, "kitty_taken") == []
    assert all(e["cards"] == "" for e in _events(watcher, "kitty_buried"))
    assert len(_events(watcher, "card_count_dealt")) == 100
    watcher.send({"t": "sync", "v": 1})
    snap = watcher.wait(lambda m: m["t"] == "snapshot")
    assert snap["game"] is None and snap["room"]["status"] == "waiting"

    # the stored record replays to the same result, also with `shengji replay`
    games = httpx.get(f"{server}/api/players/{players[2]['id']}/games").json()["games"]
    assert [g["seat"] for g in games] == [2]
    text = httpx.get(f"{server}/api/games/{games[0]['id']}").text
    rec = GameRecord.from_json(text)
    assert record_result(replay(rec)) == rec.result == over["result"]
    path = tmp_path / "game.json"
    path.write_text(text)
    done = subprocess.run(
        [sys.executable, "-m", "shengji", "replay", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    for c in clients:
        c.close()


def test_human_with_three_bots_plays_a_match_then_another(server: str) -> None:
    p = new_player(server, "ann")
    room = new_room(
        server, p["token"], max_deals=1, bots={"1": "random", "2": "random", "3": "random"}
    )
    c = Client(server, room["code"], p["token"])
    assert c.welcome["seat"] is None
    _ready(c, 0)
    for match in (1, 2):
        hand: Counter[int] = Counter()
        while True:
            m = c.recv()
            assert m["t"] != "error", m
            if m["t"] == "match_over":
                break
            if m["t"] == "update":
                for e in m["events"]:
                    if e["type"] == "card_dealt":
                        hand[parse_cards(e["card"])[0]] += 1
                if m["to_act"] == 0 and m["phase"] != "dealing":
                    _act_with_hint(c)
        assert sum(hand.values()) == 25 and m["result"]["deals"] == 1
        room_msg = c.wait(lambda m: m["t"] == "room")
        assert room_msg["room"]["status"] == "waiting" and room_msg["room"]["match_no"] == match
        c.send({"t": "ready", "v": 1})  # the room goes on: next match
    games = httpx.get(f"{server}/api/players/{p['id']}/games").json()["games"]
    assert len(games) == 2
    c.close()
