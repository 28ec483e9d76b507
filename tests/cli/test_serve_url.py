"""``shengji serve`` says which URL to open once the port is bound and the server is ready."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from shengji.cli.serve import browser_url
from shengji.server.table.compiled import build_note


def test_serve_prints_the_url_once_it_listens(tmp_path: Path) -> None:
    """Port 0: the URL names the port actually taken, and it answers at once."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--port", "0", "--data-dir", str(tmp_path),
         "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.fullmatch(r"open (http://127\.0\.0\.1:(\d+)/) in a browser\n", line)
        assert m is not None and int(m.group(2)) > 0, line
        assert httpx.get(m.group(1) + "healthz", timeout=5).json()["ok"] is True
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_browser_url_for_wildcard_hosts() -> None:
    assert browser_url("0.0.0.0", 8765) == "http://127.0.0.1:8765/"
    assert browser_url("example.org", 80) == "http://example.org:80/"


def test_environment_port_is_checked_like_the_flag(tmp_path: Path) -> None:
    env = dict(os.environ, SHENGJI_PORT="eighty")
    done = subprocess.run(
        [sys.executable, "-m", "shengji", "serve", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "SHENGJI_PORT" in done.stderr


def test_serve_on_every_interface_prints_the_lan_address(tmp_path: Path) -> None:
    """``--host 0.0.0.0``: after the local URL, the address players on the network open."""
    from shengji.server.http.lan import lan_addresses

    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--host", "0.0.0.0", "--port", "0",
         "--data-dir", str(tmp_path), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        m = re.fullmatch(r"open http://127\.0\.0\.1:(\d+)/ in a browser\n", first)
        assert m is not None, first
        port = m.group(1)
        for address in lan_addresses():
            line = proc.stdout.readline()
            assert line == f"players on your network open http://{address}:{port}/\n"
            assert httpx.get(f"http://{address}:{port}/healthz", timeout=5).json()["ok"]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err


def test_a_loopback_server_says_how_to_open_it_to_the_network(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--port", "0", "--data-dir", str(tmp_path),
         "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        assert "--host 0.0.0.0" in proc.stdout.readline()
        # then whether the bots are compiled, and how to compile them
        assert proc.stdout.readline() == build_note() + "\n"
        assert "make build" in build_note(False) and "compiled" in build_note(True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)

