"""``shengji serve`` start-up checks: every failure is one line saying what and how to fix it.

Checked in order, before anything listens: the flag values (``Settings``), the data dir (a
folder we may write), the data dir's lock (one server per data dir), the database file (a
readable SQLite database), then the port (bound here, so the URL is printed only once it
is ours). Whatever still fails while the database is opened and the rooms restored is
explained by ``explain``; a database on an older schema says which ``shengji db upgrade``
to run. ``shengji serve`` prints ``shengji serve: <line>`` and exits 1
(2 for a bad flag); ``--log-level debug`` adds the traceback.

>>> flag_name("deal_pacing_s"), flag_name("bot_budget_s")
('--deal-pacing (or SHENGJI_DEAL_PACING_S)', 'SHENGJI_BOT_BUDGET_S')
"""

from __future__ import annotations

import errno
import os
import shlex
import socket
import sqlite3
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from shengji.server.settings import Settings

FLAGS = {
    "host": "--host",
    "port": "--port",
    "data_dir": "--data-dir",
    "database_url": "--database-url",
    "redis_url": "--redis-url",
    "deal_pacing_s": "--deal-pacing",
    "bot_delay_s": "--bot-delay",
    "seat_grace_s": "--seat-grace",
    "log_level": "--log-level",
    "log_format": "--log-format",
}
"""The settings ``shengji serve`` has a flag for (the others: ``SHENGJI_*`` only)."""


class StartupError(Exception):
    """A start-up failure: ``str(e)`` is the one line to print; ``code`` the exit status."""

    def __init__(self, line: str, code: int = 1) -> None:
        super().__init__(line)
        self.line = line
        self.code = code


def flag_name(field: str) -> str:
    """How a setting is given: its flag and variable, or the variable alone."""
    env = f"SHENGJI_{field.upper()}"
    return f"{FLAGS[field]} (or {env})" if field in FLAGS else env


def load_settings(overrides: dict[str, Any]) -> Settings:
    """``Settings`` from flags (over ``SHENGJI_*`` variables); a bad value is a
    ``StartupError`` naming the flag and the variable."""
    try:
        settings = Settings(**overrides)
    except ValidationError as e:
        first = e.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "?"
        value = "…" if "secret" in field else str(first.get("input"))[:60]  # never echoed
        why = str(first["msg"]).rstrip(".")
        raise StartupError(f"bad value {value!r} for {flag_name(field)}: {why}", 2) from e
    if settings.redis_url and settings.bus_secret is None:
        raise StartupError(
            "--redis-url needs SHENGJI_BUS_SECRET: the secret every process sharing Redis "
            "seals its messages with (openssl rand -hex 32; docs/deploy.md)", 2)
    from shengji.server.table.validate import server_bot

    try:
        server_bot(settings.substitute_bot, settings.bot_budget_s)
    except ValueError as e:
        raise StartupError(f"bad SHENGJI_SUBSTITUTE_BOT: {e}", 2) from e
    return settings


def sqlite_file(settings: Settings) -> Path | None:
    """The SQLite database file the server will use; None for another database."""
    from shengji.server.store.datadir_lock import lock_path

    lock = lock_path(settings.resolved_database_url())
    return None if lock is None else lock.with_name(lock.name.removesuffix(".lock"))


def check_data_dir(folder: Path) -> None:
    """The data dir exists (created if missing) and is a folder."""
    if folder.exists() and not folder.is_dir():
        raise StartupError(
            f"the data dir {folder} is a file, not a folder: pass --data-dir a folder "
            "(or move the file away)"
        )
    for parent in folder.parents:
        if parent.exists() and not parent.is_dir():
            raise StartupError(
                f"the data dir {folder} is under {parent}, which is a file: "
                "pass --data-dir a folder path"
            )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StartupError(
            f"cannot create the data dir {folder}: {_why(e)}: pass --data-dir a folder "
            "you may write"
        ) from e


def take_lock(settings: Settings, folder: Path) -> Any:
    """The data dir's lock (``DataDirLock``), taken for this process."""
    from shengji.server.store.datadir_lock import DataDirInUse, DataDirLock

    try:
        return DataDirLock.acquire(settings.resolved_database_url())
    except DataDirInUse as e:
        raise StartupError(str(e)) from e
    except OSError as e:
        raise StartupError(
            f"the data dir {folder} is not writable ({_why(e)}): give the server a folder "
            "it may write (--data-dir), or fix its permissions"
        ) from e


