"""A deal dealt again (``Redeal``): the table agreed to reset it, so it starts over from a
fresh shuffle with the same deal number, dealer, level and seat levels; the record keeps the
``redeal`` and replays to the same state."""

from __future__ import annotations

import random

import pytest

from shengji.core.actions import Deal, Redeal, parse_match_action
from shengji.core.errors import IllegalAction
from shengji.core.events import DealReset, DealStarted
from shengji.core.match import MatchState
from shengji.core.record import GameRecord, replay
from shengji.core.ruleset import PRESETS
from shengji.core.state import first_seat_dealt


def _play(m: MatchState, rng: random.Random, steps: int) -> tuple[MatchState, list[str]]:
    texts: list[str] = []
    for _ in range(steps):
        seat = m.to_act
        assert seat is not None
        action = m.legal_actions(seat).sample(rng)
        m, _ = m.apply(action)
        texts.append(str(action))
    return m, texts


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_redealt_deal_starts_over_as_the_same_deal(name: str) -> None:
    rs = PRESETS[name]
    rng = random.Random(2)
    m = MatchState.new(rs, seed="s")
    # into the second deal, then part of the way through it
    deal_no = m.deal.deal_no
    texts: list[str] = []
    while m.deal.deal_no == deal_no and not m.is_over:
        m, more = _play(m, rng, 1)
        texts += more
    assert not m.is_over
    fresh = m.deal
    m, more = _play(m, rng, 30)
    texts += more
    again, events = m.apply(Redeal())
    texts.append("redeal")
    assert [type(e) for e in events] == [DealReset, DealStarted]
    assert isinstance(events[0], DealReset) and events[0].deal_no == fresh.deal_no
    d = again.deal
    assert (d.deal_no, d.dealer, d.level, d.seat_levels) == (
        fresh.deal_no, fresh.dealer, fresh.level, fresh.seat_levels,
    )
    # the seat dealt first: the same, or (four decks) drawn again with the fresh shuffle
    random_order = rs.deal_order == "random"
    assert d.start == (first_seat_dealt(d.seed, rs.players) if random_order else fresh.start)
    assert d.n_dealt == 0 and d.phase is fresh.phase and d.seed != fresh.seed
    assert again.levels == m.levels and again.history == m.history
    # a second reset shuffles again; playing on leads to the next deal with no redeals
    twice, _ = again.apply(Redeal())
    assert twice.redeals == 2 and twice.deal.seed not in (d.seed, fresh.seed)
    rec = GameRecord(rs.to_dict(), "s", None, texts)
    assert replay(rec).deal.seed == d.seed
    m2, _ = _play(again, rng, 1)
    assert m2.redeals == 1


def test_a_first_deal_redealt_is_still_decided_by_declaration() -> None:
    m = MatchState.new(PRESETS["classic"], seed=3)
    m, _ = m.apply(Deal())
    again, _ = m.apply(Redeal())
    assert again.deal.dealer is None and again.deal.first_deal and again.deal.n_dealt == 0


def test_no_redeal_once_the_match_is_over() -> None:
    rng = random.Random(0)
    m = MatchState.new(PRESETS["classic"].replace({"level_sequence": [12]}), seed=1)
    while not m.is_over:
        m, _ = _play(m, rng, 1)
    with pytest.raises(IllegalAction):
        m.apply(Redeal())


def test_redeal_text_round_trips() -> None:
    assert parse_match_action(str(Redeal())) == Redeal()
    assert parse_match_action("play 0 SA") != Redeal()
