"""The game history and replays (server/wire/game_history.py, server/http/history.py): a replay
is the updates the live table sent one audience, in order, rebuilt from the record alone
(the same road, ``server/wire/projection.py``); finished matches listed with preset, result,
date and a download name; a private room's replay for its players only (the same 404 as a
game that does not exist); the match being played, as the asking seat saw it."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import httpx
import msgspec
import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Redeal
from shengji.core.match import MatchState
from shengji.core.record import GameRecord
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.server.table import Table, TableOptions
from shengji.server.table.commands import ClientSaid, Opened
from shengji.server.wire import messages as wire
from shengji.server.wire.game_history import game_entry, record_filename, replay_of
from tests.server.helpers import Client, finished_match, new_player, new_room
from tests.server.table_sim import Sim, config

NAMES = ("ann", "bob", "cat", "dan", "eve")


def _auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def _same_fields(u: wire.Update) -> dict[str, object]:
    """An update without its place in the room's sequence (a replay numbers its own)."""
    data = msgspec.to_builtins(u)
    del data["seq"], data["match_no"]
    return data  # type: ignore[no-any-return]


def _live_match(preset: str) -> tuple[Sim, dict[int | None, int]]:
    """A two-deal match at a live table: a player in every seat on 托管 (the table's bots
    move for them, declarations included) and one spectator; the connection of each
    audience."""
    cfg = replace(config(preset, max_deals=2), options=TableOptions(next_deal_s=5.0))
    sim = Sim(Table.empty(cfg, spare_seed="seed"))
    conns: dict[int | None, int] = {}
    for seat in range(cfg.ruleset.players):
        conn = seat + 1
        sim.feed(Opened(conn, NAMES[seat], NAMES[seat]))
        sim.feed(ClientSaid(conn, wire.Sit(seat=seat)))
        conns[seat] = conn
    spectator = len(conns) + 1
    sim.feed(Opened(spectator, "zed", "zed"))
    conns[None] = spectator
    for seat in range(cfg.ruleset.players):
        sim.feed(ClientSaid(seat + 1, wire.AutoPlay(on=True)))
    for seat in range(cfg.ruleset.players):
        sim.feed(ClientSaid(seat + 1, wire.Ready()))
    sim.run()
    assert sim.store.games, f"{preset}: the match did not finish"
    return sim, conns


@pytest.mark.parametrize("preset", ["classic", "find-friend", "three-player", "five-player"])
def test_a_replay_is_what_the_table_sent_each_audience_update_by_update(preset: str) -> None:
    sim, conns = _live_match(preset)
    record = GameRecord.from_json(sim.store.games[1])
    assert len(record.result) and record.result["deals"] == 2
    for seat, conn in conns.items():
        sent = [g.msg for g in sim.inbox[conn] if isinstance(g.msg, wire.Update)]
        replayed = replay_of(record, seat).updates
        assert len(sent) == len(replayed), (preset, seat)
        for i, (live, again) in enumerate(zip(sent, replayed, strict=True)):
            assert _same_fields(live) == _same_fields(again), (preset, seat, i)
        ended = [e for u in replayed for e in u.events if isinstance(e, wire.DealEndedEvent)]
        assert [e.summary.deal_no for e in ended if e.summary] == [0, 1]
        hands = {u.game.hand for u in replayed if u.game is not None}
        assert (hands == {""}) == (seat is None)  # a spectator never sees a hand


def test_no_action_is_applied_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live table and its replay apply each action of the match once: the finished deal
    comes back from ``MatchState.apply`` (nobody applies the last action again to see it),
    and a bot's move is not tried on a copy before it is applied."""
    calls = 0
    real = DealState.apply

    def counted(self: DealState, action: object) -> object:
        nonlocal calls
        out = real(self, action)  # type: ignore[arg-type]
        calls += 1  # applied (a refused move raises and changes nothing)
        return out

    cfg = replace(config("classic", max_deals=2), options=TableOptions(next_deal_s=5.0))
    sim = Sim(Table.empty(cfg, spare_seed="seed"))
    for seat in range(4):
        sim.feed(Opened(seat + 1, NAMES[seat], NAMES[seat]))
        sim.feed(ClientSaid(seat + 1, wire.Sit(seat=seat)))
        sim.feed(ClientSaid(seat + 1, wire.AutoPlay(on=True)))
    monkeypatch.setattr(DealState, "apply", counted)
    for seat in range(4):
        sim.feed(ClientSaid(seat + 1, wire.Ready()))
    sim.run()
    record = GameRecord.from_json(sim.store.games[1])
    assert record.result["deals"] == 2
    n = len(record.actions)
    assert calls == n
    calls = 0
    replay_of(record, 0)
    assert calls == n


def test_a_redealt_deal_starts_again_with_its_count() -> None:
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
    rep = replay_of(GameRecord(rs.to_dict(), "x", None, actions))
    assert [(d.deal_no, d.redeals) for d in rep.deals] == [(0, 0), (0, 1)]
    again = rep.updates[rep.deals[1].first]
    assert [type(e).__name__ for e in again.events][:2] == ["DealResetEvent", "DealStartedEvent"]
    assert again.game is not None and again.game.cards_dealt == 0


def test_a_replay_refuses_a_seat_the_table_does_not_have() -> None:
    _, rec = play_match(PRESETS["classic"], [RandomBot(i) for i in range(4)], 9, deals=1)
    with pytest.raises(ValueError, match=r"seat is 0\.\.3"):
        replay_of(rec, 4)


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
    for seat in (None, 0, 2):
        query = "" if seat is None else f"?seat={seat}"
        got = httpx.get(f"{server}/api/games/{gid}/replay{query}")
        assert got.headers["content-encoding"] == "gzip"  # httpx asks for it, and unpacks it
        rep = got.json()
        assert rep["format"] == "shengji-replay/2" and rep["game"] == gid and rep["revealed"]
        expected = replay_of(record, seat)
        expected.game = gid
        assert rep == json.loads(msgspec.json.encode(expected))
    plain = httpx.get(f"{server}/api/games/{gid}/replay", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.json()["seat"] is None
    assert httpx.get(f"{server}/api/games/{gid}/replay?seat=4").status_code == 400
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
    sent: list[dict[str, object]] = []
    while True:  # play by hints into the third trick
        m = c.recv(20)
        if m["t"] == "update":
            sent.append(m)
        if m["t"] == "update" and m["game"] and m["game"]["tricks_done"] >= 2:
            break
        if m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing":
            c.send({"t": "hint", "v": 2})
            c.act(c.wait(lambda x: x["t"] == "hint")["action"])
    mine = httpx.get(f"{server}/api/rooms/{code}/replay", headers=_auth(ann["token"])).json()
    watcher = httpx.get(f"{server}/api/rooms/{code}/replay", headers=_auth(eve["token"])).json()
    assert mine["seat"] == 0 and watcher["seat"] is None and not mine["revealed"]
    assert mine["code"] == code and len(mine["updates"]) >= len(sent)
    for live, again in zip(sent, mine["updates"], strict=False):  # what the socket got
        assert {**live, "seq": 0, "match_no": 0} == {**again, "seq": 0, "match_no": 0}
    assert all(u["game"]["hand"] == "" for u in watcher["updates"])
    assert "seed" not in json.dumps(mine)
    c.close()
