"""No observation leaks hidden cards: other hands and an unseen kitty are shuffled behind an
unchanged view, and the observation (and the acting seat's mask) stays the same."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.core.order import TRUMP
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for
from shengji.env.actions import Turn
from shengji.env.aec import ShengjiEnv, agent_name

from .helpers import run_deals


def swapped(state: DealState, viewer: int, rng: random.Random, keep_suits: bool) -> DealState:
    """``state`` with the cards ``viewer`` cannot see dealt out again at random: each other
    hand keeps its size, an unseen kitty too (``keep_suits``: each hand keeps its count of
    every effective suit, so it stays void where it was)."""
    s = state._copy()
    kitty_hidden = view_for(state, viewer).kitty is None and state.phase not in (
        Phase.BURYING, Phase.NAMING)  # there the kitty is inside its holder's hand
    owners = [p for p in range(state.players) if p != viewer]
    pools: dict[int, list[int]] = {}
    slots: list[tuple[int, int]] = []  # (owner, suit class); owner -1 = the kitty
    ctx = state.ctx

    def cls(c: int) -> int:
        return ctx.esuit[c] if keep_suits and ctx is not None else TRUMP

    for owner in owners:
        for k, n in enumerate(state.hands[owner]):
            for _ in range(n):
                pools.setdefault(cls(k), []).append(k)
                slots.append((owner, cls(k)))
    if kitty_hidden:
        for k in state.kitty:
            pools.setdefault(cls(k), []).append(k)
            slots.append((-1, cls(k)))
    for pool in pools.values():
        rng.shuffle(pool)
    hands = [list(h) if p == viewer else [0] * 54 for p, h in enumerate(state.hands)]
    kitty: list[int] = []
    for owner, c in slots:
        k = pools[c].pop()
        if owner < 0:
            kitty.append(k)
        else:
            hands[owner][k] += 1
    s.hands = tuple(hands)
    if kitty_hidden:
        s.kitty = tuple(kitty)
    return s


def _same_obs(env: ShengjiEnv, turn: Turn) -> None:
    rng = random.Random(len(turn.state.tricks) * 7 + turn.seat)
    rs = env.ruleset
    throws_by_voids = rs.throw_policy == "others-void" and turn.legal.kind == "lead"
    for viewer in range(rs.players):
        agent = agent_name(viewer)
        before = env.observe(agent)
        real = env.state
        for keep_suits in (False, True):
            other = swapped(real, viewer, rng, keep_suits)
            env.state = other
            if viewer == turn.seat:
                env.turn = Turn(other, turn.seat, env.catalogue, turn.offer)
            try:
                after = env.observe(agent)
            finally:
                env.state, env.turn = real, turn
            assert np.array_equal(before["observation"], after["observation"]), agent
            if keep_suits or not throws_by_voids:
                # Under throw_policy "others-void" whether a throw may be tried says that
                # every other seat is void in the suit: the rule itself tells the leader.
                assert np.array_equal(before["action_mask"], after["action_mask"]), agent


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_observation_ignores_hidden_cards(name: str) -> None:
    assert run_deals(name, range(1), _same_obs) > 20


def test_the_swap_really_changes_hidden_cards() -> None:
    env = ShengjiEnv("classic")
    env.reset(seed=4)
    while env.state.phase is not Phase.PLAYING:
        turn = env.turn
        assert turn is not None
        env.step(turn.allowed()[0])
    other = swapped(env.state, 0, random.Random(1), keep_suits=False)
    assert other.hands[0] == env.state.hands[0]
    assert other.hands[1:] != env.state.hands[1:]
    assert [sum(h) for h in other.hands] == [sum(h) for h in env.state.hands]
