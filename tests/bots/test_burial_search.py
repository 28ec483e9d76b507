"""The search buries too: worlds after a burial are the engine's deal, built from the view."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.burial_choice import burial_options, choose_burial
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.search import BURY_CANDIDATES, SearchBot, rollout, rollout_players
from shengji.core.actions import Bury
from shengji.core.cards import counts_of, deck
from shengji.core.determinize import burial_searchable, state_after_burial, unseen_cards
from shengji.core.match import MatchState
from shengji.core.order import context
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for


def at_burial(name: str, seed: int) -> DealState | None:
    """A seeded heuristic deal of preset ``name`` when its kitty is to be buried."""
    rs = PRESETS[name]
    m = MatchState.new(rs, f"bury.{seed}", seed % rs.players)
    bots = [HeuristicBot(f"{seed}.{s}") for s in range(rs.players)]
    while m.deal.phase is not Phase.BURYING:
        if m.deal.phase in (Phase.PLAYING, Phase.DONE):
            return None
        seat = m.to_act
        assert seat is not None
        legal = m.legal_actions(seat)
        act = bots[seat].choose(view_for(m.deal, seat), legal) if seat >= 0 else None
        m, _ = m.apply(act if act is not None else legal.sample(random.Random(0)))
    return m.deal


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_world_after_the_true_burial_is_the_engines_deal(name: str) -> None:
    """With the true hands, ``state_after_burial`` is what ``Bury`` makes: every seat sees
    the same (bar its own overcalled declaration, which no bot reads), the same seat leads,
    and the deal plays out to the same result."""
    checked = reached = 0
    for seed in range(4):
        deal = at_burial(name, seed)
        if deal is None:
            continue  # no kitty to bury in this preset
        reached += 1
        seat = deal.to_act
        assert seat is not None and seat >= 0
        view = view_for(deal, seat)
        if not burial_searchable(view):
            with pytest.raises(ValueError):
                state_after_burial(view, deal.hands, deal.kitty)
            continue
        legal = deal.legal_actions(seat)
        burial = HeuristicBot("b").choose(view, legal)
        assert isinstance(burial, Bury)
        engine, _ = deal.apply(burial)
        world = state_after_burial(view, deal.hands, burial.cards)
        assert world.to_act == engine.to_act
        for s in range(deal.ruleset.players):
            # a world, like ``state_from_view``'s, keeps no seat's own losing declaration
            theirs = view_for(engine, s)._replace(own_declaration=None)
            assert view_for(world, s)._replace(own_declaration=None) == theirs
        results = [rollout(d, rollout_players("heuristic", 1)) for d in (world, engine)]
        assert results[0] == results[1]
        checked += 1
    rs = PRESETS[name]
    if rs.partnership == "fixed" and not rs.rebury:
        assert checked == reached


def test_the_burier_has_not_seen_the_other_hands() -> None:
    """While it buries, the kitty is in the holder's hand: it is not counted twice."""
    deal = at_burial("classic", 1)
    assert deal is not None and deal.to_act is not None
    view = view_for(deal, deal.to_act)
    assert view.kitty is not None
    assert len(unseen_cards(view)) == 108 - 33
    hidden = counts_of(deck(2))
    for k, n in enumerate(view.hand_counts):
        hidden[k] -= n
    assert counts_of(unseen_cards(view)) == hidden


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.sampled_from([6, 8]))
def test_burial_options_start_with_the_heuristics_and_are_distinct(
    rng: random.Random, defender: bool, size: int
) -> None:
    pack = deck(2)
    rng.shuffle(pack)
    hand = counts_of(pack[:33])
    ctx = context(rng.randrange(13), rng.randrange(-1, 4))  # level, trump (-1: none)
    options = burial_options(hand, ctx, size, defender, 2, BURY_CANDIDATES)
    assert sorted(options[0]) == sorted(choose_burial(hand, ctx, size, defender, 2))
    assert len({tuple(sorted(b)) for b in options}) == len(options) <= BURY_CANDIDATES
    for b in options:
        assert len(b) == size
        assert all(counts_of(b)[k] <= hand[k] for k in range(54))


def swap_two_others(deal: DealState, seat: int) -> DealState:
    """The same deal as ``seat`` sees it while burying, two other hands swapped."""
    a, b = [s for s in range(4) if s != seat][::2]
    out = deal._copy()
    hands = list(deal.hands)
    hands[a], hands[b] = deal.hands[b], deal.hands[a]
    out.hands = tuple(hands)
    return out


def test_the_burial_search_decides_from_the_view_only() -> None:
    checked = 0
    for seed in range(3):
        deal = at_burial("classic", seed)
        assert deal is not None and deal.to_act is not None
        seat = deal.to_act
        twin = swap_two_others(deal, seat)
        assert view_for(twin, seat) == view_for(deal, seat)
        runs = []
        for d in (deal, twin):
            bot = SearchBot(seed=5, samples=3, bury=True)
            choice = bot.choose(view_for(d, seat), d.legal_actions(seat))
            assert isinstance(choice, Bury)
            runs.append((choice, bot.stats))
        assert runs[0][0] == runs[1][0]
        (worlds, rollouts, _cpu), = runs[0][1]
        assert [s[:2] for s in runs[1][1]] == [(worlds, rollouts)]
        assert worlds == 3 and rollouts >= 3 * 2  # at least two burials, in every world
        checked += 1
    assert checked


def test_the_burial_search_keeps_its_budget_and_is_opt_in() -> None:
    deal = at_burial("classic", 2)
    assert deal is not None and deal.to_act is not None
    seat = deal.to_act
    view, legal = view_for(deal, seat), deal.legal_actions(seat)
    bot = SearchBot(seed=1, think_ms=80, bury=True)
    t0 = time.thread_time()
    choice = bot.choose(view, legal)
    assert time.thread_time() - t0 <= 1.2 * 0.080
    assert legal.vouch(choice) is not None and bot.stats
    off = SearchBot(seed=1, think_ms=80)
    assert off.choose(view, legal) == HeuristicBot("h").choose(view, legal)
    assert off.stats == []
