"""Finished matches: their records (ruleset + seed + actions), who played them, and who
may read them (a private room's games only its players).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.models import GamePlayerRow, GameRow, RoomRow
from shengji.server.store.repository import Repository, reports_health


class Games(Repository):
    """The ``games`` and ``game_players`` tables."""

    @reports_health
    async def save(
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

    async def listed(
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

    async def _with_room(self, game_id: int, *cols: Any) -> tuple[Any, ...] | None:
        """``cols`` of a finished match joined with its room's row; None if no such game
        (any integer may be asked: one that cannot be an id is no game)."""
        if not self.is_row_id(game_id):
            return None
        query = select(*cols).join(RoomRow, RoomRow.id == GameRow.room_id)
        async with self.sessions() as s:
            found = (await s.execute(query.where(GameRow.id == game_id))).first()
        return None if found is None else tuple(found)

    async def info(self, game_id: int) -> tuple[str, float] | None:
        """A finished match's room preset and finish time (for its download name)."""
        found = await self._with_room(game_id, RoomRow.preset, GameRow.finished)
        return None if found is None else (str(found[0]), float(found[1]))

    async def record(self, game_id: int) -> str | None:
        """A game's record JSON."""
        if not self.is_row_id(game_id):
            return None
        async with self.sessions() as s:
            row = await s.get(GameRow, game_id)
        return None if row is None else row.record

    async def record_for(self, game_id: int, viewer: str | None) -> str | None:
        """A game's record JSON if ``viewer`` (a player id; None: not signed in) may read it:
        a public room's games are open to all, a private room's only to its players."""
        found = await self._with_room(game_id, GameRow.record, RoomRow.private)
        if found is None:
            return None
        record, private = found
        if not private:
            return str(record)
        if viewer is None:
            return None
        async with self.sessions() as s:
            seats = (
                await s.execute(
                    select(GamePlayerRow.seat).where(
                        GamePlayerRow.game_id == game_id, GamePlayerRow.player_id == viewer
                    )
                )
            ).first()
        return str(record) if seats is not None else None
