"""A search's rollouts take the heuristic's leads and follows as legal without checking them
again (``HeuristicBot.trusted``, ``LegalActions.trust``): the same rollouts, play for play,
as with every play checked, on seeded positions of every preset (issue 17's rule: every
fast path is cross-checked against the reference)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.heuristic import HeuristicBot
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot, rollout, rollout_players
from shengji.core.actions import Play
from shengji.core.determinize import state_from_view
from shengji.core.errors import IllegalAction
from shengji.core.legal import LegalActions
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for
from tests.bots.test_inference import playing_states


def _played_out(world: DealState, trusted: bool, seed: int) -> tuple[object, ...]:
    bots = [HeuristicBot(f"{seed}.{k}") for k in range(world.players)]
    for b in bots:
        b.trusted = trusted
    result = rollout(world, bots)
    assert all(b.fallbacks == 0 for b in bots)
    return (result, world.tricks, tuple(tuple(h) for h in world.hands))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_a_trusted_rollout_plays_what_a_checked_one_plays(
    name: str, seed: int, when: float
) -> None:
    states = playing_states(name, seed, heuristic=seed % 2 == 0)
    state = states[int(when * (len(states) - 1))]
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    hands, kitty = sample_hidden(view, random.Random(seed))
    checked = _played_out(state_from_view(view, hands, kitty), False, seed)
    trusted = _played_out(state_from_view(view, hands, kitty), True, seed)
    assert trusted == checked


def test_only_the_search_trusts_its_rollout_players() -> None:
    assert not HeuristicBot().trusted
    players = rollout_players("heuristic", 1)
    assert all(isinstance(p, HeuristicBot) and p.trusted for p in players)
    bot = SearchBot(seed=1)
    assert all(isinstance(p, HeuristicBot) and p.trusted for p in bot.players)
    assert isinstance(bot.policy, HeuristicBot) and not bot.policy.trusted


def test_a_trusted_play_is_applied_without_a_check() -> None:
    """What ``trust`` gives the engine is vouched, so ``apply`` takes it as it is: the
    reason it is only for a simulation's own policy."""
    state = playing_states("classic", 3, heuristic=True)[0]
    seat = state.to_act
    assert seat is not None
    legal = LegalActions(state, seat)
    not_held = next(k for k in range(54) if state.hands[seat][k] == 0)
    assert legal.vouch(Play(seat, (not_held,))) is None  # checked: refused
    with pytest.raises(IllegalAction):
        state.apply(Play(seat, (not_held,)))
    after, _events = state.apply(legal.trust((not_held,)))  # trusted: taken as it is
    assert after.hands[seat][not_held] == -1
