"""The new kinds of action, made by human seats over real WebSockets: a friend call
(找朋友), bids and naming trump (竞标). Every seat is a human client, so whoever deals or
bids is a human; malformed and out-of-turn attempts get a clear error and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room


def _table(server: str, preset: str, seats: int) -> tuple[list[Client], Client]:
    """``seats`` human clients seated and ready in a one-deal room, and a spectator."""
    players = [new_player(server, f"p{i}") for i in range(seats + 1)]
    room = new_room(server, players[0]["token"], preset=preset, max_deals=1)
    clients = [Client(server, room["code"], p["token"]) for p in players]
    for seat, c in enumerate(clients[:seats]):
        c.send({"t": "sit", "v": 2, "seat": seat})
        c.send({"t": "ready", "v": 2})
    return clients[:seats], clients[seats]


def _events(c: Client, kind: str) -> list[Msg]:
    return [e for m in c.messages if m["t"] == "update" for e in m["events"] if e["type"] == kind]


def _refused(c: Client, action: str, seq: int) -> Msg:
    """Send ``action``; the answer is an error and the room's sequence number is still
    ``seq`` (nothing was logged or sent)."""
    c.act(action)
    err = c.wait(lambda m: m["t"] == "error")
    assert err["seq"] == seq and err["message"], err
    err["expected"] = True  # for _play, which reads the same messages
    return err


def _snapshot(c: Client, seq: int) -> Msg:
    """A fresh snapshot (not an older one still unread): the room at ``seq`` or later."""
    c.send({"t": "sync", "v": 2})
    return c.wait(lambda m: m["t"] == "snapshot" and m["seq"] >= seq)


def _all_over(clients: list[Client]) -> None:
    """Read every client's messages up to the end of the match."""
    for c in clients:
        if not any(m["t"] == "match_over" for m in c.messages):
            c.wait(lambda m: m["t"] == "match_over", timeout=30)


def _play(clients: list[Client], before_turn: Callable[[Msg, Client], bool]) -> Msg:
    """Every seat acts on its turn with a hint until the match is over; ``before_turn`` sees
    the update that gave a seat its turn (and that seat's client) first, and returns True
    if it took the turn itself."""
    c0 = clients[0]
    i = 0
    while True:
        while i >= len(c0.messages):
            c0.recv(timeout=30)
        m = c0.messages[i]
        i += 1
        assert m["t"] != "error" or m.get("expected"), m
        if m["t"] == "match_over":
            return m
        if m["t"] != "update" or m["phase"] == "dealing" or m["to_act"] is None:
            continue
        if m["to_act"] < 0 or any(x["t"] in ("update", "match_over") for x in c0.messages[i:]):
            continue  # a later update is already here
        c = clients[m["to_act"]]
        if before_turn(m, c):
            continue
        c.send({"t": "hint", "v": 2})
        h = c.wait(lambda x: x["t"] in ("hint", "error"))
        assert h["t"] == "hint" and h["action"], h
        c.act(h["action"])


def test_the_dealer_calls_a_friend_and_everyone_sees_who_it_is(server: str) -> None:
    clients, spectator = _table(server, "find-friend", 4)
    tried: dict[str, bool] = {"calling": False, "playing": False}

    def before_turn(m: Msg, c: Client) -> bool:
        if m["phase"] == "playing" and not tried["playing"]:
            tried["playing"] = True  # the call is public; the friend is not known yet
            game = _snapshot(spectator, m["seq"])["game"]
            assert game["friend_call"] is not None and game["friend"] is None
            assert game["defenders"] == [game["dealer"]]
            # who may be the friend, as the table can tell (rules.md Decision 90)
            assert game["dealer"] not in game["friend_candidates"]
        if m["phase"] != "calling" or tried["calling"]:
            return False
        tried["calling"] = True
        dealer = m["to_act"]
        other = clients[(dealer + 1) % 4]
        assert _refused(other, "call 1 SA", m["seq"])["code"] == "not-your-turn"
        assert _refused(c, "call SA", m["seq"])["code"] == "bad-notation"
        assert _refused(c, "call 1 XX", m["seq"])["code"] == "bad-notation"
        assert _refused(c, "call 9 SA", m["seq"])["code"] == "bad-call"
        assert _refused(c, "call 2 SA", m["seq"])["code"] == "bad-call"  # a card, not a copy
        assert _refused(c, "play SA", m["seq"])["code"] == "wrong-phase"
        # nothing changed: still the dealer's call
        snap = _snapshot(c, m["seq"])["game"]
        assert snap["phase"] == "calling" and snap["to_act"] == dealer
        assert snap["friend_call"] is None
        return False

    over = _play(clients, before_turn)
    assert tried["calling"] and over["result"]["deals"] == 1
    _all_over([*clients, spectator])
    [called] = _events(spectator, "friend_called")
    assert called["nth"] >= 1 and len(called["card"]) >= 2
    revealed = _events(spectator, "friend_revealed")
    assert len(revealed) <= 1
    for c in clients:  # every seat (and the spectator) heard the same call and reveal
        assert _events(c, "friend_called") == [called]
        assert _events(c, "friend_revealed") == revealed
    if revealed:
        assert revealed[0]["seat"] != called["seat"] and revealed[0]["card"] == called["card"]
    not_friend = _events(spectator, "not_friend")  # farther holders who played it first
    assert all(e["seat"] not in (called["seat"], *(r["seat"] for r in revealed))
               for e in not_friend)
    for c in clients:
        assert _events(c, "not_friend") == not_friend
    # the deal's summary: each seat's level went up, or not, by the revealed sides
    [end] = _events(spectator, "deal_ended")
    assert set(end) >= {"attacker_points", "defender_levels", "attacker_levels"}
    for c in clients:
        c.close()
    spectator.close()


