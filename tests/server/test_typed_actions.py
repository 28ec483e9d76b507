"""Protocol v3's typed actions and one round trip per play: ``act`` carries a typed action
(the seat is the connection's, the cards parsed once), an illegal one is refused with the
reason ``check`` gives, the room log keeps typed actions and a restored room reads them and
an older log's texts alike; version 1 and 2 clients keep playing as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shengji.core.actions import Play
from shengji.core.cards import cards_str
from shengji.core.state import Phase
from shengji.server.table import Table
from shengji.server.table.commands import ClientSaid, Opened, SeatBot
from shengji.server.table.restore import restored
from shengji.server.wire import messages as wire
from shengji.server.wire.actions import logged, read_logged, to_action, typed
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room
from tests.server.table_sim import Sim, config


def _table() -> Sim:
    """A classic table: ann (connection 1, seat 0) against bots, run to her first play."""
    sim = Sim(Table.empty(config("classic"), spare_seed="seed"))
    sim.feed(Opened(1, "ann", "ann", deltas=True))
    sim.feed(ClientSaid(1, wire.Sit(seat=0)))
    for seat in (1, 2, 3):
        sim.feed(SeatBot(seat, "random"))
    sim.feed(ClientSaid(1, wire.Ready()))
    for _ in range(5000):
        m = sim.table.match
        if m is not None and m.deal.phase is Phase.PLAYING and sim.table.to_act() == 0:
            break
        m = sim.table.match
        if m is not None and sim.table.to_act() == 0:  # ann buries or passes: any legal move
            action = m.legal_actions(0).sample(sim.rng)
            sim.feed(ClientSaid(1, wire.Act(action=typed(action))))  # type: ignore[arg-type]
            continue
        if not sim.run(1):
            break
    while sim.complete_write():
        pass
    assert sim.table.to_act() == 0
    return sim


def _errors(sim: Sim) -> list[wire.Error]:
    return [m for m in sim.messages(1, "error") if isinstance(m, wire.Error)]


def test_a_typed_play_is_applied_and_logged_typed() -> None:
    sim = _table()
    m = sim.table.match
    assert m is not None
    play = m.legal_actions(0).sample(sim.rng)
    assert isinstance(play, Play)
    sim.feed(ClientSaid(1, wire.Act(action=wire.PlayCards(cards=cards_str(play.cards)))))
    while sim.complete_write():
        pass
    assert not _errors(sim)
    row = [r for r in sim.store.action_rows() if '"seat":0' in r][-1]
    assert json.loads(row) == {"seat": 0, "act": {"type": "play", "cards": cards_str(play.cards)}}
    assert read_logged(row) == play


@pytest.mark.parametrize("cards", ["BJ BJ BJ", "SA SK", "S3"])
def test_an_illegal_act_is_refused_with_the_reason_check_gives(cards: str) -> None:
    sim = _table()
    before = (sim.table.seq, sim.table.version, len(sim.store.rows))
    sim.feed(ClientSaid(1, wire.Check(actions=[f"play {cards}"])))
    while sim.complete_write():
        pass
    checked = [m for m in sim.messages(1, "checked") if isinstance(m, wire.Checked)][-1]
    result = checked.results[0]
    sim.feed(ClientSaid(1, wire.Act(action=wire.PlayCards(cards=cards))))
    while sim.complete_write():
        pass
    if result.ok and result.note != "throw":
        return  # legal after all for this hand: nothing to compare
    if result.ok:
        return  # a throw is checked against the other hands only when played
    err = _errors(sim)[-1]
    assert (err.code, err.message) == (result.code, result.message)
    assert (sim.table.seq, sim.table.version, len(sim.store.rows)) == before


def test_bad_cards_in_a_typed_act_are_a_clear_error_and_change_nothing() -> None:
    sim = _table()
    before = (sim.table.seq, sim.table.version, len(sim.store.rows))
    sim.feed(ClientSaid(1, wire.Act(action=wire.PlayCards(cards="XX"))))
    while sim.complete_write():
        pass
    err = _errors(sim)[-1]
    assert err.code == "bad-notation" and "XX" in err.message
    assert (sim.table.seq, sim.table.version, len(sim.store.rows)) == before


def test_a_client_names_no_seat_in_a_typed_action() -> None:
    with pytest.raises(msgspec.ValidationError):
        wire.decode_client(b'{"t":"act","v":3,"action":{"type":"play","seat":1,"cards":"SA"}}')
    with pytest.raises(msgspec.ValidationError):  # the room's own actions are not a client's
        wire.decode_client(b'{"t":"act","v":3,"action":{"type":"deal"}}')


def test_typed_and_text_forms_are_the_same_actions() -> None:
    sim = _table()
    m = sim.table.match
    assert m is not None
    for action in list(m.legal_actions(0))[:20]:
        assert to_action(typed(action), 0) == action
        assert read_logged(logged(action)) == read_logged(str(action)) == action


def test_a_room_restores_from_an_old_log_of_texts_and_a_new_one_alike() -> None:
    """A log written before typed actions (texts), one written now (typed JSON) and one
    that holds both (a server upgraded mid-match) restore the very same match."""
    sim = _table()
    rows = sim.store.action_rows()
    assert rows and all(r.startswith("{") for r in rows)
    old = [str(read_logged(r)) for r in rows]  # what the old code wrote for the same actions
    assert old[0] == "deal" and not old[0].startswith("{")
    half = len(rows) // 2
    mixed = old[:half] + rows[half:]
    t = sim.table
    args: dict[str, Any] = {"last_pos": sim.store.last_pos()}
    backs = [
        restored(t.config, sim.store.state, sim.store.last_seq(), log, sim.now, **args)
        for log in (rows, old, mixed)
    ]
    for back in backs:
        assert back.match is not None and t.match is not None
        assert back.match.deal.hands == t.match.deal.hands
        assert back.match.to_act == t.match.to_act
        assert list(back.actions) == list(t.actions) == old
        assert back.version == len(old)


def test_v3_and_v2_clients_over_a_socket(tmp_path: Path) -> None:
    """A version 3 client gets deltas and plays typed actions; a version 2 spectator in the
    same room keeps getting whole views; an illegal typed play is refused with a reason."""
    with live_server(fast_settings(str(tmp_path))) as base:
        ann, bob = new_player(base, "ann"), new_player(base, "bob")
        bots = {"1": "random", "2": "random", "3": "random"}
        code = new_room(base, ann["token"], max_deals=1, bots=bots)["code"]
        a = Client(base, code, ann["token"], version=3)
        b = Client(base, code, bob["token"], version=2)
        a.send({"t": "sit", "v": 3, "seat": 0})
        a.send({"t": "ready", "v": 3})
        view: dict[str, Any] = {}
        plays = refused = 0
        try:
            while plays < 3:
                msg = a.recv(20)
                assert msg["t"] != "update", "a version 3 client gets deltas"
                if msg["t"] == "snapshot" and msg["game"]:
                    view = dict(msg["game"])
                if msg["t"] != "delta":
                    continue
                view.update({k: v for k, v in msg["game"].items() if k != "played_suits"})
                for g in msg["game"].get("played_suits", []):
                    view["played"] = [g if x["suit"] == g["suit"] else x for x in view["played"]]
                if view.get("to_act") != 0 or view["phase"] == "dealing":
                    continue
                a.send({"t": "hint", "v": 3})
                hint = a.wait(lambda x: x["t"] == "hint")["action"]
                verb, _, rest = hint.partition(" ")
                if verb == "play" and not refused:
                    a.send({"t": "act", "v": 3, "action": {"type": "play", "cards": "BJ BJ"}})
                    err = a.wait(lambda x: x["t"] == "error")
                    assert err["code"] in ("not-in-hand", "wrong-count"), err
                    refused += 1
                if verb == "play":
                    a.send({"t": "act", "v": 3, "action": {"type": "play", "cards": rest}})
                    plays += 1
                else:
                    a.act(hint)  # texts stay valid in version 3
            whole = b.wait(lambda x: x["t"] == "update" and x["game"] is not None)
            assert set(whole["game"]) >= {"hand", "played", "trick", "to_act"}
            assert not [m for m in b.messages if m["t"] == "delta"]
            a.send({"t": "sync", "v": 3})
            while True:  # the deltas until the snapshot rebuilt the view it holds
                msg = a.recv(20)
                if msg["t"] == "snapshot":
                    break
                if msg["t"] == "delta":
                    view.update({k: v for k, v in msg["game"].items() if k != "played_suits"})
                    for g in msg["game"].get("played_suits", []):
                        view["played"] = [
                            g if x["suit"] == g["suit"] else x for x in view["played"]
                        ]
        finally:
            a.close()
            b.close()
    assert view == msg["game"] and refused == 1
