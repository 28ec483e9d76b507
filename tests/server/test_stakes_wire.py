"""Stakes over the WebSocket: the room info carries what a room plays for, and after each
deal the clients are told what the server settled (the ``settled`` message)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from shengji.core.stakes import StakeRules
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room

COINS = {"kind": "coins", "coefficient": 1000}


def _watch_a_deal(base: str, humans: int) -> tuple[Client, list[dict[str, Any]], dict[str, Any]]:
    """A one-deal coin room: ``humans`` players in seats 0.. (they sit, get ready and leave,
    so stand-in bots play for them), bots in the other seats, and a spectator who watches
    from before the match starts; returns the spectator, the players and the settled msg."""
    players = [new_player(base, f"p{i}") for i in range(humans)]
    bots = {str(s): "random" for s in range(humans, 4)}
    room = new_room(base, players[0]["token"], max_deals=1, stakes=COINS, bots=bots)
    watcher = Client(base, room["code"], new_player(base, "cy")["token"])
    snap = watcher.wait(lambda m: m["t"] == "snapshot")
    assert snap["room"]["stakes"] == StakeRules.from_dict(COINS).to_dict()
    for seat, p in enumerate(players):
        c = Client(base, room["code"], p["token"])
        c.send({"t": "sit", "v": 2, "seat": seat})
        c.send({"t": "ready", "v": 2})
        c.wait(lambda m, s=seat: m["t"] == "room" and bool(m["room"]["seats"][s]["ready"]))
        c.close()
    settled = watcher.wait(lambda m: m["t"] == "settled", timeout=60)
    return watcher, players, settled


def test_a_coin_room_tells_its_clients_the_stakes_and_each_deals_settlement(
    tmp_path: Path,
) -> None:
    with live_server(fast_settings(str(tmp_path), seat_grace_s=0.0)) as base:
        watcher, (ann, bob), settled = _watch_a_deal(base, 2)
        rooms = [m["room"] for m in watcher.messages if m["t"] == "room"]
        assert rooms and all(r["stakes"]["kind"] == "coins" for r in rooms)
        assert all(r["stakes"]["coefficient"] == 1000 for r in rooms)
        # the deal's end comes first, then its settlement (a sequenced message)
        ended = next(
            m
            for m in watcher.messages
            if m["t"] == "update" and any(e["type"] == "deal_ended" for e in m["events"])
        )
        assert ended["seq"] < settled["seq"]
        assert settled["v"] == 3
        assert (settled["match_no"], settled["deal_no"], settled["kind"]) == (1, 0, "coins")
        assert settled["settled"] is True and settled["reason"]
        deltas = settled["deltas"]
        assert deltas[2] is None and deltas[3] is None  # bots are unrated
        assert deltas[0] * deltas[1] < 0  # opposite sides: one wins, one pays
        loss = min(deltas[0], deltas[1])
        assert loss == -settled["base"] * 1000
        assert max(deltas[0], deltas[1]) == settled["base"] * 1000 * 9 // 10
        # the server's ledger is the truth, and the message says the same
        for seat, p in enumerate((ann, bob)):
            mine = httpx.get(f"{base}/api/players/{p['id']}/stakes").json()
            assert [(r["deal_no"], r["delta"]) for r in mine["ledger"]] == [(0, deltas[seat])]
        watcher.wait(lambda m: m["t"] == "match_over")
        assert sum(m["t"] == "settled" for m in watcher.messages) == 1
        watcher.close()


def test_a_deal_without_a_human_on_each_side_settles_nothing_and_says_so(
    tmp_path: Path,
) -> None:
    with live_server(fast_settings(str(tmp_path), seat_grace_s=0.0)) as base:
        watcher, (ann,), settled = _watch_a_deal(base, 1)
        assert settled["settled"] is False
        assert settled["deltas"] == [None] * 4
        mine = httpx.get(f"{base}/api/players/{ann['id']}/stakes").json()
        assert mine["ledger"] == [] and mine["deals"]["coins"] == 0
        watcher.close()
