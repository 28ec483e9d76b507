"""The lobby: every room this process runs, by code; creates rooms, restores them on start
and adopts those whose owner died (their leases: server/lease.py).

Room codes are ``secrets.token_urlsafe(12)`` (96 random bits): unguessable.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Collection
from typing import Any, Literal

from shengji.core.cards import LEVELS
from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESET_INFO, PRESETS, RESERVED_PRESETS, Ruleset, preset
from shengji.server.bots_runner import BotRunner
from shengji.server.lease import LeaseKeeper
from shengji.server.quarantine import describe, quarantine
from shengji.server.rooms import Room
from shengji.server.settings import Settings
from shengji.server.stakes import StakeRules
from shengji.server.storage import Store
from shengji.server.table import TableOptions
from shengji.server.validate import (
    OptionError,
    room_max_deals,
    room_ruleset,
    room_stakes,
    server_bot,
    unplayable,
)

log = logging.getLogger("shengji.server.lobby")


class LobbyError(ValueError):
    """A room that cannot be created (the server's limits); a bad option is an
    ``OptionError`` (server/validate.py) naming the field."""


class LobbyFull(LobbyError):
    """The server has ``max_rooms`` live rooms: none can be created until one closes."""


__all__ = ["Lobby", "LobbyError", "LobbyFull", "OptionError", "preset_catalog", "unplayable"]


def preset_catalog() -> list[dict[str, Any]]:
    """Every preset name with what the create-room form shows: seats, decks, the level
    sequence, the whole ruleset (the options' defaults), the rule sheet it follows
    (``source``), the stakes a room of it plays for by default (``stakes``), and whether this
    server plays it (``reason`` says why not).

    >>> [p["name"] for p in preset_catalog()][:2]
    ['classic', 'lianzhong']
    """
    out: list[dict[str, Any]] = []
    for name in (*PRESETS, *(n for n in RESERVED_PRESETS if n not in PRESETS)):
        try:
            rs = preset(name)
        except RulesetError as e:
            out.append({"name": name, "playable": False, "reason": e.message})
            continue
        why = unplayable(rs)
        info = PRESET_INFO.get(name)
        out.append(
            {
                "name": name,
                "source": info.source if info else None,
                "stakes": dict(info.stakes) if info else {"kind": "plain"},
                "players": rs.players,
                "decks": rs.decks,
                "kitty_size": rs.kitty_size,
                "level_sequence": [LEVELS[r] for r in rs.level_sequence],
                "partnership": rs.partnership,
                "ruleset": rs.to_dict(),
                "playable": why is None,
                "reason": why,
            }
        )
    return out


class Lobby:
    """Rooms by code, one task each."""

    def __init__(
        self, settings: Settings, store: Store, bots: BotRunner, leases: LeaseKeeper
    ) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.leases = leases
        """This process's room leases (server/lease.py): a room runs here only while
        its lease is ours; the keeper hands over rooms to adopt and rooms lost."""
        leases.on_adopt = self.adopt
        leases.on_lost = self.lose
        self.pace = TableOptions.from_settings(settings)
        """New rooms' pace (room options) unless their creator chose theirs."""
        self.rooms: dict[str, Room] = {}
        self.failed: dict[str, str] = {}
        """Rooms that failed while this server ran (quarantined), by code: a client that
        comes to one is told so (``room-failed``) rather than ``no-room``."""
        self._lock = asyncio.Lock()

    async def restore(self) -> int:
        """Claim every open room whose lease may be claimed (alone on SQLite: all of them)
        and reload them from the database (matches replayed); returns the count."""
        await self.adopt(await self.leases.claim(at_start=True))
        return len(self.rooms)

    async def adopt(self, room_ids: Collection[int]) -> None:
        """Replay and start the rooms whose leases this process just claimed (at start, or
        from an owner that stopped renewing).

        A room that cannot be restored is quarantined (logged once, marked in the database,
        not loaded again: server/quarantine.py); the others are restored all the same."""
        if not room_ids:
            return
        async with self._lock:
            await self._restore(room_ids)

    async def _restore(self, room_ids: Collection[int]) -> None:
        for stored in await self.store.load_rooms(only=room_ids):
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
                room.restore(stored.state, stored.last_seq, stored.actions)
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
                continue
            self._add(room, "adopted")

    async def lose(self, room_ids: Collection[int]) -> None:
        """Stop at once the rooms whose leases another process holds now: their clients
        are told to reconnect (``moved``, close code 4409) and nothing more is written."""
        for room in [r for r in self.rooms.values() if r.rid in room_ids]:
            await room.lose()

    def pace_defaults(self, private: bool) -> TableOptions:
        """The pace a new public or private room gets unless its creator chooses."""
        return TableOptions.defaults(private, self.pace)

    def _add(self, room: Room, why: Literal["created", "adopted"]) -> None:
        """Keep and start a room; a room that fails is forgotten (quarantined), one whose
        lease is lost too (another process runs it)."""
        room.on_failure = self._forget
        room.on_lost = self._lost
        self.rooms[room.code] = room
        room.start()
        self.leases.changed(room.code, room.rid, True, why)

    def _lost(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self.leases.lost(room.rid)
        self.leases.changed(room.code, room.rid, False, "lost")

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        self.failed[room.code] = room.failed or "failed"

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
        every preset but ``huanle``'s 欢乐豆, see ``PRESET_INFO`` and server/stakes.py)."""
        if len(self.rooms) >= self.settings.max_rooms:
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
        room.rid = await self.store.create_room(
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
        self._add(room, "created")
        return room

    def get(self, code: str) -> Room | None:
        """The room with this code."""
        return self.rooms.get(code)

    def owned_by(self, player: str) -> int:
        """How many live rooms ``player`` owns."""
        return sum(1 for r in self.rooms.values() if r.owner == player)

    async def close_room(self, room: Room) -> None:
        """Close a room for good: out of the lobby, its task stopped, its row closed."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        await room.stop()
        await self.store.close_room(room.rid)  # LeaseLost if another process runs it now
        self.leases.forget(room.rid)
        self.leases.changed(room.code, room.rid, False, "closed")

    def open_rooms(self) -> list[Room]:
        """Public rooms, newest first."""
        return [r for r in reversed(self.rooms.values()) if not r.private]

    async def close(self) -> None:
        """Stop every room (their leases are released after: ``LeaseKeeper.stop``)."""
        for room in list(self.rooms.values()):
            await room.stop()
            self.leases.changed(room.code, room.rid, False, "released")
