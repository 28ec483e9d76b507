"""Tournament rooms: "在比赛过程中任何一方不许查牌、不许提示" (seed 002 十, Decision 140).

A ruleset with ``player_aids`` off refuses hints, shows the last trick only while its cards
lie on the table (until the next lead) and sends no card counter (``played``); the engine's
views keep every past trick for the bots' memory.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shengji.core.display import table_facts
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState, Phase
from shengji.core.views import public_view, view_for
from shengji.server.table import Table, TableOptions
from shengji.server.table.commands import ClientSaid, Opened, SeatBot
from shengji.server.wire import messages as wire
from shengji.server.wire.render import render_view
from tests.server.table_sim import Sim, config

NO_AIDS = PRESETS["tournament"]
AIDS = preset("tournament", {"player_aids": True})


def test_the_tournament_preset_offers_no_aids_and_the_others_do() -> None:
    assert not NO_AIDS.player_aids
    assert all(rs.player_aids for name, rs in PRESETS.items() if name != "tournament")
    assert not preset("classic", {"player_aids": False}).player_aids  # a room option


def _sim(rs: Ruleset) -> Sim:
    cfg = replace(config("tournament"), ruleset=rs, options=TableOptions(), owner="ann")
    sim = Sim(Table.empty(cfg, spare_seed="seed"))
    sim.feed(Opened(1, "ann", "ann"))
    sim.feed(ClientSaid(1, wire.Sit(seat=0)))
    sim.feed(ClientSaid(1, wire.Ready()))
    for seat in range(1, 4):
        sim.feed(SeatBot(seat, "random"))
    sim.run(until=lambda s: s.table.to_act() == 0)
    return sim


def _said(sim: Sim, msg: wire.ClientMessage) -> None:
    """``msg`` from seat 0's connection; what the table held back behind writes is sent."""
    sim.feed(ClientSaid(1, msg))
    while sim.complete_write():
        pass


@pytest.mark.parametrize("bot", [None, "heuristic"])
def test_a_hint_is_refused_where_the_rules_offer_none(bot: str | None) -> None:
    sim = _sim(NO_AIDS)
    before = sim.table
    _said(sim, wire.Hint(bot=bot))
    errors = [m for m in sim.messages(1, "error") if isinstance(m, wire.Error)]
    assert errors and errors[-1].code == "no-aids" and "不许提示" in errors[-1].message
    assert not sim.messages(1, "hint") and not sim.asks
    assert sim.table.match is before.match  # nothing changed


def test_a_hint_is_given_where_the_rules_offer_it() -> None:
    sim = _sim(AIDS)
    _said(sim, wire.Hint())
    assert sim.messages(1, "hint") and not sim.messages(1, "error")


def _mid_play(rs: Ruleset) -> tuple[DealState, DealState]:
    """A deal between two tricks (one won, nothing led yet) and just after the next lead."""
    s = DealState.new(rs, seed="aids", level=0, dealer=0)
    rng = random.Random(4)
    between = None
    while True:
        seat = s.to_act
        assert seat is not None
        s = s.apply(s.legal_actions(seat).sample(rng))[0]
        if s.phase is Phase.PLAYING and len(s.tricks) == 2 and not s.trick:
            between = s
        if between is not None and s.trick:
            return between, s


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_last_trick_and_the_card_counter_follow_the_flag(seat: int | None) -> None:
    for rs, aids in ((NO_AIDS, False), (AIDS, True)):
        between, led = _mid_play(rs)
        for s, on_table in ((between, True), (led, False)):
            view = public_view(s) if seat is None else view_for(s, seat)  # None: a spectator
            assert len(view.tricks) == 2  # the engine's view keeps them (bots' memory)
            g = render_view(view, ["2", "2"], False, None, facts=table_facts(s, seat))
            shown = aids or on_table
            assert (g.last_trick is not None) == shown
            assert bool(g.played) == aids
