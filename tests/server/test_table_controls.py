"""The owner's table controls (issue 14): a deal dealt again when every seated player agrees
(``reset_deal``, ``vote``; server/table/votes.py), and the match ended early (``end_match``) with
its record kept as it stands."""

from __future__ import annotations

from pathlib import Path

import httpx

from shengji.core.record import GameRecord, replay
from tests.server.helpers import Client, Msg, fast_settings, live_server, new_player, new_room


def _table(server: str, ann: Msg | None = None) -> tuple[Client, Client, Msg]:
    """ann (the owner, seat 0) and bob (seat 1) with two bots; the first deal under way."""
    ann, bob = ann or new_player(server, "ann"), new_player(server, "bob")
    room = new_room(server, ann["token"], bots={"2": "random", "3": "random"})
    a = Client(server, room["code"], ann["token"])
    b = Client(server, room["code"], bob["token"])
    a.send({"t": "sit", "v": 2, "seat": 0})
    b.send({"t": "sit", "v": 2, "seat": 1})
    b.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["kind"] == "human")
    for c in (a, b):
        c.send({"t": "ready", "v": 2})
    # the deal waits for the humans once the cards are out (the declaration window)
    a.wait(lambda m: m["t"] == "update" and m["phase"] != "dealing")
    return a, b, room


def _refused(c: Client, msg: Msg) -> Msg:
    c.send(msg)
    return c.wait(lambda m: m["t"] == "error")


def test_a_deal_is_dealt_again_when_every_seated_player_agrees(server: str) -> None:
    a, b, _ = _table(server)
    err = _refused(b, {"t": "reset_deal", "v": 2})
    assert err == {**err, "code": "not-owner", "message": "only the room's owner may reset a deal"}
    err = _refused(b, {"t": "vote", "v": 2, "yes": True})
    assert err["code"] == "wrong-phase"  # nothing to vote on yet
    a.send({"t": "reset_deal", "v": 2})
    opened = b.wait(lambda m: m["t"] == "vote")
    assert opened["status"] == "open" and opened["by"] == "ann" and opened["what"] == "reset_deal"
    assert opened["voters"] == [0, 1] and opened["votes"] == [True, None]
    assert _refused(a, {"t": "reset_deal", "v": 2})["message"].startswith("a vote on")
    b.send({"t": "vote", "v": 2, "yes": True})
    passed = a.wait(lambda m: m["t"] == "vote" and m["status"] != "open")
    assert passed["status"] == "passed" and passed["votes"] == [True, True]
    reset = a.wait(lambda m: m["t"] == "update" and m["events"][0]["type"] == "deal_reset")
    assert [e["type"] for e in reset["events"]] == ["deal_reset", "deal_started"]
    assert reset["events"][0] == {"type": "deal_reset", "deal_no": 0, "redeals": 1}
    assert reset["game"]["cards_dealt"] == 0 and reset["game"]["hand"] == ""
    # the dealing starts over and the table goes on
    a.wait(lambda m: m["t"] == "update" and m["phase"] != "dealing")
    # the owner ends the match: the record keeps the redeal and replays
    a.send({"t": "end_match", "v": 2})
    over = b.wait(lambda m: m["t"] == "match_over")
    assert over["early"] is True and over["result"]["winner"] is None
    b.wait(lambda m: m["t"] == "room" and m["room"]["status"] == "waiting")
    text = httpx.get(f"{server}/api/games/{over['game']}").text
    rec = GameRecord.from_json(text)
    assert "redeal" in rec.actions
    final = replay(rec)
    assert final.redeals == 1 and not final.is_over
    a.close()
    b.close()


def test_one_no_refuses_the_reset_and_only_the_owner_ends_a_match(server: str) -> None:
    a, b, _ = _table(server)
    a.send({"t": "reset_deal", "v": 2})
    b.wait(lambda m: m["t"] == "vote")
    b.send({"t": "vote", "v": 2, "yes": False})
    refused = a.wait(lambda m: m["t"] == "vote" and m["status"] != "open")
    assert refused["status"] == "refused" and refused["votes"] == [True, False]
    a.send({"t": "sync", "v": 2})
    snap = a.wait(lambda m: m["t"] == "snapshot")
    assert snap["game"]["cards_dealt"] > 0  # nothing was dealt again
    err = _refused(b, {"t": "end_match", "v": 2})
    assert err["code"] == "not-owner" and err["message"].endswith("end the match")
    a.close()
    b.close()


def test_a_restarted_server_replays_a_redealt_deal(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path))
    with live_server(settings) as server:
        ann = new_player(server, "ann")
        a, b, room = _table(server, ann)
        a.send({"t": "reset_deal", "v": 2})
        b.wait(lambda m: m["t"] == "vote")
        b.send({"t": "vote", "v": 2, "yes": True})
        a.wait(lambda m: m["t"] == "update" and m["events"][0]["type"] == "deal_reset")
        done = a.wait(lambda m: m["t"] == "update" and m["phase"] != "dealing")
        hand = done["game"]["hand"]
        a.close()
        b.close()
    with live_server(settings) as server:
        again = Client(server, room["code"], ann["token"])
        snap = again.wait(lambda m: m["t"] == "snapshot")
        assert snap["game"]["hand"] == hand
        again.close()
