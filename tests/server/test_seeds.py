"""Deal seeds and who may read a record (docs/protocol.md, "Records").

The probe of issue 11: ``GET /api/games/{id}`` is open and ids are sequential; each record
held the seed ``"<room seed>/<match_no>"`` and the room dealt its next match from
``"<room seed>/<next match_no>"``, so a player computed every hand and the kitty of match 2.
Now every match draws a fresh secret seed, the record of one match says nothing about the
next, a private room's records are its players' only, and a restart still replays exactly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from shengji.core.actions import SYSTEM, Deal
from shengji.core.cards import card_str
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay
from shengji.core.ruleset import Ruleset
from shengji.server.table.seeds import match_seed
from tests.server.helpers import (
    Client,
    Msg,
    fast_settings,
    live_server,
    new_player,
    new_room,
    sql,
)

BOTS = {"1": "random", "2": "random", "3": "random"}


def _dealt_hand(ruleset: Ruleset, seed: str, seat: int) -> Counter[str]:
    """The hand ``seat`` is dealt from ``seed`` (the first deal of a match)."""
    m = MatchState.new(ruleset, seed)
    while m.to_act == SYSTEM and m.deal.phase is Phase.DEALING:
        m, _ = m.apply(Deal())
    return Counter(card_str(c) for c, n in enumerate(m.deal.hands[seat]) for _ in range(n))


def _deck(ruleset: Ruleset, seed: str) -> tuple[int, ...]:
    """Every card of the first deal in dealing order, the kitty last."""
    return tuple(MatchState.new(ruleset, seed).deal.deck)


def _sit_and_ready(c: Client, seat: int = 0) -> None:
    c.send({"t": "sit", "v": 1, "seat": seat})
    c.send({"t": "ready", "v": 1})


def _play_match(c: Client, match_no: int, seat: int = 0) -> tuple[int, Counter[str]]:
    """Play seat ``seat`` by hints until ``match_over``; returns the game id and the cards
    dealt to the seat in the match's first deal."""
    dealt: Counter[str] = Counter()
    first_deal = True
    while True:
        m = c.recv(20)
        assert m["t"] != "error", m
        if m["t"] == "match_over":
            return int(m["game"]), dealt
        if m["t"] != "update" or m["match_no"] != match_no:
            continue
        if m["deal_no"] > 0:
            first_deal = False
        for e in m["events"]:
            if first_deal and e["type"] == "card_dealt":
                dealt[e["card"]] += 1
        if m["to_act"] == seat and m["phase"] != "dealing":
            c.send({"t": "hint", "v": 1})
            h = c.wait(lambda x: x["t"] == "hint")
            c.act(h["action"])


def _record(base: str, gid: int, token: str | None = None) -> httpx.Response:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.get(f"{base}/api/games/{gid}", headers=headers)


def _room_row(data_dir: Path, code: str) -> tuple[str, dict[str, Any]]:
    """The room's secret seed and its stored state, read straight from the database."""
    ((seed, state),) = sql(data_dir, "SELECT seed, state FROM rooms WHERE code = :c", c=code)
    return str(seed), json.loads(state)


def _old_rules(record_seed: str, room_seed: str, match_no: int) -> set[str]:
    """Every seed for match ``match_no + 1`` the old code's rules give from what was known:
    the public record's seed ``"<x>/<n>"`` with ``n + 1``, the record's seed reused or with a
    suffix, and the room's own seed with the next number (the old ``match_seed``)."""
    nxt = match_no + 1
    out = {record_seed, f"{record_seed}/{nxt}", f"{record_seed}/{match_no}", f"{room_seed}/{nxt}"}
    head, sep, tail = record_seed.rpartition("/")
    if sep and tail.isdigit():
        out.add(f"{head}/{int(tail) + 1}")
    return out


