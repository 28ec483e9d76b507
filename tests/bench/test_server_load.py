"""``bench/server_load.py`` at a tiny size, so it never rots: it starts a server process and
a client process, plays two tables for a few seconds at each pace and writes strict JSON and
an SVG. No figure is checked (speed is the bench's business, not a test's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_server_load_runs_and_writes_json(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    cmd = [sys.executable, str(ROOT / "bench" / "server_load.py"), "--tables", "2",
           "--seconds", "2", "--warm", "1", "--human", "--human-start", "2",
           "--human-max", "2", "--human-seconds", "2", "--human-warm", "1", "--ramp", "1",
           "--out", str(tmp_path), "--name", "tiny"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "tiny.json").read_text(), parse_constant=_refuse)
    (point,) = result["bench"]
    assert point["tables"] == 2 and point["pace"] == "bench"
    assert point["connected"] == 10  # four seats and a spectator per table
    assert point["actions"] > 0  # the server dealt and played
    for key in ("p50_ms", "p99_ms", "server_cpu_us_per_action", "rss_per_table_kib"):
        assert key in point
    human = result["human"]["this"]["points"]
    assert [p["tables"] for p in human] == [2] and human[0]["pace"] == "human"
    assert (tmp_path / "tiny.svg").read_text().startswith("<svg")


def _refuse(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def test_the_cluster_bench_still_starts() -> None:
    """``bench/cluster_load.py`` needs PostgreSQL and Redis to run; here it must at least
    import what it uses from the other benches (it once broke when they were rewritten)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    cmd = [sys.executable, str(ROOT / "bench" / "cluster_load.py"), "--help"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--ladder" in done.stdout, done.stderr
