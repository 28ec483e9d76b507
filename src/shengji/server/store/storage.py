"""Persistence: the one repository, ``Store`` (the tables are in server/store/models.py).

This file is longer than most (~700 lines) for a reason: ``Store`` is the only code that
speaks SQL, one method per query, and keeping them in one class keeps every transaction
boundary and the group-commit writer in view together.

The tables are made and changed by migrations (server/store/schema.py, server/migrations): a
model changed in store/models.py needs a new revision there. Writes go through one
writer task that commits whatever is queued in one transaction (group commit), so a busy
server pays one commit for many tables; a deal's stakes are settled in a transaction of
their own (``settle_deal``). Every write reports to ``Store.health``
(server/store/write_faults.py): while writes fail, ``/healthz`` says so and a ``heartbeat`` row is
rewritten with backoff until the database takes writes again.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import secrets
import time
import uuid
from collections.abc import Callable, Collection, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from shengji.core.stakes import Settlement, StakeRules, settle
from shengji.core.state import DealResult
from shengji.server.store import schema
from shengji.server.store.fault_drill import install_from_env
from shengji.server.store.group_commit import LANES, GroupCommit, LogBatch, Row, log_rows
from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.lease_store import Fences
from shengji.server.store.models import (
    STARTING_BEANS as STARTING_BEANS,
)
from shengji.server.store.models import (
    STARTING_COINS as STARTING_COINS,
)
from shengji.server.store.models import (
    STARTING_RATING as STARTING_RATING,
)
from shengji.server.store.models import (
    Base as Base,
)
from shengji.server.store.models import (
    DealSettlementRow,
    GamePlayerRow,
    GameRow,
    HeartbeatRow,
    LedgerRow,
    LogRow,
    PlayerRow,
    PlayerStakesRow,
    QuarantineRow,
    RoomLeaseRow,
    RoomRow,
    RoomStakesRow,
)
from shengji.server.store.models import new_stakes as _new_stakes
from shengji.server.store.sqlite_log_writer import SqliteLogWriter, sqlite_pragmas
from shengji.server.store.write_faults import WriteHealth


def max_row_id(sqlite: bool) -> int:
    """The largest id the tables' ``Integer`` id columns hold: SQLite's rowid is a signed
    64-bit integer, PostgreSQL's ``integer`` a signed 32-bit one. An id past it that
    reaches the driver raises (an overflow) rather than finding nothing, so ids from a URL
    are checked first (``Store.is_row_id``).

    >>> max_row_id(True) == 2**63 - 1, max_row_id(False) == 2**31 - 1
    (True, True)
    """
    return 2**63 - 1 if sqlite else 2**31 - 1


def hash_token(token: str) -> str:
    """What is stored of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Player:
    """A player as the server knows it."""

    id: str
    name: str


