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