def check_database(db: Path) -> None:
    """The database file, if it exists, is a file SQLite can read and write."""
    if not db.exists():
        if not os.access(db.parent, os.W_OK):
            raise StartupError(
                f"the data dir {db.parent} is not writable: give the server a folder it may "
                "write (--data-dir), or fix its permissions"
            )
        return
    if db.is_dir():
        raise StartupError(
            f"the database {db} is a folder, not a file: move it away, or pass another "
            "--data-dir"
        )
    try:
        with db.open("rb"):
            pass
    except OSError as e:
        raise StartupError(
            f"cannot read the database {db} ({_why(e)}): fix its permissions"
        ) from e
    try:
        conn = sqlite3.connect(f"file:{db}?mode=rw", uri=True, timeout=5)
        try:
            conn.execute("PRAGMA schema_version").fetchone()
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise StartupError(
            f"the database {db} cannot be used ({e}): restore it from a backup, or move "
            "it away to start with an empty one"
        ) from e


def bind_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (uvicorn accepts on it): a browser that
    connects as soon as the URL is printed waits in the backlog instead of being refused."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise StartupError(f"cannot listen on host {host!r} ({e.strerror}): check --host") from e
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(addr)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise StartupError(
                f"port {port} on {host} is in use (another server?): stop it, or pass "
                "another --port"
            ) from e
        if e.errno == errno.EACCES:
            raise StartupError(
                f"not allowed to listen on port {port}: pass a --port above 1023"
            ) from e
        if e.errno == errno.EADDRNOTAVAIL:
            raise StartupError(
                f"{host} is not an address of this machine: pass another --host"
            ) from e
        raise StartupError(f"cannot listen on {host}:{port} ({_why(e)})") from e
    sock.set_inheritable(True)
    return sock


def explain(exc: BaseException, settings: Settings) -> str:
    """One line for a failure while the database is opened and the rooms restored."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from shengji.server.store.schema import SchemaError

    if isinstance(exc, StartupError):
        return exc.line
    url = make_url(settings.resolved_database_url()).render_as_string(hide_password=True)
    if isinstance(exc, SchemaError):
        return schema_line(exc, settings)
    if isinstance(exc, SQLAlchemyError):
        orig = getattr(exc, "orig", None) or exc
        text = str(orig).splitlines()[0][:200]
        return (
            f"the database {url} cannot be used ({text}): check --database-url / "
            "--data-dir, or restore the database from a backup"
        )
    if isinstance(exc, ModuleNotFoundError):
        extra = " (pip install 'shengji[postgres]')" if exc.name == "asyncpg" else ""
        return f"the database {url} needs the Python package {exc.name!r}{extra}"
    if isinstance(exc, OSError):
        return f"could not start: {_why(exc)} (database {url})"
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return (
        f"could not start: {type(exc).__name__}: {text} "
        "(run with --log-level debug for the traceback)"
    )


def upgrade_command(settings: Settings) -> str:
    """The ``shengji db upgrade`` command for the database these settings name (a
    password shown as ``***``).

    >>> upgrade_command(Settings(data_dir="./my data"))
    "shengji db upgrade --data-dir './my data'"
    """
    from sqlalchemy.engine import make_url

    if settings.database_url:
        url = make_url(settings.database_url).render_as_string(hide_password=True)
        return f"shengji db upgrade --database-url {shlex.quote(url)}"
    return f"shengji db upgrade --data-dir {shlex.quote(settings.data_dir)}"


def schema_line(exc: Exception, settings: Settings) -> str:
    """One line for a database whose schema is not this shengji's (server/store/schema.py)."""
    from sqlalchemy.engine import make_url

    url = make_url(settings.resolved_database_url()).render_as_string(hide_password=True)
    line = f"the database {url} {exc}"
    if getattr(exc, "fix", "") == "upgrade":
        line += f": run `{upgrade_command(settings)}`, then start again"
    return line


def _why(e: OSError) -> str:
    """An OS error in words: ``Permission denied``, ``Read-only file system``."""
    return e.strerror or str(e)
