"""Gymnasium glue: every preset registered on import of ``shengji.env``, ``action_masks()``
for MaskablePPO, and a terminal mask a masked policy can sample from under auto-reset."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import shengji.env
from shengji.core.ruleset import PRESETS
from shengji.env.gym_env import TERMINAL_ACTION, SingleSeatEnv
from shengji.env.registration import env_id


def test_every_preset_has_an_id() -> None:
    assert sorted(env_id(p) for p in PRESETS) == shengji.env.registration.IDS
    assert "shengji/Classic-v0" in gymnasium.registry


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_make_plays_a_deal_of_every_preset(preset: str) -> None:
    env = gymnasium.make(env_id(preset))  # with Gymnasium's passive environment checker
    assert isinstance(env.unwrapped, SingleSeatEnv) and env.unwrapped.game.ruleset.name == preset
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, _reward, done, _truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert obs["action_mask"].nonzero()[0].tolist() == [TERMINAL_ACTION]
    with pytest.raises(RuntimeError, match="call reset"):
        env.unwrapped.step(TERMINAL_ACTION)
    env.close()


def test_make_passes_keywords_and_the_module_prefix_imports() -> None:
    env = gymnasium.make("shengji.env:shengji/OneDeck-v0", seat=1, bots="heuristic")
    assert env.unwrapped.seat == 1 and env.unwrapped.bot_names == ["heuristic"] * 4


def test_a_masked_policy_runs_through_vector_auto_reset() -> None:
    """Gymnasium's default (next-step) auto-reset hands the policy the terminal observation
    and ignores the action it picks there: every mask must allow something."""
    envs = gymnasium.make_vec("shengji/OneDeck-v0", num_envs=3, vectorization_mode="sync")
    rng = np.random.default_rng(1)
    obs, _ = envs.reset(seed=7)
    ended = 0
    for _ in range(400):
        masks = obs["action_mask"].astype(bool)
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _rewards, terminated, _truncated, _info = envs.step(actions)
        ended += int(terminated.sum())
    assert ended >= 3  # several deals ended and were reset on the way
    envs.close()
