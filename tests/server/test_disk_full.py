"""A real full disk (issue 11, item 3): ``shengji serve`` with its data dir on a 6 MB tmpfs,
filled while bots play. The report: the table stopped, 1,900 tracebacks flooded the log,
``/healthz`` still said ok, new sign-ups got a bare 500, and after space was freed the table
did not move again until a restart. Now the table pauses (``paused``), ``/healthz`` is 503
with the reason, a sign-up gets a 503 JSON error, the log has one line per episode (and per
room), and once space is freed the table goes on by itself.

The tmpfs is mounted in a private mount namespace (``unshare -m``), so the test runs only as
root where mounts are allowed (skipped elsewhere); it fills and frees the disk through
``/proc/<server pid>/root``, the server's view of the file system. The injected-fault tests
(test_write_faults.py) cover the same mechanism everywhere.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.server.helpers import Client, new_player, new_room

pytestmark = pytest.mark.sqlite_only

BOTS = {str(i): "random" for i in range(4)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _mounted_server(disk: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``shengji serve`` on ``disk`` mounted as a 6 MB tmpfs in a mount namespace of its own;
    skips the test when that cannot be done here."""
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("mounting a tmpfs needs root and unshare")
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", f"mount -t tmpfs -o size=1m tmpfs {disk}"],
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.decode().strip()}")
    env = dict(
        os.environ,
        SHENGJI_DEAL_PACING_S="0",
        SHENGJI_BOT_DELAY_S="0.05",
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_NEXT_DEAL_S="0",
    )
    script = f'mount -t tmpfs -o size=6m tmpfs {disk} && exec "$@"'
    serve = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--data-dir", str(disk / "data"), "--log-level", "info"]
    with log.open("wb") as out:
        return subprocess.Popen(
            [unshare, "-m", "sh", "-c", script, "sh", *serve], stdout=out, stderr=out, env=env
        )


def _fill(path: Path) -> None:
    """Write zeros to ``path`` until the disk is full, to the last block."""
    with path.open("wb", buffering=0) as f:  # unbuffered: nothing left to write at close
        for size in (1 << 16, 512):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                continue


def test_a_full_disk_pauses_the_table_and_freeing_space_resumes_it(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    log = tmp_path / "server.log"
    port = _free_port()
    proc = _mounted_server(disk, port, log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        seen_from_server = Path(f"/proc/{proc.pid}/root") / str(disk).lstrip("/")
        assert (seen_from_server / "data" / "shengji.db").exists()
        ann = new_player(base, "ann")
        c = Client(base, new_room(base, ann["token"], bots=BOTS)["code"], ann["token"])
        c.wait(lambda m: m["t"] == "update" and m["phase"] == "playing", timeout=30)

        filler = seen_from_server / "filler"
        _fill(filler)
        paused = c.wait(lambda m: m["t"] == "paused", timeout=30)
        assert paused["reason"] == "storage"
        health = httpx.get(f"{base}/healthz", timeout=5)
        assert health.status_code == 503 and health.headers["retry-after"]
        assert "disk is full" in health.json()["storage"]["reason"], health.text
        signup = httpx.post(f"{base}/api/players", json={"name": "bob"}, timeout=15)
        assert signup.status_code == 503 and signup.json()["code"] == "storage", signup.text
        time.sleep(3)  # the table retries meanwhile, and fails

        filler.unlink()  # space is freed: nobody restarts anything
        c.wait(lambda m: m["t"] == "resumed", timeout=30)
        c.wait(lambda m: m["t"] == "update", timeout=10)  # the bots play on
        assert httpx.get(f"{base}/healthz", timeout=5).status_code == 200
        assert httpx.post(f"{base}/api/players", json={"name": "bob"}).status_code == 200
        c.close()
    finally:
        proc.terminate()
        proc.wait(30)
    text = log.read_text()
    assert "Traceback" not in text
    assert text.count("writes are failing") == 1 and text.count("a write failed") == 1, text
    assert text.count("succeed again") == 2, text  # the server's line and the room's
