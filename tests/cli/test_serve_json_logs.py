"""``shengji serve --log-format json``: every line on stdout is one JSON object (the
listening announcement, the server's records, each HTTP request), nothing on stderr; a
start-up failure is one JSON line too. ``shengji --version`` names the package version."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from shengji import __version__

SERVE = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", "0"]


@pytest.mark.parametrize("access_log", [True, False])
def test_json_logs_are_one_object_per_line(tmp_path: Path, access_log: bool) -> None:
    """Each HTTP request is a line only with ``--access-log`` (off by default)."""
    flags = ["--access-log"] if access_log else []
    proc = subprocess.Popen(
        [*SERVE, "--data-dir", str(tmp_path), "--log-format", "json", "--log-level", "info",
         *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first: dict[str, Any] = {}
        for _ in range(50):  # records before the announcement (start-up) are JSON too
            first = json.loads(proc.stdout.readline())
            if "url" in first:
                break
        assert first["logger"] == "shengji.serve" and first["level"] == "info"
        assert first["version"] == __version__
        assert first["ts"].endswith("Z")
        url = first["url"]
        assert httpx.get(url + "healthz", timeout=5).status_code == 200
        assert httpx.get(url + "api/nothing-here", timeout=5).status_code == 404
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert err == ""
    records = [json.loads(line) for line in out.splitlines()]  # every line parses
    assert all({"ts", "level", "logger", "msg"} <= r.keys() for r in records)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    if not access_log:
        assert access == []
        return
    assert {(r["method"], r["path"], r["status"]) for r in access} >= {
        ("GET", "/healthz", 200),
        ("GET", "/api/nothing-here", 404),
    }
    assert all(r["client"].startswith("127.0.0.1:") for r in access)
    assert any(r["logger"].startswith("uvicorn.error") for r in records)  # shutdown lines


def test_a_start_up_failure_is_one_json_line(tmp_path: Path) -> None:
    (tmp_path / "shengji.db").mkdir()  # the database path is a folder
    done = subprocess.run(
        [*SERVE, "--data-dir", str(tmp_path), "--log-format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr == ""
    (line,) = done.stdout.splitlines()
    record = json.loads(line)
    assert record["level"] == "error" and record["exit"] == 1
    assert "is a folder, not a file" in record["msg"]


def test_a_bad_log_format_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*SERVE, "--data-dir", str(tmp_path), "--log-format", "yaml"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "--log-format" in done.stderr


def test_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "shengji", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == f"shengji {__version__}\n"
