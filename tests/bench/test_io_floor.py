"""``bench/io_floor.py`` at a tiny size, so it never rots: two tables for two seconds, with
and without the commit, on each WebSocket layer, and its JSON. No figure is checked (speed is
the bench's business)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_io_floor_runs_and_writes_json(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    cmd = [sys.executable, str(ROOT / "bench" / "io_floor.py"), "--tables", "2",
           "--seconds", "2", "--warm", "0.5", "--out", str(tmp_path), "--name", "tiny"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    points = json.loads((tmp_path / "tiny.json").read_text())["points"]
    got = [(p["commit"], p["keepalive"], p["layer"]) for p in points]
    assert got == [(commit, "silent", layer) for commit in (False, True)  # layers alternate
                   for layer in ("uvicorn", "picows")]
    for p in points:
        assert p["tables"] == 2 and p["actions_per_s"] > 0 and p["refused_sends"] == 0
        assert p["server_cpu_us_per_action"] > 0
