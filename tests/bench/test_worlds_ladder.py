"""``bench/worlds.py --follow`` and ``bench/ladder.py --paired`` run, so that they do not
rot: the chains' worlds are measured deal by deal, two rungs compared on their common pairs,
a variant laddered by import path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_worlds_follows_whole_deals(tmp_path: Path) -> None:
    out = tmp_path / "worlds.json"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "worlds.py"), "--follow", "1", "--worlds", "1",
         "--draws", "1,c2x1b2", "--out", str(out)],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    report = json.loads(out.read_text())["follow"]
    assert set(report) == {"1", "c2x1b2"}
    for row in report.values():
        assert 0.2 < row["accuracy"] <= 1.0
    assert report["1"]["accepted"] is None and 0 <= report["c2x1b2"]["accepted"] <= 1


def test_ladder_compares_two_rungs_on_the_pairs_both_played(tmp_path: Path) -> None:
    def pair(i: int, signed: float) -> str:
        return json.dumps({"i": i, "seed": 1, "signed_levels": signed})

    (tmp_path / "search-300.jsonl").write_text("\n".join(
        pair(i, s) for i, s in [(0, 0.5), (1, 0.0), (2, -1.0)]) + "\n")
    (tmp_path / "search-300-chains.jsonl").write_text("\n".join(
        pair(i, s) for i, s in [(0, 1.0), (2, 0.0), (3, 2.0)]) + "\n")
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ladder.py"), "--out", str(tmp_path),
         "--paired", "search:300:chains,search:300"],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )
    assert "2 pairs, signed levels/deal +0.750 [" in run.stdout  # pairs 0 and 2: +0.5, +1.0


def test_ladder_plays_a_variant_given_by_import_path(tmp_path: Path) -> None:
    (tmp_path / "variant.py").write_text(
        "from shengji.bots.heuristic import HeuristicBot\n\n"
        "def bot(seed):\n    return HeuristicBot(seed)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ladder.py"), "--out", str(out),
         "--rungs", "variant:bot", "--pairs", "2"],
        check=True, capture_output=True, text=True, cwd=ROOT, env=env,
    )
    pairs = [json.loads(line) for line in (out / "variant-bot.jsonl").read_text().splitlines()]
    assert [p["i"] for p in pairs] == [0, 1]
    assert all(p["signed_levels"] == 0 for p in pairs)  # the heuristic against itself, mirrored