@dataclass
class StoredRoom:
    """A room row plus what restoring it needs from the log."""

    id: int
    code: str
    preset: str
    ruleset: dict[str, Any]
    seed: str
    private: bool
    max_deals: int | None
    state: dict[str, Any]
    last_seq: int
    actions: list[str]
    """Action texts of the current match, in order."""
    stakes: dict[str, Any] | None = None
    """What the room plays for (``StakeRules.to_dict``); None: a plain room."""
    owner: str | None = None
    """The player who created the room (None: a room from before rooms had owners)."""
    problem: str | None = None
    """Why the row could not be read (then the other fields are empty); see quarantine."""
    last_pos: int = 0
    """The position of the log's last row (``LogRow.pos``): the next row goes after it."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _reports_health(
    write: Callable[Concatenate[Store, _P], Coroutine[Any, Any, _R]],
) -> Callable[Concatenate[Store, _P], Coroutine[Any, Any, _R]]:
    """A write of the store that reports to ``Store.health`` (a fault, or a success)."""

    async def watched(store: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with store.health.watch():
            return await write(store, *args, **kwargs)

    functools.update_wrapper(watched, write)
    return watched


class Store:
    """The repository. ``start()`` checks (or creates) the schema and starts the writer."""

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

    # ------------------------------------------------------------------ the writer

    def submit_log(
        self,
        room_id: int,
        rows: Sequence[Row],
        room_state: Mapping[str, Any] | None,
        done: Callable[[BaseException | None], None],
    ) -> None:
        """Queue room messages ``(pos, seq, match_no, kind, data)`` and, if given, the
        room's new state for the next group commit (server/store/group_commit.py) and return at
        once; ``done(None)`` once they are durable, ``done(exc)`` if the write failed (both
        or neither were written; ``LeaseLost``: another process runs the room now)."""
        state = None if room_state is None else json.dumps(room_state)
        self.writer.submit(LogBatch(room_id, log_rows(room_id, rows), state, done))

    async def log_rows(
        self,
        room_id: int,
        rows: Sequence[Row],
        room_state: Mapping[str, Any] | None = None,
    ) -> None:
        """``submit_log`` that returns once the rows are committed (raises if not)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def done(exc: BaseException | None) -> None:
            if not fut.done():
                fut.set_result(None) if exc is None else fut.set_exception(exc)

        self.submit_log(room_id, rows, room_state, done)
        await fut

    async def log(
        self,
        room_id: int,
        pos: int,
        seq: int,
        match_no: int,
        kind: str,
        data: str,
        room_state: dict[str, Any] | None = None,
    ) -> None:
        """Append one room message at log position ``pos`` (and the room's new state, if
        given, in the same transaction: both or neither); returns once committed."""
        await self.log_rows(room_id, [(pos, seq, match_no, kind, data)], room_state)

    async def has_log_row(self, room_id: int, pos: int, seq: int, kind: str, data: str) -> bool:
        """Whether the room's log holds this row at ``pos`` (a retried write asks before
        writing)."""
        async with self.sessions() as s:
            found = (
                await s.execute(
                    select(LogRow.id)
                    .where(
                        LogRow.room_id == room_id,
                        LogRow.pos == pos,
                        LogRow.seq == seq,
                        LogRow.kind == kind,
                        LogRow.data == data,
                    )
                    .limit(1)
                )
            ).scalar_one_or_none()
        return found is not None

    # ------------------------------------------------------------------ players

    @_reports_health
    async def create_player(self, name: str) -> tuple[Player, str]:
        """A new guest and its session token (shown once)."""
        token = secrets.token_urlsafe(32)
        pid = uuid.uuid4().hex
        async with self.sessions.begin() as s:
            s.add(PlayerRow(id=pid, name=name, token_hash=hash_token(token), created=time.time()))
            await s.flush()
            s.add(_new_stakes(pid))
        return Player(pid, name), token

    async def player_by_token(self, token: str) -> Player | None:
        """The player holding ``token``."""
        async with self.sessions() as s:
            row = (
                await s.execute(select(PlayerRow).where(PlayerRow.token_hash == hash_token(token)))
            ).scalar_one_or_none()
        return None if row is None else Player(row.id, row.name)

    async def player(self, pid: str) -> Player | None:
        """A player by id."""
        async with self.sessions() as s:
            row = await s.get(PlayerRow, pid)
        return None if row is None else Player(row.id, row.name)

    # ------------------------------------------------------------------ rooms

    @_reports_health
    async def create_room(
        self,
        code: str,
        preset: str,
        ruleset: dict[str, Any],
        seed: str,
        private: bool,
        max_deals: int | None,
        created_by: str | None,
        state: dict[str, Any],
        stakes: dict[str, Any] | None = None,
        lease: Callable[[AsyncSession, int], Coroutine[Any, Any, None]] | None = None,
    ) -> int:
        """Insert a room (and what it plays for, unless plain, and its first ``lease``:
        server/store/lease_store.py ``lease_inserter``, in the same transaction); returns its id."""
        async with self.sessions.begin() as s:
            row = RoomRow(
                code=code,
                preset=preset,
                ruleset=json.dumps(ruleset),
                seed=seed,
                private=private,
                max_deals=max_deals,
                created_by=created_by,
                state=json.dumps(state),
                closed=False,
                created=time.time(),
            )
            s.add(row)
            await s.flush()
            if stakes is not None:
                s.add(RoomStakesRow(room_id=row.id, rules=json.dumps(stakes)))
            if lease is not None:
                await lease(s, row.id)
            return row.id

    async def load_rooms(self, only: Collection[int] | None = None) -> list[StoredRoom]:
        """Every open room that is not quarantined (of ``only``, when given: the rooms this
        process holds the lease of), with the actions of its current match (for replay).
        A row that cannot be read comes back with ``problem`` set."""
        out: list[StoredRoom] = []
        set_aside = select(QuarantineRow.room_id)
        query = select(RoomRow).where(RoomRow.closed.is_(False), RoomRow.id.not_in(set_aside))
        if only is not None:
            query = query.where(RoomRow.id.in_(sorted(only)))
        async with self.sessions() as s:
            rows = (await s.execute(query.order_by(RoomRow.id))).scalars()
            for r in list(rows):
                try:
                    out.append(await self._stored_room(s, r))
                except (ValueError, TypeError, AttributeError) as e:  # bad JSON, bad types
                    problem = f"{type(e).__name__}: {e}"
                    out.append(
                        StoredRoom(
                            r.id, r.code, r.preset, {}, "", False, None, {}, 0, [], None,
                            None, problem,
                        )
                    )
        return out

    async def room_is_open(self, code: str) -> bool:
        """Is room ``code`` open in the database (not closed, not quarantined)?"""
        set_aside = select(QuarantineRow.room_id)
        async with self.sessions() as s:
            found = await s.execute(
                select(RoomRow.id).where(
                    RoomRow.code == code, RoomRow.closed.is_(False), RoomRow.id.not_in(set_aside)
                )
            )
            return found.first() is not None

    async def load_room(self, room_id: int) -> StoredRoom | None:
        """One open room as ``load_rooms`` reads it (an idle room reloaded on demand,
        server/live/idle_rooms.py); None if it is closed, quarantined or gone."""
        set_aside = select(QuarantineRow.room_id)
        async with self.sessions() as s:
            r = (
                await s.execute(
                    select(RoomRow).where(
                        RoomRow.id == room_id,
                        RoomRow.closed.is_(False),
                        RoomRow.id.not_in(set_aside),
                    )
                )
            ).scalar_one_or_none()
            return None if r is None else await self._stored_room(s, r)

    async def close_room(self, room_id: int) -> None:
        """Mark a room closed (never restored again) and delete its log and lease: the log
        exists to replay an open room. The row stays, so its finished games and ledger rows
        still name it. ``LeaseLost`` if another process runs the room now."""
        async with self.sessions.begin() as s:
            if await self.fences.refused(s, [room_id]):
                raise LeaseLost(room_id)
            await s.execute(update(RoomRow).where(RoomRow.id == room_id).values(closed=True))
            await s.execute(delete(LogRow).where(LogRow.room_id == room_id))
            await s.execute(delete(RoomLeaseRow).where(RoomLeaseRow.room_id == room_id))

    async def trim_chat(self, room_id: int, before_seq: int) -> int:
        """Delete a room's chat lines older than ``before_seq``; returns how many (none if
        another process runs the room now)."""
        async with self.sessions.begin() as s:
            if await self.fences.refused(s, [room_id]):
                return 0
            result = await s.execute(
                delete(LogRow).where(
                    LogRow.room_id == room_id, LogRow.kind == "chat", LogRow.seq < before_seq
                )
            )
        return int(getattr(result, "rowcount", 0) or 0)
    async def _stored_room(self, s: AsyncSession, r: RoomRow) -> StoredRoom:
        state = json.loads(r.state)
        ruleset = json.loads(r.ruleset)
        if not isinstance(state, dict) or not isinstance(ruleset, dict):
            raise ValueError("the room's state and ruleset must be JSON objects")
        last, last_pos = (
            await s.execute(
                select(func.max(LogRow.seq), func.max(LogRow.pos)).where(LogRow.room_id == r.id)
            )
        ).one()
        acts = (
            await s.execute(
                select(LogRow.data)
                .where(
                    LogRow.room_id == r.id,
                    LogRow.match_no == int(state.get("match_no", 0)),
                    LogRow.kind == "action",
                )
                .order_by(LogRow.pos)
            )
        ).scalars()
        stakes = await s.get(RoomStakesRow, r.id)
        return StoredRoom(
            r.id,
            r.code,
            r.preset,
            ruleset,
            r.seed,
            r.private,
            r.max_deals,
            state,
            int(last or 0),
            list(acts),
            None if stakes is None else json.loads(stakes.rules),
            r.created_by,
            last_pos=int(last_pos or 0),
        )

    # ------------------------------------------------------------------ quarantine

    async def quarantine_room(self, room_id: int, reason: str) -> bool:
        """Set a room aside (it is not loaded again); False if it already was, or if
        another process holds its lease now (the room is its business)."""
        try:
            async with self.sessions.begin() as s:
                if await self.fences.refused(s, [room_id]):
                    return False
                s.add(QuarantineRow(room_id=room_id, reason=reason[:2000], at=time.time()))
        except IntegrityError:
            return False
        return True

    async def quarantined_rooms(self) -> list[dict[str, Any]]:
        """The rooms set aside, oldest first: ``{"id", "code", "preset", "reason", "at"}``."""
        async with self.sessions() as s:
            rows = (
                await s.execute(
                    select(
                        RoomRow.id,
                        RoomRow.code,
                        RoomRow.preset,
                        QuarantineRow.reason,
                        QuarantineRow.at,
                    )
                    .join(QuarantineRow, QuarantineRow.room_id == RoomRow.id)
                    .order_by(QuarantineRow.at, RoomRow.id)
                )
            ).all()
        return [
            {"id": r[0], "code": r[1], "preset": r[2], "reason": r[3], "at": r[4]} for r in rows
        ]

    async def release_room(self, code: str) -> bool:
        """Let a quarantined room be restored again at the next start; False if no room
        with this code (or a prefix of it, unique) is quarantined."""
        async with self.sessions.begin() as s:
            ids = (
                await s.execute(
                    select(RoomRow.id)
                    .join(QuarantineRow, QuarantineRow.room_id == RoomRow.id)
                    .where(RoomRow.code.startswith(code, autoescape=True))
                )
            ).scalars().all()
            if len(ids) != 1:
                return False
            await s.execute(delete(QuarantineRow).where(QuarantineRow.room_id == ids[0]))
        return True

    # ------------------------------------------------------------------ games

    @_reports_health
    async def save_game(
        self, room_id: int, match_no: int, record: str, players: Sequence[tuple[int, str]]
    ) -> int:
        """Store a finished match; ``players`` are ``(seat, player_id)`` of the humans. A
        match stored before (a retried write, a restart while finishing) keeps its id.
        ``LeaseLost`` if another process runs the room now (it records the match)."""
        async with self.sessions.begin() as s:
            if await self.fences.refused(s, [room_id]):
                raise LeaseLost(room_id)
            known = (
                await s.execute(
                    select(GameRow.id).where(
                        GameRow.room_id == room_id, GameRow.match_no == match_no
                    )
                )
            ).scalar_one_or_none()
            if known is not None:
                return int(known)
            row = GameRow(room_id=room_id, match_no=match_no, record=record, finished=time.time())
            s.add(row)
            await s.flush()
            for seat, pid in players:
                s.add(GamePlayerRow(game_id=row.id, seat=seat, player_id=pid))
            return row.id

    async def list_games(
        self, player_id: str | None, include_private: bool, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Finished matches, newest first, with their room's preset and record (the
        history page): those ``player_id`` sat in (with ``seat``), or every match; private
        rooms' only if ``include_private``."""
        cols = (GameRow.id, GameRow.match_no, GameRow.finished, RoomRow.preset,
                RoomRow.private, GameRow.record)
        query = select(*cols).join(RoomRow, RoomRow.id == GameRow.room_id)
        if player_id is not None:
            query = query.add_columns(GamePlayerRow.seat).join(
                GamePlayerRow, GamePlayerRow.game_id == GameRow.id
            ).where(GamePlayerRow.player_id == player_id)
        if not include_private:
            query = query.where(RoomRow.private.is_(False))
        query = query.order_by(GameRow.id.desc()).limit(limit)
        async with self.sessions() as s:
            rows = (await s.execute(query)).all()
        keys = ("id", "match_no", "finished", "preset", "private", "record", "seat")
        return [dict(zip(keys, r, strict=False)) for r in rows]

    async def game_info(self, game_id: int) -> tuple[str, float] | None:
        """A finished match's room preset and finish time (for its download name)."""
        if not self.is_row_id(game_id):
            return None
        async with self.sessions() as s:
            found = (
                await s.execute(
                    select(RoomRow.preset, GameRow.finished)
                    .join(RoomRow, RoomRow.id == GameRow.room_id)
                    .where(GameRow.id == game_id)
                )
            ).first()
        return None if found is None else (str(found[0]), float(found[1]))

    async def game(self, game_id: int) -> str | None:
        """A game's record JSON."""
        if not self.is_row_id(game_id):
            return None
        async with self.sessions() as s:
            row = await s.get(GameRow, game_id)
        return None if row is None else row.record

    async def game_for(self, game_id: int, viewer: str | None) -> str | None:
        """A game's record JSON if ``viewer`` (a player id; None: not signed in) may read it:
        a public room's games are open to all, a private room's only to its players. Any
        integer may be asked: one that cannot be an id is no game."""
        if not self.is_row_id(game_id):
            return None
        async with self.sessions() as s:
            found = (
                await s.execute(
                    select(GameRow.record, RoomRow.private)
                    .join(RoomRow, RoomRow.id == GameRow.room_id)
                    .where(GameRow.id == game_id)
                )
            ).first()
            if found is None:
                return None
            record, private = found
            if not private:
                return str(record)
            if viewer is None:
                return None
            seats = (
                await s.execute(
                    select(GamePlayerRow.seat).where(
                        GamePlayerRow.game_id == game_id, GamePlayerRow.player_id == viewer
                    )
                )
            ).first()
        return str(record) if seats is not None else None

    # ------------------------------------------------------------------ stakes

    @_reports_health
    async def settle_deal(
        self,
        room_id: int,
        match_no: int,
        deal_no: int,
        result: DealResult,
        rules: StakeRules,
        players: Sequence[str | None],
    ) -> Settlement | None:
        """Apply a finished deal's stakes to the players' rating or balance, with one ledger
        row per player, in ONE transaction. A deal already settled (same room, match and
        deal) changes nothing: None. ``players`` per seat, None for an unrated seat (a bot).
        ``LeaseLost`` if another process runs the room now (it settles the deal).
        """
        if rules.kind == "plain":
            return None
        kind = rules.kind
        now = time.time()
        try:
            async with self.sessions.begin() as s:
                if await self.fences.refused(s, [room_id]):
                    raise LeaseLost(room_id)
                # The key first: it refuses a second settlement of the deal and (SQLite)
                # takes the write lock before anything is read.
                key = DealSettlementRow(
                    room_id=room_id,
                    match_no=match_no,
                    deal_no=deal_no,
                    kind=kind,
                    detail="",
                    at=now,
                )
                s.add(key)
                await s.flush()
                humans = sorted({p for p in players if p})
                rows = {
                    r.player_id: r
                    for r in (
                        await s.execute(
                            select(PlayerStakesRow)
                            .where(PlayerStakesRow.player_id.in_(humans))
                            .with_for_update()
                        )
                    ).scalars()
                }
                for new in humans:
                    if new not in rows:  # a player from before stakes existed
                        rows[new] = _new_stakes(new)
                        s.add(rows[new])
                settlement = settle(result, rules, [rows[p].rating if p else None for p in players])
                for seat, pid in enumerate(players):
                    if not pid:
                        continue
                    row, delta = rows[pid], settlement.deltas[seat]
                    balance = getattr(row, kind) + delta
                    setattr(row, kind, balance)
                    setattr(row, f"{kind}_deals", getattr(row, f"{kind}_deals") + 1)
                    row.updated = now
                    s.add(
                        LedgerRow(
                            player_id=pid,
                            room_id=room_id,
                            match_no=match_no,
                            deal_no=deal_no,
                            seat=seat,
                            kind=kind,
                            delta=delta,
                            balance=balance,
                            reason=settlement.reason,
                            at=now,
                        )
                    )
                key.detail = json.dumps(
                    {
                        "players": list(players),
                        "deltas": list(settlement.deltas),
                        "base": settlement.base,
                        "multiplier": settlement.multiplier,
                        "house": settlement.house,
                        "reason": settlement.reason,
                        "rules": rules.to_dict(),
                    }
                )
        except IntegrityError:
            if deal_no in await self.settled_deals(room_id, match_no):
                return None
            raise
        return settlement

    async def settled_deals(self, room_id: int, match_no: int) -> set[int]:
        """Deal numbers of a room's match whose stakes are settled."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(DealSettlementRow.deal_no).where(
                    DealSettlementRow.room_id == room_id, DealSettlementRow.match_no == match_no
                )
            )
            return set(rows.scalars())

    async def room_stakes(self, room_id: int) -> dict[str, Any] | None:
        """What a room plays for (``StakeRules.to_dict``), None for a plain room."""
        async with self.sessions() as s:
            row = await s.get(RoomStakesRow, room_id)
        return None if row is None else dict(json.loads(row.rules))

    async def leaderboard(self, kind: str, limit: int = 50) -> list[dict[str, Any]]:
        """Players by rating, coins or 欢乐豆, highest first; only those with a settled deal
        of that kind. ``[{"rank", "player", "name", "value", "deals"}]``."""
        if kind not in ("rating", "coins", "beans"):
            raise ValueError("kind is rating, coins or beans")
        value = getattr(PlayerStakesRow, kind)
        deals = getattr(PlayerStakesRow, f"{kind}_deals")
        async with self.sessions() as s:
            rows = (
                await s.execute(
                    select(PlayerStakesRow.player_id, PlayerRow.name, value, deals)
                    .join(PlayerRow, PlayerRow.id == PlayerStakesRow.player_id)
                    .where(deals > 0)
                    .order_by(value.desc(), deals.desc(), PlayerStakesRow.player_id)
                    .limit(limit)
                )
            ).all()
        return [
            {"rank": i + 1, "player": r[0], "name": r[1], "value": r[2], "deals": r[3]}
            for i, r in enumerate(rows)
        ]

    async def stakes_of(self, player_id: str, limit: int = 20) -> dict[str, Any]:
        """A player's rating, balances, deal counts and last ``limit`` ledger rows (newest
        first); starting values for a player who has none yet."""
        async with self.sessions() as s:
            row = await s.get(PlayerStakesRow, player_id)
            ledger = (
                await s.execute(
                    select(LedgerRow)
                    .where(LedgerRow.player_id == player_id)
                    .order_by(LedgerRow.id.desc())
                    .limit(limit)
                )
            ).scalars()
            recent = [
                {
                    "kind": r.kind,
                    "delta": r.delta,
                    "balance": r.balance,
                    "reason": r.reason,
                    "room_id": r.room_id,
                    "match_no": r.match_no,
                    "deal_no": r.deal_no,
                    "seat": r.seat,
                    "at": r.at,
                }
                for r in ledger
            ]
        row = row or _new_stakes(player_id)
        return {
            "rating": row.rating,
            "coins": row.coins,
            "beans": row.beans,
            "deals": {k: getattr(row, f"{k}_deals") for k in ("rating", "coins", "beans")},
            "ledger": recent,
        }


def _is_plain_path(database: str) -> bool:
    """Whether a SQLite URL's database is a file path (not a ``file:`` URI or memory)."""
    return not database.startswith("file:") and database != ":memory:"


