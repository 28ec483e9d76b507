"""PettingZoo's own checks (``api_test``, ``seed_test``) on every preset."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from shengji.core.ruleset import PRESETS
from shengji.env import shengji_v0

CYCLES = 60
"""Enough cycles for a whole deal of every preset (every seat acts ~30+ times)."""


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_api(name: str) -> None:
    with warnings.catch_warnings():
        # Dict observations with an action mask, as PettingZoo's own card games have.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        # api_test resets with options={"options": 1}, which the environment says it ignores
        warnings.filterwarnings("ignore", message=".*reset options")
        api_test(shengji_v0.env(preset=name), num_cycles=CYCLES)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_seed(name: str) -> None:
    seed_test(lambda: shengji_v0.env(preset=name), num_cycles=CYCLES)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_deal_ends_with_every_agent_done(name: str) -> None:
    env = shengji_v0.env(preset=name)
    env.reset(seed=3)
    steps = 0
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    assert env.agents == []
    assert env.unwrapped.state.is_over
    assert steps > env.unwrapped.ruleset.hand_size


def test_reset_options_are_checked() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        shengji_v0.env(render_mode="human")
    with pytest.raises(ValueError, match="reward"):
        shengji_v0.env(reward="money")
    with pytest.raises(ValueError, match="dealer"):
        shengji_v0.env(dealer=7)
    with pytest.raises(ValueError, match="level"):
        shengji_v0.env(preset="tournament", level="3")
