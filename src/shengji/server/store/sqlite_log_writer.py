"""The group commit's SQLite path: one dedicated thread with its own ``sqlite3`` connection
writes a whole group (``BEGIN IMMEDIATE``, the log rows with one ``executemany``, the
rooms' states with another, ``COMMIT``) and the event loop hears back once.

The general path (server/store/group_commit.py, SQLAlchemy Core over aiosqlite) hands every
statement, cursor and the commit to aiosqlite's thread and back: six or more thread
hand-offs per commit. On one core each costs two context switches and a wake-up of the
loop, which made the database writer a third of the server's busy time at human pace
(bench/results/sqlite_writer.*). Here a commit is one hand-off, and the statements run in
C: ``sqlite3`` takes the rows as they are (dicts, named parameters).

Used for SQLite files only, and only for unfenced rooms (on SQLite the server keeps no
leases: server/store/lease_keeper.py); a group with a fenced room takes the general path. The
connection has the same settings as the store's (WAL, ``synchronous=NORMAL``, foreign
keys on). Errors come back as SQLAlchemy's (``OperationalError`` for a locked or full
database, ``IntegrityError`` for a refused row), as from the general path, so the writer's
fault handling (server/store/write_faults.py) does not care which path failed.

``checks`` run in the writer thread with each statement before it executes: a check that
raises fails the statement as the database would (fault drills, server/store/fault_drill.py,
and the tests' ``WriteFault``).

>>> sql_insert_log("room_log", ["room_id", "pos"])
'INSERT INTO room_log (room_id, pos, epoch) VALUES (:room_id, :pos, NULL)'
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import exc as sa_exc

Check = Callable[[str], None]
"""Called with a statement before it runs (in the writer thread); raising fails it."""


def sql_insert_log(table: str, columns: Sequence[str]) -> str:
    """The log insert with named parameters; ``epoch`` is NULL (an unfenced room)."""
    names = ", ".join([*columns, "epoch"])
    values = ", ".join([*(f":{c}" for c in columns), "NULL"])
    return f"INSERT INTO {table} ({names}) VALUES ({values})"


LOG_COLUMNS = ("room_id", "pos", "seq", "match_no", "kind", "data", "at")
INSERT_LOG = sql_insert_log("room_log", LOG_COLUMNS)
SET_STATE = "UPDATE rooms SET state = ? WHERE id = ?"


def sqlite_pragmas(dbapi_conn: Any, _record: Any = None) -> None:
    """The settings of every connection to the store's SQLite file (the engine's ``connect``
    event and this writer's own): WAL, ``synchronous=NORMAL``, foreign keys on."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class SqliteLogWriter:
    """``await writer.commit(rows, states)``: one transaction in the writer thread.
    ``close()`` closes the connection and stops the thread."""

    def __init__(self, path: str, busy_timeout_s: float = 5.0) -> None:
        self.path = path
        self.busy_timeout_s = busy_timeout_s
        self.checks: list[Check] = []
        self._conn: sqlite3.Connection | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-log-writer")

    async def commit(
        self, rows: list[dict[str, Any]], states: list[tuple[str, int]]
    ) -> None:
        """Insert ``rows`` (``room_log`` columns as keys, no ``epoch``) and set each
        ``(state, room id)`` of ``states`` in one transaction; raises SQLAlchemy's error
        if it failed (nothing of it was written)."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, self._commit, rows, states)

    async def close(self) -> None:
        """Close the connection (in its thread) and stop the thread."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, self._close)
        self._pool.shutdown(wait=False)

    # -------------------------------------------------------- in the writer thread

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        sqlite_pragmas(conn)
        return conn

    def _run(self, conn: sqlite3.Connection, sql: str, params: Any) -> None:
        for check in self.checks:
            check(sql)
        conn.executemany(sql, params)

    def _commit(self, rows: list[dict[str, Any]], states: list[tuple[str, int]]) -> None:
        statement = "BEGIN IMMEDIATE"
        try:
            conn = self._conn = self._conn or self._connect()
            conn.execute(statement)
            try:
                statement = INSERT_LOG
                if rows:
                    self._run(conn, statement, rows)
                statement = SET_STATE
                if states:
                    self._run(conn, statement, states)
                statement = "COMMIT"
                conn.execute(statement)
            except BaseException:
                self._rollback(conn)
                raise
        except sqlite3.Error as e:
            raise sa_exc.DBAPIError.instance(
                statement, None, e, sqlite3.Error, connection_invalidated=False
            ) from e

    def _rollback(self, conn: sqlite3.Connection) -> None:
        try:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        except sqlite3.Error:  # the connection is unusable: the next commit opens another
            conn.close()
            self._conn = None

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
