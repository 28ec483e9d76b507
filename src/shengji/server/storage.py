"""Persistence: SQLAlchemy 2 async models and one repository.

Tables: ``players`` (guest name + hash of the session token), ``rooms`` (ruleset, seed and
seating), ``room_log`` (every sequenced room message, game actions among them, written
before it is broadcast), ``games`` (finished matches as GameRecord JSON) and
``game_players``; for stakes (docs/rules.md 75–89) ``player_stakes`` (rating and balances),
``room_stakes`` (what a room plays for), ``deal_settlements`` (one row per settled deal: the
key that keeps settling idempotent) and ``stake_ledger`` (one row per player per deal).
The tables are made and changed by migrations (server/schema.py, server/migrations): a
model changed here needs a new revision there. Writes go through one writer task that
commits whatever is queued in one transaction (group commit), so a busy server pays one
commit for many tables; a deal's stakes are settled in a transaction of their own
(``settle_deal``). Every write reports to ``Store.health`` (server/write_faults.py): while
writes fail, ``/healthz`` says so and a ``heartbeat`` row is rewritten with backoff until
the database takes writes again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import secrets
import time
import uuid
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    event,
    func,
    insert,
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
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from shengji.core.stakes import Settlement, StakeRules, settle
from shengji.core.state import DealResult
from shengji.server import schema
from shengji.server.write_faults import WriteHealth, is_storage_fault


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class PlayerRow(Base):
    """A guest player: a name and the hash of the token its client holds."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created: Mapped[float] = mapped_column(Float)


class RoomRow(Base):
    """A room: what it plays and (in ``state``) who sits where, as JSON."""

    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    preset: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(Text)
    seed: Mapped[str] = mapped_column(String(64))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    max_deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    state: Mapped[str] = mapped_column(Text)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)


class LogRow(Base):
    """One sequenced room message; ``kind`` ``action`` rows are replayed on restart."""

    __tablename__ = "room_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    seq: Mapped[int] = mapped_column(Integer)
    match_no: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    __table_args__ = (Index("ix_room_log_room_match", "room_id", "match_no", "kind"),)


class GameRow(Base):
    """A finished match as a GameRecord JSON document."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    match_no: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    finished: Mapped[float] = mapped_column(Float)


class GamePlayerRow(Base):
    """Which player sat where in a game."""

    __tablename__ = "game_players"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)


class QuarantineRow(Base):
    """A room set aside: it could not be restored, or it failed while running. It is never
    loaded again until an admin releases it (``shengji rooms release``)."""

    __tablename__ = "room_quarantine"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


# ---------------------------------------------------------------------------- stakes

STARTING_RATING = 0
"""A new player's rating (积分); ratings may go below zero."""
STARTING_COINS = 10_000
"""A new player's game coins (游戏币); balances may go below zero (play money)."""
STARTING_BEANS = 10_000
"""A new player's 欢乐豆."""


class PlayerStakesRow(Base):
    """A player's rating and balances, and how many deals moved each."""

    __tablename__ = "player_stakes"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[int] = mapped_column(Integer, default=STARTING_RATING)
    coins: Mapped[int] = mapped_column(Integer, default=STARTING_COINS)
    beans: Mapped[int] = mapped_column(Integer, default=STARTING_BEANS)
    rating_deals: Mapped[int] = mapped_column(Integer, default=0)
    coins_deals: Mapped[int] = mapped_column(Integer, default=0)
    beans_deals: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RoomStakesRow(Base):
    """What a room plays for (``StakeRules`` as JSON); rooms without a row are plain."""

    __tablename__ = "room_stakes"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(Text)


class DealSettlementRow(Base):
    """One settled deal: its key makes settling idempotent (a replayed deal is refused)."""

    __tablename__ = "deal_settlements"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(Text)
    """The settlement as JSON: deltas per seat, base, multiplier, house take, reason."""
    at: Mapped[float] = mapped_column(Float)


class LedgerRow(Base):
    """One player's change in one deal: the delta, the balance after it and why."""

    __tablename__ = "stake_ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    room_id: Mapped[int] = mapped_column(Integer)
    match_no: Mapped[int] = mapped_column(Integer)
    deal_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    delta: Mapped[int] = mapped_column(Integer)
    balance: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    __table_args__ = (
        Index("ix_stake_ledger_player", "player_id", "id"),
        UniqueConstraint("room_id", "match_no", "deal_no", "seat"),
    )


class HeartbeatRow(Base):
    """One row the health probe rewrites to learn whether the database takes writes."""

    __tablename__ = "heartbeat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)


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


