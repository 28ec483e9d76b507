"""Rooms nobody uses close by themselves, so they stop counting against ``max_rooms``; idle
ones leave memory before that (``Settings.idle_unload_s``, server/live/idle_rooms.py).

A room with nobody connected and no human seated closes after ``Settings.room_idle_s``
(a room someone created and left, or bots playing for nobody); one whose seated humans are
all disconnected after ``Settings.room_abandoned_s``. A closed room leaves the lobby (its
code answers 404 and ``no-room``), its row is marked closed so a restart does not bring it
back, and its log is deleted; its finished matches stay in ``GET /api/games/{id}``. A match
still running in it is abandoned unrecorded (deals already finished were settled as they
ended).

>>> from types import SimpleNamespace as NS
>>> s = NS(room_idle_s=600.0, room_abandoned_s=7200.0)
>>> empty = NS(conns=set(), seats=[NS(kind="bot"), NS(kind="empty")], unattended_since=0.0)
>>> overdue(empty, 599.0, s), overdue(empty, 600.0, s)
(False, True)
>>> left = NS(conns=set(), seats=[NS(kind="human")], unattended_since=0.0)
>>> overdue(left, 3600.0, s)
False
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from shengji.server.tasks import Periodic

if TYPE_CHECKING:
    from shengji.server.live.idle_rooms import IdleRoom
    from shengji.server.live.lobby import Lobby
    from shengji.server.live.rooms import Room
    from shengji.server.settings import Settings

log = logging.getLogger("shengji.server.expiry")


def overdue(room: Room | IdleRoom, now: float, settings: Settings) -> bool:
    """Whether ``room`` has been left alone longer than its limit at ``now``
    (the event loop's clock)."""
    since = room.unattended_since
    if since is None or room.conns:
        return False
    seated = any(s.kind == "human" for s in room.seats)
    limit = settings.room_abandoned_s if seated else settings.room_idle_s
    return now - since >= limit


class Janitor(Periodic):
    """A task that closes overdue rooms and unloads idle ones (server/live/idle_rooms.py); it
    looks a few times per limit."""

    def __init__(self, lobby: Lobby, settings: Settings) -> None:
        limits = [settings.room_idle_s, settings.room_abandoned_s, settings.idle_unload_s]
        shortest = min(x for x in limits if x > 0)
        super().__init__(
            max(0.05, min(30.0, shortest / 4)), "room-janitor", log, "closing idle rooms failed"
        )
        self.lobby = lobby
        self.settings = settings

    async def tick(self) -> None:
        """One sweep (``sweep``)."""
        await self.sweep()

    async def sweep(self) -> list[str]:
        """Close every overdue room (loaded or not), then unload the idle ones; returns the
        codes of those closed."""
        now = asyncio.get_running_loop().time()
        closed: list[str] = []
        for room in list(self.lobby.rooms.values()):
            if not overdue(room, now, self.settings):
                continue
            if await room.expire():  # the room checks again in its own task
                await self.lobby.close_room(room)
                closed.append(room.code)
                log.info("room %s closed: nobody there", room.code[:6])
        for stub in list(self.lobby.idle.values()):
            if overdue(stub, now, self.settings) and await self.lobby.close_idle(stub.code):
                closed.append(stub.code)
                log.info("room %s closed: nobody there (it was unloaded)", stub.code[:6])
        await self.unload(now)
        return closed

    async def unload(self, now: float) -> list[str]:
        """Unload every idle room (the lobby keeps a stub); returns their codes."""
        gone = [r for r in list(self.lobby.rooms.values()) if self.lobby.unload(r, now)]
        for room in gone:
            await room.stop()
            log.debug("room %s unloaded: idle", room.code[:6])
        return [r.code for r in gone]
