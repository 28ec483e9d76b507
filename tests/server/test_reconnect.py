"""Reconnection: missed messages or a snapshot, back in the seat; a bot stands in for a
player gone longer than the grace time; chat, presence and nudges."""

from __future__ import annotations

from pathlib import Path

from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


def _start(base: str, name: str = "ann") -> tuple[dict[str, str], dict[str, object], Client]:
    p = new_player(base, name)
    bots = {"1": "random", "2": "random", "3": "random"}
    room = new_room(base, p["token"], max_deals=1, bots=bots)
    c = Client(base, str(room["code"]), p["token"])
    c.send({"t": "sit", "v": 1, "seat": 0})
    c.send({"t": "ready", "v": 1})
    return p, room, c


def _play_turn(c: Client) -> None:
    c.send({"t": "hint", "v": 1})
    h = c.wait(lambda m: m["t"] == "hint")
    c.act(h["action"])


def test_reconnect_mid_trick_resumes_from_the_last_seq(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.02)) as base:
        p, room, c = _start(base)
        # play until seat 0 has just played into a trick the others still have to finish
        m = c.recv()
        while True:
            if m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing":
                playing = m["phase"] == "playing"
                _play_turn(c)
                if playing:
                    m = c.wait(
                        lambda m: (
                            m["t"] == "update"
                            and any(e["type"] == "played" and e["seat"] == 0 for e in m["events"])
                        )
                    )
                    if not any(e["type"] == "trick_won" for e in m["events"]):
                        break
                    continue  # seat 0 completed the trick (and may lead the next one)
            m = c.recv()
        last = c.last_seq
        c.close()
        # the three bots finish the trick (and lead the next one) while seat 0 is away
        c2 = Client(base, str(room["code"]), p["token"], last_seq=last)
        assert c2.welcome["t"] == "welcome" and c2.welcome["seat"] == 0
        assert c2.welcome["resume"] is True
        # the missed messages follow in order, then play continues in the same seat
        turn = c2.wait(lambda m: m["t"] == "update" and m["to_act"] == 0)
        seqs = [m["seq"] for m in c2.messages if m["t"] == "update"]
        assert seqs == list(range(last + 1, last + 1 + len(seqs)))
        assert any(e["type"] == "trick_won" for m in c2.messages for e in m.get("events", []))
        assert turn["phase"] == "playing"
        _play_turn(c2)
        c2.wait(lambda m: m["t"] == "update" and m["events"] and m["events"][0].get("seat") == 0)
        # an unknown or too-old seq gets a snapshot instead
        c3 = Client(base, str(room["code"]), p["token"], last_seq=10**9)
        assert c3.welcome["resume"] is False
        snap = c3.wait(lambda m: m["t"] == "snapshot")
        assert snap["game"]["seat"] == 0 and len(snap["game"]["hand"].split()) >= 1
        for x in (c2, c3):
            x.close()


def test_a_bot_plays_for_a_player_gone_past_the_grace_time(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), seat_grace_s=0.2)) as base:
        _p, room, c = _start(base)
        c.wait(lambda m: m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing")
        c.close()  # the table waits for seat 0 only for the grace time
        watcher = Client(base, str(room["code"]), new_player(base, "w")["token"])
        over = watcher.wait(lambda m: m["t"] == "match_over", timeout=30)
        assert over["result"]["deals"] == 1
        watcher.close()


def test_chat_presence_and_nudge(server: str) -> None:
    a, b = new_player(server, "ann"), new_player(server, "bob")
    room = new_room(server, a["token"], bots={"1": "random", "3": "random"})
    ca = Client(server, str(room["code"]), a["token"])
    cb = Client(server, str(room["code"]), b["token"])
    pres = ca.wait(lambda m: m["t"] == "presence" and len(m["players"]) == 2)
    assert {x["name"] for x in pres["players"]} == {"ann", "bob"}
    cb.send({"t": "chat", "v": 1, "text": "你好 hi"})
    line = ca.wait(lambda m: m["t"] == "chat")
    assert line["text"] == "你好 hi" and line["name"] == "bob" and line["seq"] > 0
    for c, seat in ((ca, 0), (cb, 2)):
        c.send({"t": "sit", "v": 1, "seat": seat})
        c.send({"t": "ready", "v": 1})
    # when it is a human's turn in the declaration window, the other may nudge
    turn = ca.wait(lambda m: m["t"] == "update" and m["to_act"] in (0, 2))
    nudger = cb if turn["to_act"] == 0 else ca
    nudger.send({"t": "nudge", "v": 1})
    n = ca.wait(lambda m: m["t"] == "nudge")
    assert n["to"] == turn["to_act"]
    nudger.send({"t": "nudge", "v": 1})
    err = nudger.wait(lambda m: m["t"] == "error")
    assert err["code"] == "rate-limited"
    cb.close()
    pres = ca.wait(lambda m: m["t"] == "presence" and len(m["players"]) == 1)
    ca.send({"t": "sync", "v": 1})
    snap = ca.wait(lambda m: m["t"] == "snapshot")
    assert snap["chat"][0]["text"] == "你好 hi"
    seats = snap["room"]["seats"]
    assert seats[0]["connected"] and not seats[2]["connected"] and seats[2]["kind"] == "human"
    ca.close()
