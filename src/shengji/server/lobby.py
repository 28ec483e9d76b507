"""The lobby: every room of this server by code; creates rooms and restores them on start.

Room codes are ``secrets.token_urlsafe(12)`` (96 random bits): unguessable.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from shengji.core.cards import LEVELS
from shengji.core.errors import RulesetError
from shengji.core.match import OUTCOME_RULES
from shengji.core.ruleset import PRESETS, RESERVED_PRESETS, Ruleset, preset
from shengji.server.bots_runner import BotRunner
from shengji.server.rooms import Room
from shengji.server.settings import Settings
from shengji.server.stakes import StakeRules
from shengji.server.storage import Store

log = logging.getLogger("shengji.server.lobby")


class LobbyError(ValueError):
    """A room that cannot be created (bad preset, options or limits)."""


def unplayable(ruleset: Ruleset) -> str | None:
    """Why this server cannot run ``ruleset`` (None: it can).

    >>> unplayable(PRESETS["classic"]) is None
    True
    >>> unplayable(PRESETS["classic"].replace({"players": 5, "kitty_size": 8}))
    'fixed partnerships need an even number of players, not 5'
    """
    if ruleset.partnership == "fixed" and ruleset.players % 2:
        return f"fixed partnerships need an even number of players, not {ruleset.players}"
    if ruleset.partnership not in OUTCOME_RULES:
        return f"the engine does not score {ruleset.partnership} partnerships yet"
    return None


def preset_catalog() -> list[dict[str, Any]]:
    """Every preset name with what the create-room form shows: seats, decks, the level
    sequence, the whole ruleset (the options' defaults), and whether this server plays it
    (``reason`` says why not).

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
        out.append(
            {
                "name": name,
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

    def __init__(self, settings: Settings, store: Store, bots: BotRunner) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.rooms: dict[str, Room] = {}
        self._lock = asyncio.Lock()

    async def restore(self) -> int:
        """Reload every open room from the database (matches replayed); returns the count."""
        for stored in await self.store.load_rooms():
            try:
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
                )
                room.stakes = StakeRules.from_dict(stored.stakes)
                room.restore(stored.state, stored.last_seq, stored.actions)
            except Exception:
                log.exception("room %s could not be restored", stored.code[:6])
                continue
            self.rooms[room.code] = room
            room.start()
        return len(self.rooms)

    async def create(
        self,
        creator: str | None,
        preset_name: str,
        options: dict[str, Any] | None,
        private: bool,
        max_deals: int | None,
        stakes: dict[str, Any] | None = None,
    ) -> Room:
        """A new room (its code is unguessable); ``stakes`` says what it plays for
        (``{"kind": "coins", "coefficient": 1000}``; default plain, see server/stakes.py)."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise LobbyError("the server has as many rooms as it may")
        if max_deals is not None and max_deals < 1:
            raise LobbyError("max_deals must be at least 1")
        try:
            ruleset = preset(preset_name, options or None)
        except (ValueError, TypeError) as e:
            raise LobbyError(str(e)) from e
        why = unplayable(ruleset)
        if why is not None:
            raise LobbyError(f"preset {preset_name!r} cannot be played here: {why}")
        try:
            rules = StakeRules.from_dict(stakes)
        except ValueError as e:
            raise LobbyError(str(e)) from e
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
        )
        room.stakes = rules
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
        )
        self.rooms[code] = room
        room.start()
        return room

    def get(self, code: str) -> Room | None:
        """The room with this code."""
        return self.rooms.get(code)

    def open_rooms(self) -> list[Room]:
        """Public rooms, newest first."""
        return [r for r in reversed(self.rooms.values()) if not r.private]

    async def close(self) -> None:
        """Stop every room."""
        for room in list(self.rooms.values()):
            await room.stop()