def test_seats_bid_a_target_and_the_winner_names_trump(server: str) -> None:
    clients, spectator = _table(server, "three-player", 3)
    tried = {"bidding": False, "naming": False}

    def before_turn(m: Msg, c: Client) -> bool:
        seat = m["to_act"]
        if m["phase"] == "bidding" and not tried["bidding"]:
            tried["bidding"] = True
            snap = _snapshot(c, m["seq"])["game"]
            top = snap["bid_ceiling"]
            assert isinstance(top, int) and top > 0
            assert len(snap["shown"].split()) == 3  # the kitty cards shown to all
            other = clients[(seat + 1) % 3]
            assert _refused(other, "bid 100", m["seq"])["code"] == "not-your-turn"
            assert _refused(c, f"bid {top + 5}", m["seq"])["code"] == "bad-bid"
            assert _refused(c, "bid 101", m["seq"])["code"] == "bad-bid"
            assert _refused(c, "bid", m["seq"])["code"] == "bad-notation"
            assert _refused(c, "bid many", m["seq"])["code"] == "bad-notation"
            assert _refused(c, "trump H", m["seq"])["code"] == "wrong-phase"
            assert _snapshot(c, m["seq"])["game"]["auction"] == snap["auction"]
        elif m["phase"] == "naming" and not tried["naming"]:
            tried["naming"] = True
            assert _refused(clients[(seat + 1) % 3], "trump H", m["seq"])["code"] == "not-your-turn"
            assert _refused(c, "trump X", m["seq"])["code"] == "bad-notation"
            c.act("trump H")  # a human names trump itself
            return True
        return False

    over = _play(clients, before_turn)
    assert tried["bidding"] and tried["naming"] and over["result"]["deals"] == 1
    _all_over([*clients, spectator])
    [shown] = _events(spectator, "kitty_shown")
    assert len(shown["cards"].split()) == 3
    bids = _events(spectator, "bid_made")
    assert bids and all(b["target"] % 5 == 0 for b in bids)
    assert [b["target"] for b in bids] == sorted((b["target"] for b in bids), reverse=True)
    [won] = _events(spectator, "auction_won")
    [fixed] = _events(spectator, "trump_fixed")
    assert fixed["trump"] == "H" and fixed["dealer"] == won["dealer"]
    # the lowest bidder deals and its bid is the attackers' target; spectators see no hand
    assert (won["dealer"], won["target"]) == (bids[-1]["seat"], bids[-1]["target"])
    assert not _events(spectator, "card_dealt") and not _events(spectator, "kitty_taken")
    for c in clients:
        c.close()
    spectator.close()


@pytest.mark.parametrize("preset", ["find-friend", "three-player"])
def test_a_restarted_server_replays_calls_and_bids(tmp_path: Path, preset: str) -> None:
    """The friend call and the auction are in the room's log: a server stopped mid-deal and
    started again on the same database shows the same call, bids and target."""
    settings = fast_settings(str(tmp_path), bot_delay_s=0.05)
    with live_server(settings) as base:
        me = new_player(base, "watcher")
        n = 3 if preset == "three-player" else 4
        bots = {i: "random" for i in range(n)}
        room = new_room(base, me["token"], preset=preset, max_deals=1, bots=bots)
        c = Client(base, room["code"], me["token"], last_seq=0)
        c.wait(lambda m: m["t"] == "update" and m["phase"] == "playing", timeout=60)
        before = _snapshot(c, c.last_seq)["game"]
        c.close()
    with live_server(settings) as base:
        c = Client(base, room["code"], me["token"])
        after = c.wait(lambda m: m["t"] == "snapshot")["game"]
        for key in ("dealer", "trump", "friend_call", "auction", "target", "shown"):
            assert after[key] == before[key], key
        assert after["tricks_done"] >= before["tricks_done"]
        over = c.wait(lambda m: m["t"] == "match_over", timeout=60)
        assert over["result"]["deals"] == 1
        c.close()
