"""Persistence: ``Store`` opens the database and holds its repositories, one per
concern, each the only code that speaks SQL for its tables (server/store/models.py):
``players`` (server/store/players.py), ``saved_rules`` (saved_rules.py: a player's house
rules), ``rooms`` (rooms.py: rows, restoring, closing,
quarantine), ``log`` (room_log.py: each room's log, through the group-commit writer),
``games`` (games.py: finished matches), ``ledger`` (ledger.py: ratings, balances, settling
a deal once) and the leases' SQL (lease_store.py, with its fences).

The tables are made and changed by migrations (server/store/schema.py,
server/store/migrations): a model changed in store/models.py needs a new revision there.
Writes of the log go through one writer task that commits whatever is queued in one
transaction (group commit), so a busy server pays one commit for many tables; a deal's
stakes are settled in a transaction of their own (``Ledger.settle_deal``). Every write
reports to ``Store.health`` (server/store/write_faults.py): while writes fail, ``/healthz``
says so and a ``heartbeat`` row is rewritten with backoff until the database takes writes
again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from shengji.server.store import schema
from shengji.server.store.fault_drill import install_from_env
from shengji.server.store.games import Games
from shengji.server.store.group_commit import LANES, GroupCommit
from shengji.server.store.lease_store import Fences
from shengji.server.store.ledger import Ledger
from shengji.server.store.models import HeartbeatRow
from shengji.server.store.players import Players
from shengji.server.store.repository import max_row_id
from shengji.server.store.room_log import RoomLog
from shengji.server.store.rooms import Rooms
from shengji.server.store.saved_rules import SavedRules
from shengji.server.store.sqlite_log_writer import SqliteLogWriter, sqlite_pragmas
from shengji.server.store.write_faults import WriteHealth


class Store:
    """The database and its repositories: ``players``, ``rooms``, ``log`` (each room's
    log), ``games``, ``ledger`` (stakes). ``start()`` checks (or creates) the schema and
    starts the writer."""

    def __init__(self, url: str) -> None:
        self.url = url
        u = make_url(url)
        self.sqlite = u.get_backend_name() == "sqlite"
        if self.sqlite and u.database and u.database != ":memory:":
            Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        # a server database may restart: a pooled connection is checked before use
        self.engine: AsyncEngine = create_async_engine(url, pool_pre_ping=not self.sqlite)
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.max_id = max_row_id(self.sqlite)
        self.health = WriteHealth(self.probe)
        """Whether writes succeed now (``/healthz``); every write reports to it."""
        self.fences = Fences(self.sqlite)
        """The lease epoch each room is written under (server/store/lease_store.py): a write of a
        room whose lease another process has claimed is refused (``LeaseLost``). Rooms are
        registered only where leases are kept (PostgreSQL): on SQLite none is fenced."""
        file = u.database if self.sqlite and u.database and _is_plain_path(u.database) else None
        self.writer = GroupCommit(
            self.engine,
            self.health,
            1 if self.sqlite else LANES,
            self.fences,
            None if file is None else SqliteLogWriter(file),
        )
        """The group-commit writer of the rooms' logs (server/store/group_commit.py); on a SQLite
        file it commits on its own thread (server/store/sqlite_log_writer.py)."""
        shared = (self.sessions, self.health, self.fences, self.sqlite)
        self.players = Players(*shared)
        self.saved_rules = SavedRules(*shared)
        self.rooms = Rooms(*shared)
        self.games = Games(*shared)
        self.ledger = Ledger(*shared)
        self.log = RoomLog(self.writer, self.sessions)
        install_from_env(self)  # fault drills only (server/store/fault_drill.py)
        self._started = False

    def add_write_check(self, check: Callable[[str], None]) -> None:
        """Call ``check(statement)`` before every statement this store runs on its
        database, on every path (the engine's and the SQLite writer thread's); a check
        that raises the driver's ``OperationalError`` fails that statement as the database
        would. For fault drills and tests (tests/server/faults.py)."""

        def listener(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            check(statement)

        event.listen(self.engine.sync_engine, "before_cursor_execute", listener)
        if self.writer.direct is not None:
            self.writer.direct.checks.append(check)

    def is_row_id(self, n: int) -> bool:
        """Whether ``n`` can be a row's id here (1..``max_id``): any integer from a URL may
        be asked for, and one that cannot be an id is simply not found, never an error."""
        return 0 < n <= self.max_id

    @property
    def commits(self) -> int:
        """Group commits of the log so far."""
        return self.writer.commits

    async def start(self) -> None:
        """Check the schema (an empty database gets the current one; an older one raises
        ``SchemaOutdated``: server/store/schema.py) and start the group-commit writer."""
        await schema.prepare(self.engine)
        self.writer.start()
        self._started = True

    async def close(self, wait_s: float = 10.0) -> None:
        """Flush queued writes (waiting at most ``wait_s``), stop the writer, close the pool."""
        if self._started:
            await self.writer.close(wait_s)
            self._started = False
        await self.health.close()
        await self.engine.dispose()

    async def probe(self) -> None:
        """Rewrite the heartbeat row: a write of no consequence (``health`` probes with it
        while writes fail, and reports the outcome itself)."""
        async with self.sessions.begin() as s:
            row = await s.get(HeartbeatRow, 1)
            if row is None:
                s.add(HeartbeatRow(id=1, at=time.time()))
            else:
                row.at = time.time()


def _is_plain_path(database: str) -> bool:
    """Whether a SQLite URL's database is a file path (not a ``file:`` URI or memory)."""
    return not database.startswith("file:") and database != ":memory:"


