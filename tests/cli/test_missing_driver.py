"""Every command that opens the server's database says in one line, naming the extra to
install, when the database's driver is missing (here asyncpg, hidden from the child)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = "postgresql+asyncpg://shengji:s3cret@127.0.0.1:9/shengji"


@pytest.mark.parametrize(
    "command",
    [
        ["db", "upgrade", "--database-url", URL],
        ["db", "current", "--database-url", URL],
        ["rooms", "quarantined", "--database-url", URL],
        ["rooms", "release", "ABCD", "--database-url", URL],
        ["serve", "--database-url", URL, "--port", "0"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_missing_driver_is_one_line(tmp_path: Path, command: list[str]) -> None:
    blocker = tmp_path / "asyncpg"
    blocker.mkdir()
    (blocker / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'asyncpg'\", name='asyncpg')\n"
    )
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")])}
    run = subprocess.run(
        [sys.executable, "-m", "shengji", *command, "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr and "s3cret" not in run.stderr
    assert "needs the Python package 'asyncpg'" in lines[0]
    assert "pip install 'shengji[postgres]'" in lines[0]
