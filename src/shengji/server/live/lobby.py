"""The lobby: every room this process runs, by code; creates rooms, restores them on start
and adopts those whose owner died (their leases: server/store/lease_keeper.py).

Room codes are ``secrets.token_urlsafe(12)`` (96 random bits): unguessable.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Collection
from typing import Any, Protocol

import msgspec

from shengji.core.ruleset import PRESET_INFO, Ruleset
from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.idle_rooms import IdleRoom, stub_of, unloadable
from shengji.server.live.quarantine import describe, quarantine
from shengji.server.live.rooms import Room, wake_paused
from shengji.server.live.stakes import StakeRules
from shengji.server.settings import Settings
from shengji.server.store.lease_keeper import LeaseKeeper
from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.rooms import StoredRoom
from shengji.server.store.storage import Store
from shengji.server.table import TableOptions
from shengji.server.table.catalog import preset_catalog
from shengji.server.table.idle import carry_over
from shengji.server.table.validate import (
    OptionError,
    room_max_deals,
    room_ruleset,
    room_stakes,
    server_bot,
    unplayable,
)

log = logging.getLogger("shengji.server.lobby")


class RoomWatcher(Protocol):
    """Told when a room starts or stops running in this lobby (server/cluster/router.py: the
    room's Redis channel and listing follow)."""

    async def room_started(self, room: Room) -> None: ...

    def room_stopped(self, code: str) -> None: ...


class LobbyError(ValueError):
    """A room that cannot be created (the server's limits); a bad option is an
    ``OptionError`` (server/table/validate.py) naming the field."""


class LobbyFull(LobbyError):
    """The server has ``max_rooms`` live rooms: none can be created until one closes."""


__all__ = ["Lobby", "LobbyError", "LobbyFull", "OptionError", "preset_catalog", "unplayable"]


class Lobby:
    """Rooms by code, one task each."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        bots: BotRunner,
        leases: LeaseKeeper | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        if leases is None:  # kept on PostgreSQL, none on SQLite (one process per data dir)
            leases = LeaseKeeper(store, settings, enabled=not store.sqlite)
        self.leases = leases
        """This process's room leases (server/store/lease_keeper.py): a room runs here only while
        its lease is ours; the keeper hands over rooms to adopt and rooms lost."""
        leases.on_adopt = self.adopt
        leases.on_lost = self.lose
        self.pace = TableOptions.from_settings(settings)
        """New rooms' pace (room options) unless their creator chose theirs."""
        self.rooms: dict[str, Room] = {}
        """Rooms in memory, by code."""
        self.idle: dict[str, IdleRoom] = {}
        """Rooms unloaded while idle (server/live/idle_rooms.py), by code: ``load`` brings one
        back."""
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.failed: dict[str, str] = {}
        """Rooms that failed while this server ran (quarantined), by code: a client that
        comes to one is told so (``room-failed``) rather than ``no-room``."""
        self._lock = asyncio.Lock()
        self.watchers: list[RoomWatcher] = []
        """Told when rooms start and stop here (the router, with Redis)."""
        self._closing: set[asyncio.Task[None]] = set()
        """Rooms their table closed, being stopped (``_close_soon``)."""
        store.health.on_back.append(lambda: wake_paused(self.rooms.values()))

    async def restore(self) -> int:
        """Claim every open room this process may run (on SQLite, alone: all of them;
        on PostgreSQL those whose lease expired or was its own: server/store/lease_keeper.py)
        and reload them from the database (matches replayed); returns the count."""
        if self.leases.enabled:
            await self.adopt(await self.leases.claim(at_start=True))
        else:
            await self.adopt(None)
        return len(self.rooms)

    async def adopt(self, room_ids: Collection[int] | None) -> None:
        """Replay and start the rooms whose leases this process just claimed (at start, or
        from an owner that stopped renewing; None: every open room, when this process is
        alone on its database); each is announced to the watchers (the router listens to
        its channel and lists it).

        A room that cannot be restored is quarantined (logged once, marked in the database,
        not loaded again: server/live/quarantine.py); the others are restored all the same."""
        if room_ids is not None and not room_ids:
            return
        async with self._lock:
            started: set[int] = set()
            for stored in await self.store.rooms.load_open(only=room_ids):
                room = await self._restored(stored)
                if room is not None:
                    self._add(room)
                    started.add(room.rid)
                    await self._started(room)
            for rid in set(room_ids or ()) - started:  # closed or set aside meanwhile
                self.leases.forget(rid)

    async def lose(self, room_ids: Collection[int]) -> None:
        """Stop at once the rooms whose leases another process holds now: their clients
        are told to reconnect (``moved``, close code 4409), nothing more is written, the
        watchers hear they stopped here. A room unloaded while idle is just forgotten."""
        for room in [r for r in self.rooms.values() if r.rid in room_ids]:
            await room.lose()
        for code, stub in list(self.idle.items()):
            if stub.rid in room_ids and code not in self._loading:
                del self.idle[code]
                self._stopped(code)

    async def _restored(self, stored: StoredRoom) -> Room | None:
        """The room a row and its log describe (not started); None if it cannot be
        restored, and then it is quarantined."""
        try:
            if stored.problem is not None:
                raise ValueError(stored.problem)
            room = Room(
                rid=stored.id,
                code=stored.code,
                preset=stored.preset,
                ruleset=Ruleset.from_dict(stored.ruleset),
                seed=stored.seed,
                private=stored.private,
                max_deals=stored.max_deals,
                settings=self.settings,
                store=self.store,
                bots=self.bots,
                stakes=StakeRules.from_dict(stored.stakes),
                owner=stored.owner,
                options=TableOptions.from_dict(
                    stored.state.get("options"), stored.private, self.pace
                ),
            )
            room.restore(stored.state, stored.last_seq, stored.actions, stored.last_pos)
            for seat in room.seats:  # a bot spec refused since it was seated
                if seat.kind == "bot":
                    server_bot(seat.bot, self.settings.bot_budget_s)
        except Exception as exc:
            why = f"restore: {describe(exc)}"
            log.error(
                "room %s could not be restored and is quarantined "
                "(see `shengji rooms quarantined`): %s",
                stored.code[:6],
                why,
            )
            log.debug("room %s restore traceback", stored.code[:6], exc_info=exc)
            await quarantine(self.store, stored.id, stored.code, why)
            return None
        return room

    # ------------------------------------------------------------------ idle rooms

    def unload(self, room: Room, now: float) -> bool:
        """Swap ``room`` for a stub if it is idle (server/live/idle_rooms.py); True if it was.
        Its task is stopped by ``Janitor`` (``room.stop()``); a client coming meanwhile
        reloads it from the log."""
        if self.rooms.get(room.code) is not room or not unloadable(
            room, now, self.settings.idle_unload_s
        ):
            return False
        self.idle[room.code] = stub_of(room, now)
        del self.rooms[room.code]
        room.closed = True  # nothing reaches it any more: the stub stands for it
        return True

    async def load(self, code: str) -> Room | None:
        """The room with this code, reloaded from the log if it was unloaded; None if there
        is none (or it could not be reloaded: then it is quarantined). A storage fault is
        raised (the room stays unloaded)."""
        room = self.rooms.get(code)
        if room is not None or code not in self.idle:
            return room
        loading = self._loading.get(code)
        if loading is None:
            loading = self._loading[code] = asyncio.ensure_future(self._reload(code))
            loading.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(loading)

    async def _reload(self, code: str) -> Room | None:
        stub = self.idle[code]
        if not self.leases.holds(stub.rid):  # another process runs it now
            self.idle.pop(code, None)
            self._stopped(code)
            return None
        stored = await self.store.rooms.load(stub.rid)
        if stored is None:  # closed or set aside meanwhile
            self.idle.pop(code, None)
            return None
        room = await self._restored(stored)
        if room is None:
            self.failed[code] = "could not be reloaded"
        if self.idle.pop(code, None) is None or room is None:  # closed meanwhile, or failed
            return None
        try:
            room.table = carry_over(room.table, stub.carry)
        except ValueError as exc:  # the log lost rows: go on from the log, say so
            log.warning("room %s reloaded from its log only: %s", code[:6], exc)
        self._add(room)
        log.debug("room %s reloaded", code[:6])
        return room

    async def close_idle(self, code: str) -> bool:
        """Close an unloaded room for good (expiry); False if it is being reloaded."""
        stub = self.idle.get(code)
        if stub is None or code in self._loading:
            return False
        del self.idle[code]
        self._stopped(code)
        await self._close_stored(stub.rid, code)
        return True

    def info(self, code: str) -> Any:
        """A room as ``GET /api/rooms/{code}`` shows it (plain JSON values), loaded or not;
        None if there is none."""
        room = self.rooms.get(code)
        if room is not None:
            return msgspec.to_builtins(room.info())
        stub = self.idle.get(code)
        return None if stub is None else stub.info_json()

    def listing(self) -> list[Any]:
        """Public rooms as the room list shows them, newest first, unloaded ones too."""
        live: list[Room | IdleRoom] = [*self.rooms.values(), *self.idle.values()]
        rooms = [(r.rid, r) for r in live if not r.private]
        rooms.sort(key=lambda x: x[0], reverse=True)
        return [
            r.info_json() if isinstance(r, IdleRoom) else msgspec.to_builtins(r.info())
            for _, r in rooms
        ]

    @property
    def count(self) -> int:
        """Live rooms, loaded or not (``max_rooms`` counts both)."""
        return len(self.rooms) + len(self.idle)

    def pace_defaults(self, private: bool) -> TableOptions:
        """The pace a new public or private room gets unless its creator chooses."""
        return TableOptions.defaults(private, self.pace)

    def _add(self, room: Room) -> None:
        """Keep and start a room; a room that fails is forgotten (quarantined), one whose
        lease is lost too (another process runs it now)."""
        room.on_failure = self._forget
        room.on_lost = self._lost
        room.on_close = self._close_soon
        self.rooms[room.code] = room
        room.start()

    def _lost(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self.leases.lost(room.rid)
        self._stopped(room.code)

    async def _started(self, room: Room) -> None:
        for w in self.watchers:
            await w.room_started(room)

    def _stopped(self, code: str) -> None:
        for w in self.watchers:
            w.room_stopped(code)

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self.failed[room.code] = room.failed or "failed"
        self._stopped(room.code)

    async def create(
        self,
        creator: str | None,
        preset_name: str,
        options: dict[str, Any] | None,
        private: bool,
        max_deals: int | None,
        stakes: dict[str, Any] | None = None,
        table: dict[str, Any] | None = None,
    ) -> Room:
        """A new room (its code is unguessable); ``stakes`` says what it plays for
        (``{"kind": "coins", "coefficient": 1000}``; None: the preset's default, plain for
        every preset but ``huanle``'s 欢乐豆, see ``PRESET_INFO`` and server/live/stakes.py)."""
        if self.count >= self.settings.max_rooms:
            raise LobbyFull("the server has as many rooms as it may; try again later")
        ruleset = room_ruleset(preset_name, options)  # OptionError names the field
        max_deals = room_max_deals(max_deals)
        if stakes is None and preset_name in PRESET_INFO:  # the preset's own (huanle: 欢乐豆)
            stakes = dict(PRESET_INFO[preset_name].stakes)
        rules = room_stakes(stakes)
        pace = TableOptions.parse(table, private, self.pace)  # OptionError names the field
        code = secrets.token_urlsafe(12)
        seed = secrets.token_hex(8)
        room = Room(
            rid=0,
            code=code,
            preset=preset_name,
            ruleset=ruleset,
            seed=seed,
            private=private,
            max_deals=max_deals,
            settings=self.settings,
            store=self.store,
            bots=self.bots,
            stakes=rules,
            owner=creator,
            options=pace,
        )
        room.rid = await self.store.rooms.create(
            code,
            preset_name,
            ruleset.to_dict(),
            seed,
            private,
            max_deals,
            creator,
            room.room_state(),
            None if rules.kind == "plain" else rules.to_dict(),
            lease=self.leases.new_room(),
        )
        self.leases.hold(room.rid)
        self._add(room)
        await self._started(room)
        return room

    def get(self, code: str) -> Room | None:
        """The room with this code if it is in memory (``load`` reloads an unloaded one)."""
        return self.rooms.get(code)

    def owned_by(self, player: str) -> int:
        """How many live rooms ``player`` owns."""
        live: list[Room | IdleRoom] = [*self.rooms.values(), *self.idle.values()]
        return sum(1 for r in live if r.owner == player)

    def _close_soon(self, room: Room) -> None:
        """The table closed ``room`` for good: close it from a task of the lobby's."""
        task = asyncio.create_task(self.close_room(room))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close_room(self, room: Room) -> None:
        """Close a room for good: out of the lobby, its task stopped, its row closed."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self._stopped(room.code)
        await room.stop()
        await self._close_stored(room.rid, room.code)

    async def _close_stored(self, rid: int, code: str) -> None:
        """Close the room's row and drop its lease; a room another process runs now (its
        lease was taken meanwhile) is left to that process."""
        try:
            await self.store.rooms.close(rid)
        except LeaseLost:
            log.warning("room %s was not closed: another process runs it now", code[:6])
            self.leases.lost(rid)
            return
        self.leases.forget(rid)

    async def close(self) -> None:
        """Stop every room (their leases are released after: ``LeaseKeeper.stop``)."""
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
        for room in list(self.rooms.values()):
            self._stopped(room.code)
            await room.stop()
