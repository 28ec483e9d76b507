"""A room's log: every sequenced message, game actions among them, appended through the
group-commit writer (server/store/group_commit.py) before it is sent.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from shengji.server.store.group_commit import GroupCommit, LogBatch, Row, log_rows
from shengji.server.store.models import LogRow


class RoomLog:
    """The ``room_log`` table: writes queued on ``writer``, reads in ``sessions``."""

    def __init__(self, writer: GroupCommit, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.writer = writer
        self.sessions = sessions

    def submit(
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

    async def append_rows(
        self,
        room_id: int,
        rows: Sequence[Row],
        room_state: Mapping[str, Any] | None = None,
    ) -> None:
        """``submit`` that returns once the rows are committed (raises if not)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def done(exc: BaseException | None) -> None:
            if not fut.done():
                fut.set_result(None) if exc is None else fut.set_exception(exc)

        self.submit(room_id, rows, room_state, done)
        await fut

    async def append(
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
        await self.append_rows(room_id, [(pos, seq, match_no, kind, data)], room_state)

    async def has_row(self, room_id: int, pos: int, seq: int, kind: str, data: str) -> bool:
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
