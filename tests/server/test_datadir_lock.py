"""One server per data directory: a second ``shengji serve`` on it exits at once with one
line; the lock goes with the first server, however it ends."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from shengji.server.store.datadir_lock import DataDirInUse, DataDirLock, lock_path
from tests.server.helpers import new_player, new_room


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = dict(os.environ, SHENGJI_DEAL_PACING_S="0", SHENGJI_BOT_DELAY_S="0",
               SHENGJI_DEAL_END_PAUSE_S="0")
    return subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_up(proc: subprocess.Popen[str], port: int) -> str:
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return base
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"server did not start: {proc.communicate()[1]}")


def _refused(data_dir: Path, holder: int) -> None:
    port = _free_port()
    start = time.monotonic()
    second = _start(data_dir, port)
    out, err = second.communicate(timeout=30)
    assert time.monotonic() - start < 15  # at once: it does not wait for the lock
    assert second.returncode != 0 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "in use by another shengji server" in err and f"pid {holder}" in err, err
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_second_server_on_the_same_data_dir_is_refused(tmp_path: Path, how: int) -> None:
    port = _free_port()
    first = _start(tmp_path, port)
    try:
        base = _wait_up(first, port)
        p = new_player(base, "ann")  # a busy table: bots play on and on
        new_room(base, p["token"], bots={i: "random" for i in range(4)})
        _refused(tmp_path, first.pid)
        assert httpx.get(f"{base}/healthz", timeout=2).json()["ok"] is True  # untouched
        start = time.monotonic()
        first.send_signal(how)
        first.communicate(timeout=30)
        assert time.monotonic() - start < 10  # SIGTERM stops a busy server promptly
        if how == signal.SIGTERM:
            assert first.returncode == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    port = _free_port()
    again = _start(tmp_path, port)  # the lock went with the first server
    try:
        base = _wait_up(again, port)
        assert httpx.get(f"{base}/healthz").json()["rooms"] == 1
    finally:
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=30)


def test_the_lock_in_one_process(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shengji.db'}"
    first = DataDirLock.acquire(url)
    assert first is not None and first.held
    assert (tmp_path / "shengji.db.lock").read_text().strip() == str(os.getpid())
    with pytest.raises(DataDirInUse):
        DataDirLock.acquire(url)  # a second open file: refused, even in this process
    first.release()
    assert not first.held
    second = DataDirLock.acquire(url)
    assert second is not None
    second.release()


def test_only_sqlite_files_are_locked() -> None:
    assert lock_path("sqlite+aiosqlite:///:memory:") is None
    assert lock_path("postgresql+asyncpg://u:p@db/shengji") is None
    assert lock_path("sqlite+aiosqlite:////srv/x/a.db") == Path("/srv/x/a.db.lock")
