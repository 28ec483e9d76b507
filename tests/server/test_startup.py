"""Start-up failures of a real ``shengji serve``: one line on stderr saying what and how to
fix it, a non-zero exit, no traceback (unless ``--log-level debug``), no URL printed."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

SERVE = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1"]


def _serve(*args: str, env: dict[str, str] | None = None, prefix: list[str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    cmd = [*SERVE, *args]
    if "--port" not in args:
        cmd += ["--port", "0"]
    return subprocess.run(
        [*(prefix or []), *cmd],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, **(env or {})),
    )


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run failed with one line on stderr holding ``words``; nothing on stdout."""
    assert done.returncode != 0, done.stdout
    assert done.stdout == "", done.stdout  # in particular no "open http://..."
    err = done.stderr
    assert err.startswith("shengji serve: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def test_data_dir_is_a_file(tmp_path: Path) -> None:
    f = tmp_path / "data"
    f.write_text("not a folder")
    _one_line(_serve("--data-dir", str(f)), "is a file, not a folder", "--data-dir")


def test_data_dir_under_a_file(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    _one_line(_serve("--data-dir", str(f / "sub" / "data")), "which is a file", "--data-dir")


def test_database_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "shengji.db").mkdir()
    _one_line(_serve("--data-dir", str(tmp_path)), "is a folder, not a file")


def test_corrupt_database(tmp_path: Path) -> None:
    (tmp_path / "shengji.db").write_bytes(os.urandom(8192))
    _one_line(_serve("--data-dir", str(tmp_path)), "cannot be used", "backup")


def test_corrupt_database_with_debug_shows_the_traceback(tmp_path: Path) -> None:
    (tmp_path / "shengji.db").write_bytes(os.urandom(8192))
    done = _serve("--data-dir", str(tmp_path), "--log-level", "debug")
    assert done.returncode != 0 and "Traceback" in done.stderr
    assert done.stderr.splitlines()[-1].startswith("shengji serve: the database")


def test_a_database_of_another_shape(tmp_path: Path) -> None:
    """A SQLite file whose ``rooms`` table is not ours: found while the rooms are loaded."""
    with sqlite3.connect(tmp_path / "shengji.db") as conn:
        conn.execute("CREATE TABLE rooms (x INTEGER)")
    _one_line(_serve("--data-dir", str(tmp_path)), "cannot be used")


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        _one_line(_serve("--data-dir", str(tmp_path), "--port", port), "is in use", "--port")


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["--port", "abc"], {}, ["--port", "SHENGJI_PORT"]),
        (["--port", "70000"], {}, ["--port", "65535"]),
        (["--deal-pacing", "-1"], {}, ["--deal-pacing"]),
        (["--seat-grace", "soon"], {}, ["--seat-grace"]),
        (["--log-level", "loud"], {}, ["--log-level"]),
        ([], {"SHENGJI_BOT_BUDGET_S": "0"}, ["SHENGJI_BOT_BUDGET_S"]),
        ([], {"SHENGJI_SUBSTITUTE_BOT": "search:inf"}, ["SHENGJI_SUBSTITUTE_BOT"]),
        (["--host", "no-such-host.invalid"], {}, ["--host"]),
        (["--data_dir", "x"], {}, ["unrecognized arguments: --data_dir x", "serve --help"]),
        (["--port"], {}, ["argument --port: expected one argument", "serve --help"]),
    ],
)
def test_bad_flag_values(
    tmp_path: Path, args: list[str], env: dict[str, str], words: list[str]
) -> None:
    _one_line(_serve("--data-dir", str(tmp_path), *args, env=env), *words)
    assert not (tmp_path / "shengji.db").exists()  # nothing was opened


def _read_only(folder: Path) -> Callable[[list[str]], list[str]] | None:
    """A way to run a command with ``folder`` read-only: permissions for a normal user, a
    read-only bind mount in a private mount namespace for root; None if neither works."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return lambda cmd: cmd
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", f"mount --bind {folder} {folder} && "
         f"mount -o remount,bind,ro {folder} && ! touch {folder}/probe 2>/dev/null"],
        capture_output=True,
    )
    if probe.returncode != 0:
        return None
    script = f'mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && exec "$@"'
    return lambda cmd: [unshare, "-m", "sh", "-c", script, "sh", *cmd]


@pytest.mark.parametrize("with_database", [False, True])
def test_read_only_data_dir(tmp_path: Path, with_database: bool) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    if with_database:
        sqlite3.connect(folder / "shengji.db").close()
    wrap = _read_only(folder)
    if wrap is None:
        pytest.skip("cannot make a read-only folder here")
    done = subprocess.run(
        wrap([*SERVE, "--port", "0", "--data-dir", str(folder)]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    folder.chmod(0o755)
    _one_line(done, "not writable", "--data-dir")


def test_unreadable_database(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    db = tmp_path / "shengji.db"
    sqlite3.connect(db).close()
    db.chmod(0)
    _one_line(_serve("--data-dir", str(tmp_path)), "cannot read the database")


def test_unreadable_database_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same check in-process, for runs as root (who reads any file)."""
    from shengji.cli.startup_errors import StartupError, check_database

    db = tmp_path / "shengji.db"
    sqlite3.connect(db).close()

    def refuse(self: Path, *args: object, **kw: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(StartupError, match=r"cannot read the database .*Permission denied"):
        check_database(db)


def test_cluster_mode_without_the_bus_secret_refuses_to_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SHENGJI_BUS_SECRET"}
    done = subprocess.run(
        [*SERVE, "--port", "0", "--data-dir", str(tmp_path), "--redis-url",
         "redis://127.0.0.1:6379/0"],
        capture_output=True, text=True, timeout=60, env=env,
    )
    _one_line(done, "--redis-url needs SHENGJI_BUS_SECRET")


def test_a_short_bus_secret_is_refused_without_being_echoed(tmp_path: Path) -> None:
    env = {"SHENGJI_BUS_SECRET": "hunter2"}
    err = _one_line(_serve("--data-dir", str(tmp_path), "--redis-url",
                           "redis://127.0.0.1:6379/0", env=env), "SHENGJI_BUS_SECRET")
    assert "hunter2" not in err
