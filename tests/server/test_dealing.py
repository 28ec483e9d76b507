"""Dealing at a live table (issue 15): a round of cards, one to each seat, is one update,
each card its own log row; a seat sees its own card and the others' counts; the pace per
card is kept; ``deal_batch`` 1 deals card by card; a table restored from the log after any
round goes on dealing; bots still get to declare with the cards a round brought them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shengji.core.actions import Deal
from shengji.core.phases import Phase
from shengji.server.table import Table, TableOptions
from shengji.server.table.commands import ClientSaid, Opened, SeatBot, Tick
from shengji.server.table.dealing import round_size
from shengji.server.table.options import Limits
from shengji.server.table.restore import restored
from shengji.server.wire import messages as wire
from shengji.server.wire.actions import read_logged
from tests.server.table_sim import Sim, config

PACE = TableOptions(turn_s=20.0, long_turn_s=45.0, next_deal_s=30.0)


def started(preset: str = "classic", batch: int = 0, humans: int = 1, seed: str = "seed") -> Sim:
    """A table of ``preset`` with ``humans`` watching players in the first seats and random
    bots in the rest, the match started (nothing dealt yet is written)."""
    limits = Limits(deal_pacing_s=0.15, deal_batch=batch)
    cfg = replace(config(preset, limits=limits), options=PACE, owner="ann")
    sim = Sim(Table.empty(cfg, spare_seed=seed))
    for i in range(humans):
        sim.feed(Opened(i + 1, f"p{i}", f"p{i}"))
        sim.feed(ClientSaid(i + 1, wire.Sit(seat=i)))
        sim.feed(ClientSaid(i + 1, wire.Ready()))
    for seat in range(humans, cfg.ruleset.players):
        sim.feed(SeatBot(seat, "random"))
    return sim


def dealing_updates(sim: Sim, conn: int) -> list[wire.Update]:
    """The updates ``conn`` got while cards were dealt (before the dealing phase ended)."""
    out = []
    for m in sim.messages(conn, "update"):
        assert isinstance(m, wire.Update)
        if any(isinstance(e, wire.CardDealtEvent | wire.CardCountDealtEvent) for e in m.events):
            out.append(m)
    return out


def deal_out(sim: Sim) -> None:
    """Run the table until dealing is over and every update of it is out."""
    sim.run(until=lambda s: s.table.match is not None and s.table.match.deal.n_dealt > 0
            and s.table.match.deal.phase is not Phase.DEALING)
    while sim.complete_write():
        pass


@pytest.mark.parametrize("preset", ["classic", "five-player", "three-player"])
def test_a_round_is_one_update_with_a_card_for_each_seat(preset: str) -> None:
    sim = started(preset)
    n = sim.table.config.ruleset.players
    assert round_size(sim.table) == n
    deal_out(sim)
    ups = dealing_updates(sim, 1)
    # seat 0 (connection 1) sees exactly its own cards, and a count for every card dealt
    mine = [e for u in ups for e in u.events if isinstance(e, wire.CardDealtEvent)]
    assert {e.seat for e in mine} == {0}
    counts = [e for u in ups for e in u.events if isinstance(e, wire.CardCountDealtEvent)]
    logged = sim.store.actions()
    assert len(counts) == logged.count("deal")
    # a round is a card to each seat in turn: every update but the last holds n counts
    sizes = [sum(isinstance(e, wire.CardCountDealtEvent) for e in u.events) for u in ups]
    assert all(k == n for k in sizes[:-1]) and 1 <= sizes[-1] <= n
    assert all(len({e.seat for e in u.events if isinstance(e, wire.CardCountDealtEvent)})
               == k for u, k in zip(ups, sizes, strict=True))
    # one sequence number per update, one log row per card
    seqs = [u.seq for u in ups]
    assert seqs == sorted(set(seqs))
    rows = [r for r in sim.store.rows if r.kind == "action" and read_logged(r.data) == Deal()]
    assert len(rows) == len(counts) and len({r.seq for r in rows}) == len(ups)
    assert not sim.sent_before_written


def test_the_pace_per_card_is_kept() -> None:
    sim = started()
    deal_out(sim)
    rounds = len(dealing_updates(sim, 1))
    cards = sim.store.actions().count("deal")
    # a round of four cards every 4 × 0.15 s: the deal takes as long as card by card
    assert sim.now == pytest.approx(0.15 * 4 * (rounds - 1))
    assert 4 * (rounds - 1) < cards <= 4 * rounds


def test_deal_batch_one_deals_card_by_card() -> None:
    sim = started(batch=1)
    assert round_size(sim.table) == 1
    deal_out(sim)
    ups = dealing_updates(sim, 1)
    counts = [sum(isinstance(e, wire.CardCountDealtEvent) for e in u.events) for u in ups]
    assert set(counts) == {1} and len(ups) == sim.store.actions().count("deal")


def test_a_table_restored_after_a_round_deals_on_and_plays_the_same_match() -> None:
    sim = started(humans=0)
    sim.run(until=lambda s: s.table.match is not None and s.table.match.deal.n_dealt >= 20)
    while sim.complete_write():
        pass
    t = sim.table
    m = t.match
    assert m is not None and m.deal.phase is Phase.DEALING
    back = restored(
        t.config,
        sim.store.state,
        sim.store.last_seq(),
        sim.store.actions(),
        sim.now,
        last_pos=sim.store.last_pos(),
    )
    assert back.match is not None
    assert back.match.deal.n_dealt == m.deal.n_dealt
    assert [list(h) for h in back.match.deal.hands] == [list(h) for h in m.deal.hands]
    assert back.version == len(sim.store.actions())
    # and it deals on where it stopped, in rounds, to the end of the deal
    again = Sim(back, now=sim.now)
    again.store = sim.store
    again.feed(Tick())
    deal_out(again)
    after = again.table.match
    assert after is not None and after.deal.phase is not Phase.DEALING
    assert after.deal.n_dealt > m.deal.n_dealt and sum(map(sum, after.deal.hands)) == 100


def test_bots_declare_with_cards_a_round_brought() -> None:
    # four bots over many seeds: declarations happen while dealing, as card by card
    declared = 0
    for seed in range(6):
        sim = started(humans=0, seed=f"s{seed}")
        deal_out(sim)
        declared += sum(1 for a in sim.store.actions() if a.startswith("declare"))
    assert declared > 0


@pytest.mark.parametrize("batch", [0, 1])
def test_a_wake_up_that_fires_early_is_asked_for_again(batch: int) -> None:
    # uvloop fires a timer up to a millisecond before its time: the next card is not due
    # yet, so the table asks for the same wake-up again instead of waiting for nothing
    sim = started(batch=batch)
    sim.early = 0.0005
    deal_out(sim)
    deal = sim.table.match.deal if sim.table.match is not None else None
    assert deal is not None and deal.phase is not Phase.DEALING
    assert sim.store.actions().count("deal") == deal.n_dealt
    sim.run()  # and the match goes on to its end by itself (bots, turn clocks, 托管)
    assert len(sim.messages(1, "match_over")) == 1
