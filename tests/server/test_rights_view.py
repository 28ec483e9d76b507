"""亮牌权 as the server tells it (seed 002 "抓分方捉满120分即可上台,即每个成员获得下一局的亮牌权";
docs/rules.md Decision 97): a five-player deal after a takeover has no dealer yet; every
view carries the seats holding the right (the browser's dealing prompt names them) and each
seat its own level to declare with, and only those seats are ever offered a declaration.
"""

from __future__ import annotations

import random

from shengji.core.cards import LEVELS
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.server.wire.seat_view import game_view

FIVE = PRESETS["five-player"]


def _contested(seed: int) -> MatchState:
    """A five-player match, random legal play, up to the first deal after a takeover in
    which the seats holding the right are not all on one level."""
    rng = random.Random(seed)
    m = MatchState.new(FIVE, seed=seed)
    for _ in range(50_000):
        rights = m.deal.rights
        if rights and m.deal.dealer is None and len({m.levels[s] for s in rights}) > 1:
            return m
        assert not m.is_over
        m, _ = m.apply(m.legal_actions(m.to_act).sample(rng))
    raise AssertionError("no takeover in this match")


def test_a_contested_deal_tells_each_seat_the_right_and_its_own_level() -> None:
    m = _contested(5)
    before = m.history[-1]
    attackers = [s for s in range(FIVE.players) if s not in before.result.defenders]
    rights = list(m.deal.rights)
    assert sorted(rights) == attackers  # the last deal's attackers, each of them
    declared = set()
    rng = random.Random(1)
    while m.deal.dealer is None:
        for seat in (*range(FIVE.players), None):
            g = game_view(m, seat)
            assert g.rights == rights and g.dealer is None
            if seat is None:
                assert g.declare_level is None  # a spectator declares nothing
                continue
            assert g.declare_level == LEVELS[m.levels[seat]]  # its own level, not the deal's
            offered = [o.split()[1:] for o in g.options if o.startswith("declare")]
            if seat not in rights:
                assert not offered, (seat, offered)
            for cards in offered:  # its own level's cards (or jokers)
                assert all(c in ("LJ", "BJ") or c[1:] == g.declare_level for c in cards)
                declared.add(seat)
        m, _ = m.apply(m.legal_actions(m.to_act).sample(rng))
    assert declared and declared <= set(rights)
    assert len({m.levels[s] for s in declared}) > 1  # seats on different levels declared
    assert m.deal.dealer in rights and m.deal.phase is not Phase.DEALING