def test_a_published_record_says_nothing_about_the_next_match(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path))) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"], max_deals=1, bots=BOTS)
        c = Client(base, room["code"], ann["token"])
        _sit_and_ready(c)
        gid1, hand1 = _play_match(c, 1)
        # what anyone can read: the record of match 1, without logging in
        r = _record(base, gid1)
        assert r.status_code == 200
        rec1 = GameRecord.from_json(r.text)
        ruleset = Ruleset.from_dict(rec1.ruleset)
        seed1 = str(rec1.seed)
        assert re.fullmatch(r"[0-9a-f]{32}", seed1), seed1
        assert _dealt_hand(ruleset, seed1, 0) == hand1  # the record's seed dealt match 1
        room_seed, state = _room_row(tmp_path, room["code"])
        assert room_seed not in seed1 and "match_seed" not in state  # between matches
        c.send({"t": "ready", "v": 1})
        gid2, hand2 = _play_match(c, 2)
        seed2 = str(GameRecord.from_json(_record(base, gid2).text).seed)
        c.close()
    assert gid2 == gid1 + 1
    assert _dealt_hand(ruleset, seed2, 0) == hand2  # the computation below is the right one
    guesses = _old_rules(seed1, room_seed, 1)
    assert seed2 not in guesses
    actual = _deck(ruleset, seed2)
    for guess in guesses:
        assert _dealt_hand(ruleset, guess, 0) != hand2, guess
        assert _deck(ruleset, guess) != actual, guess
        assert _deck(ruleset, guess)[-ruleset.kitty_size :] != actual[-ruleset.kitty_size :]


def test_the_drawn_seed_is_stored_before_the_first_card_and_a_restart_replays_it(
    tmp_path: Path,
) -> None:
    settings = fast_settings(str(tmp_path), deal_pacing_s=0.02)
    with live_server(settings) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"], max_deals=1, bots=BOTS)
        c = Client(base, room["code"], ann["token"])
        _sit_and_ready(c)
        seen: Counter[str] = Counter()
        while sum(seen.values()) < 6:
            m = c.recv()
            if m["t"] == "update":
                seen.update(e["card"] for e in m["events"] if e["type"] == "card_dealt")
        last = c.last_seq
        c.close()
    _, state = _room_row(tmp_path, room["code"])
    drawn = state["match_seed"]
    assert state["status"] == "playing" and re.fullmatch(r"[0-9a-f]{32}", drawn)
    with live_server(settings) as base:  # the room is restored from its row and log
        c = Client(base, room["code"], ann["token"], last_seq=last)
        snap = c.wait(lambda m: m["t"] == "snapshot")
        assert not seen - Counter(snap["game"]["hand"].split())
        gid, _ = _play_match(c, 1)
        rec = GameRecord.from_json(_record(base, gid).text)
        c.close()
    assert rec.seed == drawn
    ruleset = Ruleset.from_dict(rec.ruleset)
    assert not seen - _dealt_hand(ruleset, drawn, 0)
    assert replay(rec).history  # the record replays: the deal it holds was played out


def test_a_room_from_before_drawn_seeds_replays_its_match_from_the_old_seed() -> None:
    assert match_seed("9f2c", 2, None) == "9f2c/2"  # what such a room was dealt from
    assert match_seed("9f2c", 2, "ab") == "ab"


def _private_game(base: str) -> tuple[Msg, int]:
    ann = new_player(base, "ann")
    room = new_room(base, ann["token"], private=True, max_deals=1, bots=BOTS)
    c = Client(base, room["code"], ann["token"])
    _sit_and_ready(c)
    gid, _ = _play_match(c, 1)
    c.close()
    return ann, gid


def test_a_private_rooms_record_is_for_its_players_only(server: str) -> None:
    ann, gid = _private_game(server)
    bob = new_player(server, "bob")
    assert _record(server, gid, ann["token"]).status_code == 200
    for stranger in (None, bob["token"], "not-a-token"):
        r = _record(server, gid, stranger)
        assert r.status_code == 404, (stranger, r.text)
        assert r.json() == _record(server, gid + 1000, stranger).json()  # same as no game
    listed = httpx.get(f"{server}/api/players/{ann['id']}/games").json()["games"]
    assert listed == []
    own = httpx.get(
        f"{server}/api/players/{ann['id']}/games",
        headers={"Authorization": f"Bearer {ann['token']}"},
    ).json()["games"]
    assert [g["id"] for g in own] == [gid]


def test_a_public_rooms_record_is_open(server: str) -> None:
    ann = new_player(server, "ann")
    room = new_room(server, ann["token"], max_deals=1, bots=BOTS)
    c = Client(server, room["code"], ann["token"])
    _sit_and_ready(c)
    gid, _ = _play_match(c, 1)
    c.close()
    assert _record(server, gid).status_code == 200
    listed = httpx.get(f"{server}/api/players/{ann['id']}/games").json()["games"]
    assert [g["id"] for g in listed] == [gid]
