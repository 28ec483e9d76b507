"""Long arena runs: a progress bar, Ctrl-C that keeps what finished, --out that resumes to the
same report as one uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from shengji.cli.main import main

SLOW = "tests.bots.plugin_examples:SlowRandomBot"  # random's moves, 1 ms each
ROOT = Path(__file__).resolve().parents[2]
TIMING = {"seconds", "decision_ms", "deals_per_second", "decisions_per_second", "interrupted",
          "bot_a", "bot_b", "bots", "teams", "records", "decisions"}


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """A report without what depends on time or bot names."""
    return {k: v for k, v in data.items() if k not in TIMING}


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def shengji(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "shengji", *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        # Ctrl-C as in a terminal, even when this run was started in the background (a
        # shell without job control starts it with SIGINT ignored, and Python then never
        # raises KeyboardInterrupt)
        preexec_fn=_default_sigint,
    )


def interrupt_after(
    proc: subprocess.Popen[str], out_file: Path, seconds: float
) -> tuple[str, str]:
    """Ctrl-C ``seconds`` after the run wrote its first finished unit to ``out_file``."""
    deadline = time.monotonic() + 60
    while not out_file.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return out, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_duplicate_interrupted_then_resumed_equals_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out_file = tmp_path / "results.json"
    common = ["arena", "--duplicate", "--preset", "one-deck", "--deals", "100", "--seed", "9",
              "--json", "--no-progress"]
    proc = shengji(*common, "--bots", f"{SLOW},random", "--out", str(out_file), "--jobs", jobs)
    out, err = interrupt_after(proc, out_file, 1.0)
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "run the same command again" in err
    partial = json.loads(out)
    stored = json.loads(out_file.read_text())
    assert not stored["complete"] and 0 < stored["finished"] < 100
    assert partial["pairs"] == stored["finished"]
    # resume (in-process, one job, no pause): only the missing pairs are played
    monkeypatch.setenv("SLOW_BOT_MS", "0")
    assert main([*common, "--bots", f"{SLOW},random", "--out", str(out_file)]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert json.loads(out_file.read_text())["complete"]
    # one uninterrupted run with the same moves (random = slow-random without the sleep)
    assert main([*common, "--bots", "random,random"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert resumed["pairs"] == 100
    assert figures(resumed) == figures(whole)


def test_arena_interrupted_then_resumed_equals_one_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out_file = tmp_path / "arena.json"
    common = ["arena", "--preset", "one-deck", "--matches", "40", "--deals", "3", "--seed",
              "4", "--json", "--no-progress"]
    slow = ",".join([SLOW] * 4)
    proc = shengji(*common, "--bots", slow, "--out", str(out_file))
    out, err = interrupt_after(proc, out_file, 1.0)
    assert proc.returncode == 130, err
    partial = json.loads(out)
    assert partial["interrupted"] and 0 < partial["matches"]["played"] < 40
    monkeypatch.setenv("SLOW_BOT_MS", "0")
    assert main([*common, "--bots", slow, "--out", str(out_file)]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main([*common, "--bots", "random,random,random,random"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert resumed["matches"]["played"] == 40
    assert figures(resumed) == figures(whole)


def test_out_file_of_another_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "r.json"
    args = ["arena", "--duplicate", "--bots", "random,random", "--preset", "one-deck",
            "--out", str(out_file), "--no-progress"]
    assert main([*args, "--seed", "1", "--deals", "2"]) == 0
    capsys.readouterr()
    assert main([*args, "--seed", "2", "--deals", "2"]) == 2
    assert "holds another run (seed 1, not 2)" in capsys.readouterr().err
    assert main([*args, "--seed", "1", "--deals", "3"]) == 2
    assert "holds another run (deals 2, not 3)" in capsys.readouterr().err
    assert main(["arena", "--bots", "random,random,random,random", "--deals", "2",
                 "--out", str(out_file)]) == 2
    assert "is not an arena results file" in capsys.readouterr().err


def test_progress_bar_shows_rate_and_interval(tmp_path: Path) -> None:
    proc = shengji("arena", "--duplicate", "--bots", "random,random", "--preset", "one-deck",
                   "--deals", "30", "--progress")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "deal pairs" in err and "30/30" in err and "deals/s" in err
    assert "levels/deal [" in err
    assert "duplicate: preset one-deck" in out


def test_ray_executor_without_ray_says_how_to_get_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    assert main(["arena", "--duplicate", "--bots", "random,random", "--deals", "2",
                 "--executor", "ray", "--no-progress"]) == 2
    assert "pip install 'shengji[distributed]'" in capsys.readouterr().err
    assert main(["arena", "--bots", "random,random,random,random", "--deals", "2",
                 "--executor", "ray"]) == 2
    assert "use it with --duplicate" in capsys.readouterr().err
