"""Idle rooms leave memory: a stub stays in the lobby, the room comes back from its log.

A room with nobody connected, no job in flight (write, bot, hint), nothing in its inbox and
nothing due for ``Settings.idle_unload_s`` seconds, which has handled no command for that
long, is ``unloadable``: the lobby (server/live/lobby.py) swaps it for an ``IdleRoom`` of a few
KiB (what the room list shows, what ``expiry`` needs, and the table's ``Carry``:
server/table/idle.py) and stops its task. A client connecting, or any request that needs
the room, reloads it (``Lobby.load``): the row and log rebuild the match (the restore path
of a restart), the carry puts back what the log does not hold, and the match goes on from
the same sequence number. A bots-only room that is playing always has a bot asked or a
card to deal, so it is never idle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from shengji.server.table.idle import Carry, carried, quiet
from shengji.server.table.model import Seat

if TYPE_CHECKING:
    from shengji.server.live.rooms import Room


@dataclass(frozen=True, slots=True)
class IdleRoom:
    """An unloaded room as the lobby keeps it."""

    rid: int
    code: str
    private: bool
    owner: str | None
    status: str
    seats: tuple[Seat, ...]
    """Who sits where (``expiry`` looks for seated humans)."""
    info: bytes
    """The room as the lobby lists it (``RoomInfo`` as JSON, taken when it was unloaded)."""
    carry: Carry
    unloaded_at: float

    conns: tuple[()] = ()
    """Nobody is connected to an unloaded room (``expiry.overdue`` asks)."""

    @property
    def unattended_since(self) -> float | None:
        return self.carry.unattended_since

    def info_json(self) -> Any:
        """The room list's entry (plain JSON values)."""
        return msgspec.json.decode(self.info)


def unloadable(room: Room, now: float, after_s: float) -> bool:
    """Whether ``room`` has been idle ``after_s`` seconds at ``now`` (the loop's clock)
    and nothing is due for as long: it may be unloaded."""
    task = room.task
    return (
        after_s > 0
        and task is not None
        and not task.done()
        and not room.closed
        and room.failed is None
        and not room.conns
        and room.inbox.empty()
        and not room.jobs.tasks
        and now - room.last_active >= after_s
        and quiet(room.table, now, after_s)
    )


def stub_of(room: Room, now: float) -> IdleRoom:
    """The stub that stands for ``room`` while it is unloaded."""
    t = room.table
    return IdleRoom(
        room.rid,
        room.code,
        room.private,
        room.owner,
        t.status,
        t.seats,
        msgspec.json.encode(room.info()),
        carried(t),
        now,
    )
