"""What a room's creator chooses about pace (``TableOptions``) and what the server sets for
every room (``Limits``, from ``Settings``).

The room options (``POST /api/rooms`` ``"table": {...}``, docs/protocol.md "Room options"):

- ``turn_s``: seconds a player has to play (0: no turn timer). On timeout the seat goes
  托管: the auto-play bot moves for it until its player acts or takes back; in a window
  that may be passed (declaring, 反底, a bid) a timeout is a pass instead.
- ``long_turn_s``: the same for burying, calling a friend, bidding and naming trump.
- ``next_deal_s``: how long the deal-end summary waits for every player's "next deal"
  (0: it does not wait; the next deal starts after the server's short pause).
- ``bot_pace``: in a room with one human, bots' moves show after this many times the
  server's bot delay: ``2`` slow, ``1`` normal, ``0.25`` fast (``BOT_PACES``). With more
  humans bots keep the normal pace.

Defaults (the server's settings ``SHENGJI_TURN_S``, ``SHENGJI_LONG_TURN_S``,
``SHENGJI_NEXT_DEAL_S``): 30 s / 60 s / 30 s; a private room has no turn timer (friends
wait for each other).

>>> TableOptions.defaults(private=False)
TableOptions(turn_s=30.0, long_turn_s=60.0, next_deal_s=30.0, bot_pace=1.0)
>>> TableOptions.defaults(private=True).turn_s
0.0
>>> TableOptions.parse({"turn_s": 2}, private=False)
Traceback (most recent call last):
...
shengji.server.table.validate.OptionError: table.turn_s: 0 (off) or 5..600 seconds, not 2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from shengji.server.table.validate import OptionError

BOUNDS = (5.0, 600.0)
"""A timer that is on runs at least 5 s and at most 10 minutes."""

BOT_PACES = {"slow": 2.0, "normal": 1.0, "fast": 0.25}
"""The bot speeds a room with one human may choose, as ``bot_pace`` factors."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A room's pace, chosen at creation (seconds; 0: off)."""

    turn_s: float = 30.0
    long_turn_s: float = 60.0
    next_deal_s: float = 30.0
    bot_pace: float = 1.0

    @classmethod
    def defaults(cls, private: bool, base: TableOptions | None = None) -> TableOptions:
        """The defaults of a public or a private room (``base``: the server's)."""
        out = base or cls()
        return replace(out, turn_s=0.0, long_turn_s=0.0) if private else out

    @classmethod
    def from_settings(cls, settings: Any) -> TableOptions:
        """The server's defaults (``Settings.turn_s`` ...; fields it lacks keep ours)."""
        mine = ("turn_s", "long_turn_s", "next_deal_s")
        return cls(**{f: float(getattr(settings, f)) for f in mine if hasattr(settings, f)})

    @classmethod
    def parse(
        cls, raw: Mapping[str, Any] | None, private: bool, base: TableOptions | None = None
    ) -> TableOptions:
        """Options from a request over the room's defaults; ``OptionError`` names a bad
        field."""
        out = cls.defaults(private, base)
        if not raw:
            return out
        if not isinstance(raw, Mapping):
            raise OptionError("table", "the room's pace is an object of seconds")
        unknown = sorted(set(raw) - set(asdict(out)))
        if unknown:
            known = ", ".join(asdict(out))
            raise OptionError(f"table.{unknown[0]}", f"unknown option; known: {known}")
        for name, value in raw.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise OptionError(f"table.{name}", f"a number of seconds, not {value!r}")
            v = float(value)
            if name == "bot_pace":
                if v not in BOT_PACES.values():
                    paces = ", ".join(f"{f:g} ({n})" for n, f in BOT_PACES.items())
                    raise OptionError(f"table.{name}", f"one of {paces}, not {value!r}")
            elif v != 0 and not BOUNDS[0] <= v <= BOUNDS[1]:
                raise OptionError(
                    f"table.{name}",
                    f"0 (off) or {BOUNDS[0]:g}..{BOUNDS[1]:g} seconds, not {value!r}",
                )
            out = replace(out, **{name: v})
        return out

    @classmethod
    def from_dict(
        cls, raw: Mapping[str, Any] | None, private: bool, base: TableOptions | None = None
    ) -> TableOptions:
        """Options as a room's stored state keeps them (lenient: defaults for what is
        missing, for a room stored before options existed)."""
        try:
            return cls.parse(raw, private, base)
        except ValueError:
            return cls.defaults(private, base)

    def to_dict(self) -> dict[str, float]:
        """As JSON (stored state, ``RoomInfo.options``)."""
        return asdict(self)

    def bot_delay_factor(self, humans: int) -> float:
        """How much of the server's bot delay a bot's move waits: ``bot_pace`` when one human
        plays with bots, else 1."""
        return self.bot_pace if humans == 1 else 1.0

    def turn_limit(self, long: bool) -> float:
        """Seconds for a turn (``long``: burying, calling, bidding, naming); 0: no timer."""
        return self.long_turn_s if long else self.turn_s


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's settings a table follows (``Limits.from_settings``)."""

    seat_grace_s: float = 30.0
    """A seated human away this long during a match: a stand-in bot plays for them."""
    waiting_grace_s: float = 60.0
    """Between matches, a seated human away this long loses the seat."""
    deal_pacing_s: float = 0.15
    """Seconds per dealt card."""
    deal_batch: int = 0
    """Cards dealt in one update: 0 a round (one to each seat), 1 one card at a time."""
    deal_end_pause_s: float = 3.0
    """Between deals when no human is waited for."""
    log_size: int = 1024
    """Sequenced messages the shell keeps for resuming clients."""
    chat_keep: int = 50
    chat_max_chars: int = 500
    max_spectators: int = 100
    substitute_bot: str = "random"
    auto_bot: str = "heuristic"
    bot_budget_s: float = 2.0
    """A bot's think time; a seated bot spec may not ask for more."""
    retry_first_s: float = 0.1
    retry_max_s: float = 5.0
    max_unwritten: int = 256
    """Records waiting for the database at most; more client messages are refused."""
    nudge_every_s: float = 5.0
    clock_scale: float = 1.0
    """Turn clocks run this share of the room's seconds (a test setting; 1: as chosen)."""

    @classmethod
    def from_settings(cls, settings: Any) -> Limits:
        """The limits a server's ``Settings`` give (fields it lacks keep their defaults)."""
        names = {f: getattr(settings, f) for f in cls.__dataclass_fields__ if hasattr(settings, f)}
        alias = {
            "retry_first_s": "storage_retry_first_s",
            "retry_max_s": "storage_retry_max_s",
        }
        for mine, theirs in alias.items():
            if hasattr(settings, theirs):
                names[mine] = getattr(settings, theirs)
        return cls(**names)