_Op = tuple[str, dict[str, Any]]

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
        self.engine: AsyncEngine = create_async_engine(url)
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._queue: asyncio.Queue[tuple[_Op, asyncio.Future[None]]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.commits = 0
        self.health = WriteHealth(self.probe)
        """Whether writes succeed now (``/healthz``); every write reports to it."""

    async def start(self) -> None:
        """Check the schema (an empty database gets the current one; an older one raises
        ``SchemaOutdated``: server/schema.py) and start the group-commit writer."""
        await schema.prepare(self.engine)
        self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        """Flush queued writes, stop the writer, close the pool."""
        if self._writer is not None:
            while not self._queue.empty():
                await asyncio.sleep(0.005)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
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

    async def _write(self, op: str, values: dict[str, Any]) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(((op, values), fut))
        await fut

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 512:
                batch.append(self._queue.get_nowait())
            try:
                async with self.sessions.begin() as session:
                    logs = [v["row"] for (op, v), _ in batch if op == "log"]
                    if logs:
                        await session.execute(insert(LogRow), logs)
                    for (op, v), _ in batch:
                        room = v.get("room")
                        if op == "log" and room is not None:
                            await session.execute(
                                update(RoomRow)
                                .where(RoomRow.id == room["id"])
                                .values(state=room["state"])
                            )
                self.commits += 1
                self.health.succeeded()
                for _, fut in batch:
                    if not fut.done():
                        fut.set_result(None)
            except Exception as exc:  # the rooms waiting on it retry (write_faults.py)
                if is_storage_fault(exc):
                    self.health.failed(exc)
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)

    async def log(
        self,
        room_id: int,
        seq: int,
        match_no: int,
        kind: str,
        data: str,
        room_state: dict[str, Any] | None = None,
    ) -> None:
        """Append one room message (and the room's new state, if given, in the same
        transaction: both or neither); returns once committed."""
        row = {
            "room_id": room_id,
            "seq": seq,
            "match_no": match_no,
            "kind": kind,
            "data": data,
            "at": time.time(),
        }
        room = None if room_state is None else {"id": room_id, "state": json.dumps(room_state)}
        await self._write("log", {"row": row, "room": room})

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
    ) -> int:
        """Insert a room (and what it plays for, unless plain); returns its id."""
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
            return row.id

    async def load_rooms(self) -> list[StoredRoom]:
        """Every open room that is not quarantined, with the actions of its current match
        (for replay). A row that cannot be read comes back with ``problem`` set."""
        out: list[StoredRoom] = []
        set_aside = select(QuarantineRow.room_id)
        async with self.sessions() as s:
            rows = (
                await s.execute(
                    select(RoomRow).where(RoomRow.closed.is_(False), RoomRow.id.not_in(set_aside))
                )
            ).scalars()
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

    async def close_room(self, room_id: int) -> None:
        """Mark a room closed (never restored again) and delete its log: the log exists to
        replay an open room. The row stays, so its finished games and ledger rows still
        name it."""
        async with self.sessions.begin() as s:
            await s.execute(update(RoomRow).where(RoomRow.id == room_id).values(closed=True))
            await s.execute(delete(LogRow).where(LogRow.room_id == room_id))

    async def trim_chat(self, room_id: int, before_seq: int) -> int:
        """Delete a room's chat lines older than ``before_seq``; returns how many."""
        async with self.sessions.begin() as s:
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
        last = (
            await s.execute(select(func.max(LogRow.seq)).where(LogRow.room_id == r.id))
        ).scalar_one_or_none()
        acts = (
            await s.execute(
                select(LogRow.data)
                .where(
                    LogRow.room_id == r.id,
                    LogRow.match_no == int(state.get("match_no", 0)),
                    LogRow.kind == "action",
                )
                .order_by(LogRow.id)
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
        )

    # ------------------------------------------------------------------ quarantine

    async def quarantine_room(self, room_id: int, reason: str) -> bool:
        """Set a room aside (it is not loaded again); False if it already was."""
        try:
            async with self.sessions.begin() as s:
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
        """Store a finished match; ``players`` are ``(seat, player_id)`` of the humans."""
        async with self.sessions.begin() as s:
            row = GameRow(room_id=room_id, match_no=match_no, record=record, finished=time.time())
            s.add(row)
            await s.flush()
            for seat, pid in players:
                s.add(GamePlayerRow(game_id=row.id, seat=seat, player_id=pid))
            return row.id

    async def list_games(
        self, player_id: str | None, include_private: bool, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Finished matches, newest first, with their room's preset and record (issue 14's
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
        async with self.sessions() as s:
            row = await s.get(GameRow, game_id)
        return None if row is None else row.record

    async def game_for(self, game_id: int, viewer: str | None) -> str | None:
        """A game's record JSON if ``viewer`` (a player id; None: not signed in) may read it:
        a public room's games are open to all, a private room's only to its players."""
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
        """
        if rules.kind == "plain":
            return None
        kind = rules.kind
        now = time.time()
        try:
            async with self.sessions.begin() as s:
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


def _new_stakes(player_id: str) -> PlayerStakesRow:
    """A player's starting rating and balances."""
    return PlayerStakesRow(
        player_id=player_id,
        rating=STARTING_RATING,
        coins=STARTING_COINS,
        beans=STARTING_BEANS,
        rating_deals=0,
        coins_deals=0,
        beans_deals=0,
        updated=time.time(),
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
