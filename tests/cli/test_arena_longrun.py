"""Long arena runs: a progress bar, Ctrl-C that keeps what finished, --out that resumes to the
same report as one uninterrupted run."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.cli.main import main
from shengji.cli.progress import fit

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
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])},
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


@pytest.mark.parametrize("command", ["arena", "ladder"])
def test_sigterm_stops_like_ctrl_c_and_leaves_no_worker(tmp_path: Path, command: str) -> None:
    """What ``timeout``, SLURM and Kubernetes send: finished work is written, the report
    printed, exit 130, and the worker processes are gone, not orphaned."""
    out_file = tmp_path / "results.json"
    if command == "arena":
        args = ["arena", "--duplicate", "--preset", "one-deck", "--deals", "400", "--json",
                "--no-progress", "--bots", f"{SLOW},random", "--out", str(out_file)]
    else:
        args = ["ladder", "--preset", "one-deck", "--deals", "60", "--no-progress",
                "--bots", f"{SLOW},random,heuristic", "--out-dir", str(tmp_path)]
        out_file = tmp_path / "ladder.json"
    proc = shengji(*args, "--jobs", "2")
    deadline = time.monotonic() + 60
    while not out_file.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert len(workers) >= 2
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "run the same command again" in err
    assert not json.loads(out_file.read_text())["complete"]
    if command == "arena":
        assert json.loads(out)["pairs"] == json.loads(out_file.read_text())["finished"] > 0
    for w in workers:
        assert not w.is_running() or w.status() == psutil.STATUS_ZOMBIE, w


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


@given(
    width=st.integers(30, 200), done=st.integers(0, 10**4), total=st.integers(1, 10**4),
    interval=st.sampled_from(["", "A: +0.123 levels/deal [+0.100, +0.200]", "random vs lowest",
                              "team 0 − team 1 levels/deal -1.25 [-2.50, +0.01]"]),
)
def test_the_progress_line_fits_its_width_and_keeps_the_counts(
    width: int, done: int, total: int, interval: str
) -> None:
    head, bar, tail = fit(width, "deal pairs", done, total, "312.5 deals/s", "1:02:04 left",
                          interval)
    assert f"{done}/{total}" in head
    assert len(head) + (bar + 1 if bar else 0) + (len(tail) + 1 if tail else 0) <= width - 1
    if width >= 80 and interval:
        assert "[" not in interval or "[" in tail  # the interval stays at 80 columns


def test_the_progress_bar_in_an_80_column_terminal() -> None:
    """What a terminal of 80 columns shows: every line within 80 columns, counts and the
    interval on it."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
           "COLUMNS": "80", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "arena", "--duplicate", "--bots", "random,random",
         "--preset", "one-deck", "--deals", "30", "--progress"],
        stdout=subprocess.DEVNULL, stderr=follower, env=env, cwd=ROOT,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode("utf-8", "replace"))
    lines = [line for line in re.split(r"[\r\n]+", text) if line.strip()]
    assert lines and all(len(line) <= 80 for line in lines), lines
    assert "30/30" in lines[-1] and "deals/s" in lines[-1] and "[" in lines[-1], lines[-1]
