"""``bench/rollout_ir.py`` runs (under valgrind, where installed) so that it does not rot."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_rollout_ir_counts_instructions(tmp_path: Path) -> None:
    out = tmp_path / "ir.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "rollout_ir.py"), "--positions", "1", "--per", "1",
         "--trick", "10", "--out", str(out)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    row = json.loads(out.read_text())["rows"][0]
    assert row["rollouts"] == 1 and row["cards_played"] > 0
    assert row["instructions_per_rollout"] > 1_000_000


def test_rollouts_times_trees_interleaved(tmp_path: Path) -> None:
    """``bench/rollouts.py --tree``: each tree timed in its own process, round by round."""
    out = tmp_path / "rollouts.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "rollouts.py"), "--tree", f"a={ROOT}",
         "--tree", f"b={ROOT}", "--rounds", "2", "--positions", "1", "--per", "1",
         "--trick", "10", "--out", str(out)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    runs = json.loads(out.read_text())["runs"]
    assert [(r["label"], r["round"]) for r in runs] == [("a", 0), ("b", 0), ("a", 1), ("b", 1)]
    assert all(r["n"] == 1 and r["mean_ms"] > 0 and isinstance(r["compiled"], bool) for r in runs)
