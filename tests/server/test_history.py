"""The game history and replays (issue 14; server/http/history.py): finished matches listed with
preset, result, date and a download name; a record turned into replay positions that agree
with the engine trick by trick; a private room's replay for its players only (the same 404
as a game that does not exist); the match being played, as the asking seat saw it."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Redeal
from shengji.core.cards import cards_str, parse_cards
from shengji.core.events import TrickWon
from shengji.core.match import MatchState
from shengji.core.record import GameRecord, replay_steps
from shengji.core.ruleset import PRESETS
from shengji.server.http.history import game_entry, record_filename, replay_positions
from tests.server.helpers import Client, finished_match, new_player, new_room


def _auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def test_replay_positions_follow_the_record_for_every_preset() -> None:
    for name in sorted(PRESETS):
        rs = PRESETS[name]
        _, rec = play_match(rs, [RandomBot(i) for i in range(rs.players)], 5, deals=2)
        rep = replay_positions(rec)
        deals = rep["deals"]
        assert [d["deal_no"] for d in deals] == [0, 1], name
        total = rs.players * rs.hand_size
        states = _trick_states(rec)
        for d in deals:
            positions = d["positions"]
            assert [p["trick"] for p in positions] == list(range(len(positions)))
            start = positions[0]
            assert start["plays"] == [] and start["winner"] is None
            assert sum(len(parse_cards(h)) for h in start["hands"]) == total
            for p in positions[1:]:
                plays, winner, points, hands = states[(d["deal_no"], p["trick"])]
                assert (p["plays"], p["winner"], p["points"], p["hands"]) == (
                    plays, winner, points, hands,
                ), (name, d["deal_no"], p["trick"])
            assert d["end"] is not None and d["end"]["summary"]["deal_no"] == d["deal_no"]
            assert d["trump"] is not None and d["trumps"]
            if rs.partnership == "find-friend":
                assert d["friend_call"] is not None
            if rs.kitty_size:
                holder = d["burials"][0]
                assert len(parse_cards(holder["picked"])) == rs.kitty_size
                assert len(parse_cards(holder["buried"])) == holder["count"]


def _trick_states(rec: GameRecord) -> dict[tuple[int, int], tuple[object, ...]]:
    """(deal, trick) → the trick's plays, winner, points and every hand after it."""
    out: dict[tuple[int, int], tuple[object, ...]] = {}
    prev = rec.start()
    for action, after, events in replay_steps(rec):
        for e in events:
            if isinstance(e, TrickWon):
                deal = prev.deal.apply(action)[0] if not isinstance(action, Redeal) else None
                assert deal is not None
                t = deal.tricks[-1]
                plays = [[s, cards_str(cs)] for s, cs in t.plays]
                hands = [cards_str(deal.hand(s)) for s in range(int(rec.ruleset["players"]))]
                out[(deal.deal_no, e.trick_no)] = (plays, t.winner, t.points, hands)
        prev = after
    return out


def test_a_redealt_deal_appears_once_with_its_count() -> None:
    rs = PRESETS["classic"]
    rng = random.Random(1)
    m = MatchState.new(rs, "x")
    actions: list[str] = []
    for _ in range(40):
        seat = m.to_act
        assert seat is not None
        a = m.legal_actions(seat).sample(rng)
        m, _ = m.apply(a)
        actions.append(str(a))
    m, _ = m.apply(Redeal())
    actions += ["redeal", "deal", "deal"]
    rep = replay_positions(GameRecord(rs.to_dict(), "x", None, actions))
    assert [(d["deal_no"], d["redeals"]) for d in rep["deals"]] == [(0, 1)]


@pytest.mark.parametrize("seat", [0, None])
def test_a_live_view_shows_only_what_the_seat_saw(seat: int | None) -> None:
    rs = PRESETS["classic"]
    _, rec = play_match(rs, [RandomBot(i) for i in range(4)], 9, deals=1)
    rep = replay_positions(rec, seat, reveal=False)
    deal = rep["deals"][0]
    for p in deal["positions"]:
        for s, h in enumerate(p["hands"]):
            assert (h is not None) == (s == seat)
    for b in deal["burials"]:
        assert (b["picked"] is not None) == (b["seat"] == seat)
        assert (b["buried"] is not None) == (b["seat"] == seat)


def _row(result: dict[str, object]) -> dict[str, object]:
    record = {"ruleset": PRESETS["classic"].to_dict(), "players": ["ann", "random", "bob",
                                                                    "random"], "result": result}
    return {"id": 7, "match_no": 1, "finished": 1764547200.0, "preset": "classic",
            "record": json.dumps(record)}


