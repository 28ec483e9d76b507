"""``bench/decisions.py`` runs, for play decisions and for burials, so that it does not rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("extra", [[], ["--bury"]])
def test_decisions_judges_variants_in_the_true_deal(tmp_path: Path, extra: list[str]) -> None:
    out = tmp_path / "decisions.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "decisions.py"), "--positions", "2", "--seed", "3",
         "--jobs", "2", "--variant", "a=w:2", "--variant", "b=w:2,bury:1", "--out", str(out),
         *extra],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    report = json.loads(out.read_text())
    assert report["summary"]["positions"] == 2
    for row in report["rows"]:
        assert row["oracle"] >= 0  # the best of the alternatives includes the policy's own
        assert row["worlds"]["a"] == (0 if extra else 2) and row["worlds"]["b"] == 2
