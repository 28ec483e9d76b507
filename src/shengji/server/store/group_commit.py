"""The group-commit writer: every room's log rows (and the room's stored state that goes
with them) committed together, with SQLAlchemy Core ``executemany``, off the rooms' tasks.

A room hands a ``LogBatch`` to ``GroupCommit.submit`` and goes on: nothing on the event loop
waits for the database. A writer task takes whatever is queued from every room (up to
``MAX_ROWS`` rows), inserts the rows with one ``INSERT ... executemany`` (``insert_log_rows``,
the one place log rows are written), updates the rooms' states with one ``UPDATE ...
executemany`` and commits once; then it calls each batch's ``done`` (None: durable; else the
exception). The room's table holds every message behind that write until ``done`` says it
is durable (persist-before-send, server/table/outbox.py).

SQLite takes one writer at a time, so it gets one lane; on a SQLite file, a group whose
rooms are unfenced (all of them: the server keeps no leases on SQLite) is written by the
file's own writer thread in one hand-off (server/store/sqlite_log_writer.py), the statements as
here. A server database (PostgreSQL)
gets ``LANES`` writer tasks, each with its own connection: a slow commit delays only the
rooms in its own group, the next group is already being written. A room has at most one
write out at a time, so two lanes never hold rows of the same room.

Every group passes THE fenced check first (``insert_log_rows``, server/store/lease_store.py):
a room whose lease another process claimed (a newer epoch) has its rows and state left
out and hears ``LeaseLost``; the rest of the group is committed. Each row carries the
lease epoch it was written under.

A group that fails with a storage fault (server/store/write_faults.py) fails for every room in
it (each retries with its own backoff); any other error (a refused row) is retried one room
at a time, so only the room whose rows were refused hears of it.

>>> rows = log_rows(7, [(3, 1, 0, "room", "{}")], at=1.5)
>>> rows[0]["room_id"], rows[0]["pos"], rows[0]["seq"], rows[0]["at"]
(7, 3, 1, 1.5)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from shengji.server import metrics
from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.lease_store import Fences
from shengji.server.store.models import LogRow, RoomRow
from shengji.server.store.sqlite_log_writer import SqliteLogWriter
from shengji.server.store.write_faults import WriteHealth, is_storage_fault
from shengji.server.tasks import cancel_and_wait

log = logging.getLogger("shengji.server.storage")

MAX_ROWS = 2048
"""Rows one commit takes at most (the rest wait for the next)."""
LANES = 4
"""Writer tasks (connections) on a server database; SQLite has one."""

LOG = cast(Table, LogRow.__table__)
ROOMS = cast(Table, RoomRow.__table__)
_SET_STATE = (
    update(ROOMS).where(ROOMS.c.id == bindparam("b_id")).values(state=bindparam("b_state"))
)


Row = tuple[int, int, int, str, str]
"""A log row as a room hands it over: ``(pos, seq, match_no, kind, data)``."""


def log_rows(room_id: int, rows: Sequence[Row], at: float | None = None) -> list[dict[str, Any]]:
    """``(pos, seq, match_no, kind, data)`` tuples as ``room_log`` rows (column -> value)."""
    now = time.time() if at is None else at
    return [
        {"room_id": room_id, "pos": p, "seq": s, "match_no": m, "kind": k, "data": d, "at": now}
        for p, s, m, k, d in rows
    ]


async def insert_log_rows(
    conn: AsyncConnection, rows: list[dict[str, Any]], fences: Fences | None = None
) -> set[int]:
    """Insert ``room_log`` rows (one ``executemany``) in the open transaction of ``conn``:
    the one place the log is written. THE fenced check comes first (``Fences.refused``,
    which locks the rooms' lease rows to the commit): the rows of a room whose lease this
    process no longer holds are left out and its id returned; every row written carries
    the epoch of its room's lease (None: an unfenced room, e.g. on SQLite)."""
    refused = set() if fences is None else await fences.refused(conn, {r["room_id"] for r in rows})
    kept = [r for r in rows if r["room_id"] not in refused]
    for r in kept:
        fence = None if fences is None else fences.fence(r["room_id"])
        r["epoch"] = None if fence is None else fence.epoch
    if kept:
        await conn.execute(LOG.insert(), kept)
    return refused


async def set_room_states(conn: AsyncConnection, states: dict[int, str]) -> None:
    """Rewrite rooms' stored state (room id -> JSON), one ``executemany``."""
    await conn.execute(_SET_STATE, [{"b_id": k, "b_state": v} for k, v in states.items()])


@dataclass(slots=True)
class LogBatch:
    """One room's write: rows to append and, if not None, its new state (JSON); ``done`` is
    called once with None (durable) or the exception that failed it."""

    room_id: int
    rows: list[dict[str, Any]]
    state: str | None
    done: Callable[[BaseException | None], None]


class GroupCommit:
    """The writer: ``start()``, ``submit(batch)`` any number of times, ``close()``."""

    def __init__(
        self,
        engine: AsyncEngine,
        health: WriteHealth,
        lanes: int,
        fences: Fences | None = None,
        direct: SqliteLogWriter | None = None,
    ) -> None:
        self.engine = engine
        self.health = health
        self.lanes = lanes
        self.fences = fences
        """The rooms' lease fences (server/store/lease_store.py); None: nothing is fenced."""
        self.direct = direct
        """A SQLite file's own writer thread (server/store/sqlite_log_writer.py): groups of
        unfenced rooms are committed there, in one hand-off; None: always SQLAlchemy."""
        self.commits = 0
        self.gap_s = 0.0
        """At least this long between the starts of two commits of one lane (the setting
        ``log_commit_gap_s``): while rooms act faster than that, a commit carries several
        actions' rows instead of one, each at most ``gap_s`` later; a lone action after a
        quiet spell is committed at once."""
        self._pending: deque[LogBatch] = deque()
        self._ready = asyncio.Event()
        self._busy = 0
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Start the writer tasks."""
        self._tasks = [
            asyncio.create_task(self._lane(), name=f"store-writer-{i}") for i in range(self.lanes)
        ]

    def submit(self, batch: LogBatch) -> None:
        """Queue a room's write (it is in the next group commit); returns at once. A batch
        has at least one row (its room's fence is checked on its rows)."""
        if not batch.rows:
            raise ValueError("a log batch without rows")
        self._pending.append(batch)
        self._ready.set()

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being written."""
        return not self._pending and self._busy == 0

    async def drain(self, wait_s: float = 10.0) -> bool:
        """Wait until what is queued is written (at most ``wait_s``); True if it was."""
        deadline = asyncio.get_running_loop().time() + wait_s
        while self._tasks and not self.idle and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.005)
        return self.idle

    async def close(self, wait_s: float = 10.0) -> None:
        """Write what is queued (for at most ``wait_s``: a database that hangs does not hold
        up a shutdown), then stop the writer tasks."""
        await self.drain(wait_s)
        await cancel_and_wait(*self._tasks)
        self._tasks = []
        for b in self._pending:  # never written: the rooms are stopping or stopped
            b.done(RuntimeError("the store closed before this write"))
        self._pending.clear()
        if self.direct is not None:
            await self.direct.close()

    def _take(self) -> list[LogBatch]:
        group: list[LogBatch] = []
        rows = 0
        pending = self._pending
        while pending and (not group or rows + len(pending[0].rows) <= MAX_ROWS):
            b = pending.popleft()
            group.append(b)
            rows += len(b.rows)
        return group

    async def _lane(self) -> None:
        conn: AsyncConnection | None = None
        loop = asyncio.get_running_loop()
        started = -float("inf")  # the last commit's start
        try:
            while True:
                if not self._pending:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                wait = started + self.gap_s - loop.time()
                if wait > 0:  # committed a moment ago: let more rows gather
                    await asyncio.sleep(wait)
                started = loop.time()
                group = self._take()
                self._busy += 1
                try:
                    conn = await self._write(conn, group)
                finally:
                    self._busy -= 1
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(conn.close())

    async def _write(
        self, conn: AsyncConnection | None, group: list[LogBatch]
    ) -> AsyncConnection | None:
        """Commit ``group``; returns the connection to keep (None after a failure)."""
        try:
            conn, refused = await self._commit(conn, group)
        except Exception as exc:
            await _drop(conn)
            conn = None
            if is_storage_fault(exc) or len(group) == 1:
                self._failed(group, exc)
                return None
            for one in group:  # a refused row: find whose, the others are written
                try:
                    conn, fenced = await self._commit(conn, [one])
                except Exception as e:
                    await _drop(conn)
                    conn = None
                    self._failed([one], e)
                else:
                    self._written([one], fenced)
            return conn
        self._written(group, refused)
        return conn

    async def _commit(
        self, conn: AsyncConnection | None, group: list[LogBatch]
    ) -> tuple[AsyncConnection | None, set[int]]:
        """Commit ``group`` (directly if it may be, else over ``conn``, opened if None);
        returns the connection and the rooms the fenced check refused."""
        fences = self.fences
        if self.direct is not None and (
            fences is None or all(fences.fence(b.room_id) is None for b in group)
        ):
            refused = {b.room_id for b in group if fences is not None
                       and not fences.holds(b.room_id)}  # lost: refused without asking
            kept = [b for b in group if b.room_id not in refused]
            if kept:
                rows, states = _merge(kept)
                await self.direct.commit(rows, [(v, k) for k, v in states.items()])
            return conn, refused
        conn = conn or await self.engine.connect()
        return conn, await _commit(conn, group, fences)

    def _written(self, group: list[LogBatch], refused: set[int]) -> None:
        """``group`` committed, but for the rooms ``refused`` by the fenced check."""
        self.commits += 1
        metrics.log_committed()
        self.health.succeeded()
        for b in group:
            b.done(LeaseLost(b.room_id) if b.room_id in refused else None)

    def _failed(self, group: list[LogBatch], exc: BaseException) -> None:
        if is_storage_fault(exc):
            self.health.failed(exc)
        for b in group:
            b.done(exc)


async def _commit(
    conn: AsyncConnection, group: list[LogBatch], fences: Fences | None
) -> set[int]:
    """One transaction: every row of ``group``, then each room's newest state, but for
    the rooms the fenced check refuses (returned: nothing of theirs is written)."""
    rows, states = _merge(group)
    async with conn.begin():
        refused = await insert_log_rows(conn, rows, fences)
        states = {k: v for k, v in states.items() if k not in refused}
        if states:
            await set_room_states(conn, states)
    return refused


def _merge(group: list[LogBatch]) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """Every row of ``group`` in order, and each room's newest state (room id -> JSON)."""
    rows: list[dict[str, Any]] = []
    states: dict[int, str] = {}
    for b in group:
        rows += b.rows
        if b.state is not None:
            states[b.room_id] = b.state
    return rows, states


async def _drop(conn: AsyncConnection | None) -> None:
    """Give a connection back after a failure (the pool resets it, or discards it if it is
    broken); the next group takes a fresh one."""
    if conn is not None:
        with contextlib.suppress(Exception):
            await conn.close()
