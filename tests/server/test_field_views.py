"""A delta's fields are rendered one by one (``wire.seat_view.FieldViews``), not picked out
of whole views: every field so rendered, for every seat and the spectators, equals the same
field of the whole view (``game_view``), and so do the ``played`` groups of a few suits,
on random matches of every preset (declarations made while cards are dealt included)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.core.errors import ShengjiError
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.server.wire import messages as wire
from shengji.server.wire.render import ALL_FIELDS, PUBLIC_FIELDS, SEAT_FIELDS
from shengji.server.wire.seat_view import FieldViews, game_view

SUITS = ("T", "S", "H", "D", "C")


def states(preset: str, seed: int, steps: int = 400) -> Iterator[MatchState]:
    """The states of a random match (its first deal and on), a seat declaring now and then
    while cards are dealt."""
    rng = random.Random(seed)
    m = MatchState.new(PRESETS[preset], seed=seed)
    yield m
    n = m.ruleset.players
    for _ in range(steps):
        if m.is_over:
            return
        if m.deal.phase is Phase.DEALING and rng.random() < 0.15:
            seat = rng.randrange(n)
            legal = m.legal_actions(seat)
            if legal and legal.small:
                try:
                    m, _ = m.apply(rng.choice(legal.small))
                except ShengjiError:
                    continue
                yield m
                continue
        actor = m.to_act
        assert actor is not None
        m, _ = m.apply(m.legal_actions(actor).sample(rng))
        yield m


def test_the_fields_are_every_game_view_field_once() -> None:
    assert sorted(ALL_FIELDS) == sorted(wire.GAME_FIELDS)
    assert not PUBLIC_FIELDS & set(SEAT_FIELDS)


@settings(max_examples=len(PRESETS), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_fields_rendered_alone_equal_the_whole_view(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    seats = (*range(PRESETS[preset].players), None)
    for m in states(preset, seed):
        views = FieldViews(m)  # one per state, shared by every audience as in an update
        for seat in rng.sample(seats, len(seats)):
            whole = game_view(m, seat)
            expect = {f: getattr(whole, f) for f in wire.GAME_FIELDS}
            some = rng.sample(wire.GAME_FIELDS, rng.randrange(1, 8))
            suits = frozenset(rng.sample(SUITS, rng.randrange(1, 3)))
            played = [g for g in whole.played if g.suit in suits]
            got = views.fields(seat, some, suits)
            assert got == {**{f: expect[f] for f in some}, "played_suits": played}
            alone = views.fields(seat, (), suits)  # the counts without the seat's facts
            assert alone == {"played_suits": played}
            assert views.fields(seat, wire.GAME_FIELDS) == expect


@pytest.mark.parametrize("seat", [0, None])
def test_a_field_every_audience_sees_alike_is_rendered_once(seat: int | None) -> None:
    m = next(s for s in states("classic", 3) if s.deal.trick)
    views = FieldViews(m)
    first = views.fields(1, ["trick", "hand"])
    again = views.fields(seat, ["trick"])
    assert again["trick"] is first["trick"]
