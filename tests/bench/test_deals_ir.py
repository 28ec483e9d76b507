"""``bench/deals_ir.py`` runs (under valgrind, where installed) so that it does not rot."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_deals_ir_counts_instructions_per_deal(tmp_path: Path) -> None:
    out = tmp_path / "ir.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "deals_ir.py"), "--small", "1", "--large", "2",
         "--out", str(out)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    row = json.loads(out.read_text())["rows"][0]
    assert row["deals"] == 4 and row["actions"] > 4 * 100  # one match of four deals
    assert row["instructions_per_deal"] > 1_000_000