def test_a_match_cut_short_is_won_by_the_seats_on_the_highest_level() -> None:
    """As the table announced it at the match's end: the leaders win; all level, nobody."""
    played_out = game_entry(_row({"deals": 9, "levels": ["A", "K", "A", "K"], "winners": [1, 3]}))
    assert played_out["winners"] == [1, 3]  # the match's own winners stand
    cut_short = game_entry(_row({"deals": 1, "levels": ["3", "2", "3", "2"], "winners": []}))
    assert cut_short["winners"] == [0, 2]
    level = game_entry(_row({"deals": 1, "levels": ["2", "2", "2", "2"], "winners": []}))
    assert level["winners"] == []
    broken = game_entry({**_row({}), "record": "not json"})
    assert broken["winners"] == [] and broken["players"] == []


def test_history_lists_downloads_and_replays_a_finished_match(server: str) -> None:
    ann = new_player(server, "ann")
    gid, _ = finished_match(server, ann["token"])
    mine = httpx.get(f"{server}/api/players/{ann['id']}/games").json()["games"]
    assert [g["id"] for g in mine] == [gid]
    g = mine[0]
    assert g["preset"] == "classic" and g["seat"] == 0 and g["deals"] == 1
    assert g["players"][0] == "ann" and len(g["levels"]) == 4
    assert g["filename"] == record_filename("classic", gid, g["finished"])
    public = httpx.get(f"{server}/api/games").json()["games"]
    assert [x["id"] for x in public] == [gid] and "seat" not in public[0]
    r = httpx.get(f"{server}/api/games/{gid}?download=1")
    assert r.headers["content-disposition"] == f'attachment; filename="{g["filename"]}"'
    assert httpx.get(f"{server}/api/games/{gid}").headers["content-disposition"].startswith(
        "inline;"
    )
    record = GameRecord.from_json(r.text)
    rep = httpx.get(f"{server}/api/games/{gid}/replay").json()
    assert rep["game"] == gid and rep["revealed"] is True
    assert rep == {**replay_positions(record), "game": gid}
    assert httpx.get(f"{server}/api/games/{gid + 99}/replay").status_code == 404
    assert httpx.get(f"{server}/api/games?limit=0").status_code == 400


def test_a_private_rooms_replay_is_for_its_players_only(server: str) -> None:
    ann, bob = new_player(server, "ann"), new_player(server, "bob")
    gid, _ = finished_match(server, ann["token"], private=True)
    assert httpx.get(f"{server}/api/games/{gid}/replay", headers=_auth(ann["token"])).is_success
    missing = httpx.get(f"{server}/api/games/{gid + 50}/replay").json()
    for stranger in (None, bob["token"], "not-a-token"):
        r = httpx.get(f"{server}/api/games/{gid}/replay", headers=_auth(stranger))
        assert r.status_code == 404 and r.json() == missing
    assert httpx.get(f"{server}/api/games").json()["games"] == []
    own = httpx.get(f"{server}/api/players/{ann['id']}/games", headers=_auth(ann["token"]))
    assert [g["id"] for g in own.json()["games"]] == [gid] and own.json()["games"][0]["private"]


def test_the_match_being_played_as_each_seat_saw_it(server: str) -> None:
    ann, eve = new_player(server, "ann"), new_player(server, "eve")
    room = new_room(server, ann["token"], bots={"1": "random", "2": "random", "3": "random"})
    code = room["code"]
    assert httpx.get(f"{server}/api/rooms/{code}/replay").status_code == 404  # not started
    c = Client(server, code, ann["token"])
    c.send({"t": "sit", "v": 2, "seat": 0})
    c.send({"t": "ready", "v": 2})
    while True:  # play by hints into the third trick
        m = c.recv(20)
        if m["t"] == "update" and m["game"] and m["game"]["tricks_done"] >= 2:
            break
        if m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing":
            c.send({"t": "hint", "v": 2})
            c.act(c.wait(lambda x: x["t"] == "hint")["action"])
    mine = httpx.get(f"{server}/api/rooms/{code}/replay", headers=_auth(ann["token"])).json()
    watcher = httpx.get(f"{server}/api/rooms/{code}/replay", headers=_auth(eve["token"])).json()
    assert mine["seat"] == 0 and watcher["seat"] is None and not mine["revealed"]
    deal = mine["deals"][0]
    assert len(deal["positions"]) >= 3
    for p in deal["positions"]:
        assert p["hands"][0] is not None and p["hands"][1:] == [None, None, None]
    for p in watcher["deals"][0]["positions"]:
        assert p["hands"] == [None] * 4
    assert [p["plays"] for p in deal["positions"]][:3] == [
        p["plays"] for p in watcher["deals"][0]["positions"]
    ][:3]
    assert "seed" not in str(mine)
    c.close()
