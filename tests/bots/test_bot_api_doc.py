"""docs/bot-api.md: the example bot runs as written, with the commands the doc gives."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "bot-api.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_example_is_about_twenty_lines() -> None:
    code = next(b for b in _blocks("python") if "class LowestBot" in b)
    assert len([line for line in code.splitlines() if line.strip()]) <= 25


@pytest.mark.parametrize("command", [c for b in _blocks("sh") for c in b.splitlines()
                                     if "lowest_bot:LowestBot" in c])
def test_the_example_bot_runs_in_the_arena(tmp_path: Path, command: str) -> None:
    code = next(b for b in _blocks("python") if "class LowestBot" in b)
    (tmp_path / "lowest_bot.py").write_text(code, encoding="utf-8")
    args = command.split()
    assert args[0] == "shengji"
    args = [a if a != "100" and a != "10" else "4" for a in args[1:]]  # fewer deals here
    run = subprocess.run(
        [sys.executable, "-m", "shengji", *args, "--json", "--no-progress"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["deals"] == (8 if "--duplicate" in args else 4)
