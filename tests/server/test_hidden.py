"""Hidden (4-deck) declarations while dealing reach only the declarer: no other client gets
an event, nor even a new sequence number that would tell something happened."""

from __future__ import annotations

from pathlib import Path

from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room


def _declared_while_dealing(base: str, players: list[Msg]) -> tuple[list[Client], Msg] | None:
    """A four-deck room of ``players`` (four seated, one watching) in which seat 0 declares
    as soon as its hint says it can; its own update of the declaration, or None (all
    clients closed) when the dealing ended first (a slow machine: the hint came too late)."""
    room = new_room(base, players[0]["token"], preset="four-deck", max_deals=1)
    clients = [Client(base, room["code"], p["token"]) for p in players]
    for seat, c in enumerate(clients[:4]):
        c.send({"t": "sit", "v": 1, "seat": seat})
        c.send({"t": "ready", "v": 1})
    me = clients[0]
    while True:
        m = me.recv()
        if m["t"] == "update" and m["phase"] == "dealing":
            if any(e["type"] == "declared" for e in m["events"]):
                return clients, m
            if any(e["type"] == "card_dealt" for e in m["events"]):
                me.send({"t": "hint", "v": 1})
        elif m["t"] == "update" and m["phase"] != "dealing":
            for c in clients:
                c.close()
            return None
        elif m["t"] == "hint" and m["action"] and m["action"].startswith("declare"):
            me.act(m["action"])
        assert m["t"] != "error" or m["code"] in ("bad-declaration", "wrong-phase"), m


def test_a_hidden_declaration_is_seen_by_the_declarer_only(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), deal_pacing_s=0.01)) as base:
        players = [new_player(base, f"p{i}") for i in range(5)]
        for _attempt in range(3):
            got = _declared_while_dealing(base, players)
            if got is not None:
                break
        assert got is not None, "seat 0 never declared while dealing, in three deals"
        clients, declared = got
        me = clients[0]
        # the declarer's own update reuses the current number
        prior = [x["seq"] for x in me.messages if x["t"] == "update" and x is not declared]
        assert declared["seq"] == max(prior)
        for c in clients[1:]:
            c.wait(lambda m: m["t"] == "update" and m["seq"] >= declared["seq"] + 3)
            ups = [m for m in c.messages if m["t"] == "update"]
            assert not any(e["type"] == "declared" for m in ups for e in m["events"])
            # nor does the whole view each update carries show it, or the declarer's cards
            for m in ups:
                g = m.get("game")
                if g is not None and g["phase"] == "dealing":
                    assert g["declaration"] is None or g["declaration"]["seat"] != 0, g
                    assert g["own_declaration"] is None or g["own_declaration"]["seat"] != 0
                    assert g["seat"] == (clients.index(c) if c is not clients[4] else None)
            seqs = [m["seq"] for m in c.messages if m["t"] in ("update", "room")]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        for c in clients:
            c.close()
