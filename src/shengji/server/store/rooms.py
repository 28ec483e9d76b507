"""Rooms: their rows (ruleset, seed, stored state, what they play for), what restoring one
reads from its log, closing, chat trimming, and quarantine (a room set aside).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Coroutine
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.models import (
    LogRow,
    QuarantineRow,
    RoomLeaseRow,
    RoomRow,
    RoomStakesRow,
)
from shengji.server.store.repository import Repository, reports_health


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


class Rooms(Repository):
    """The ``rooms`` table, with ``room_stakes`` and ``room_quarantine``."""

    @reports_health
    async def create(
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

    async def load_open(self, only: Collection[int] | None = None) -> list[StoredRoom]:
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

    async def is_open(self, code: str) -> bool:
        """Is room ``code`` open in the database (not closed, not quarantined)?"""
        set_aside = select(QuarantineRow.room_id)
        async with self.sessions() as s:
            found = await s.execute(
                select(RoomRow.id).where(
                    RoomRow.code == code, RoomRow.closed.is_(False), RoomRow.id.not_in(set_aside)
                )
            )
            return found.first() is not None

    async def load(self, room_id: int) -> StoredRoom | None:
        """One open room as ``load_open`` reads it (an idle room reloaded on demand,
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

    async def close(self, room_id: int) -> None:
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

    async def quarantine(self, room_id: int, reason: str) -> bool:
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

    async def quarantined(self) -> list[dict[str, Any]]:
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

    async def release(self, code: str) -> bool:
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
