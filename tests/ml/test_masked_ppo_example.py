"""docs/examples/masked_ppo.py, the example docs/research.md shows: a few updates of masked
PPO through ``gymnasium.make_vec`` on a registered id, across several deals' auto-resets."""

from __future__ import annotations

import math
import runpy
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the ml extra is not installed: pip install 'shengji[ml]'")

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "masked_ppo.py"


def test_the_example_trains_a_few_updates() -> None:
    module = runpy.run_path(str(EXAMPLE), run_name="masked_ppo")
    log = module["train"]("shengji/OneDeck-v0", steps=256, envs=2, rollout=64, seed=3)
    assert [entry["steps"] for entry in log] == [128, 256]
    assert all(math.isfinite(entry["loss"]) for entry in log)
    assert sum(entry["deals"] for entry in log) >= 4  # deals ended and were auto-reset
    rewards = [entry["mean_reward"] for entry in log if entry["mean_reward"] is not None]
    assert rewards and all(-3 <= r <= 3 for r in rewards)


def test_the_doc_shows_the_example() -> None:
    doc = (EXAMPLE.parents[1] / "research.md").read_text(encoding="utf-8")
    assert "examples/masked_ppo.py" in doc and "action_masks()" in doc
