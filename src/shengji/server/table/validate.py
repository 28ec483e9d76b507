"""Every option of a new room checked before the room exists (docs/protocol.md, "Limits").

The rules' own checks live in the core (``Ruleset.validate``: hand sizes, the kitty, ranks,
ranges; ``StakeRules``); this module adds what this server can run (``unplayable``), the
room's own options (``max_deals``, seated bots) and names the field at fault, so a refused
request gets ``400 {"detail": "...", "field": "options.kitty_size"}`` and changes nothing.

>>> try:
...     room_ruleset("classic", {"kitty_size": 108})
... except OptionError as e:
...     print(e.field)
options.kitty_size
>>> room_max_deals(3), room_max_deals(None)
(3, None)
"""

from __future__ import annotations

from typing import Any

from shengji.bots.plugins import entry_point_names, is_import_path
from shengji.bots.registry import parse_bot_spec
from shengji.core.errors import RulesetError
from shengji.core.match import OUTCOME_RULES
from shengji.core.ruleset import Ruleset, preset
from shengji.core.stakes import StakeRules

MAX_DEALS = 1000
"""Largest ``max_deals`` of a room (a match is over long before: 13 levels)."""


class OptionError(ValueError):
    """A refused room option: ``field`` names it (``options.kitty_size``, ``bots.2``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


def unplayable(ruleset: Ruleset) -> str | None:
    """Why this server cannot run ``ruleset`` (None: it can).

    >>> from shengji.core.ruleset import PRESETS
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


def room_ruleset(preset_name: Any, options: Any) -> Ruleset:
    """The ruleset of a new room: the preset with ``options`` over it, checked by the core
    and playable here; ``OptionError`` naming the option otherwise."""
    if not isinstance(preset_name, str):
        raise OptionError("preset", "the preset is a name such as 'classic'")
    if options is not None and not isinstance(options, dict):
        raise OptionError("options", "options are an object of ruleset fields")
    try:
        ruleset = preset(preset_name, options or None)
    except RulesetError as e:
        field = e.field if e.field in (None, "preset") else f"options.{e.field}"
        raise OptionError(field or "options", e.message) from e
    why = unplayable(ruleset)
    if why is not None:
        field = next((f"options.{k}" for k in ("players", "partnership") if k in (options or {})),
                     "preset")
        raise OptionError(field, f"preset {preset_name!r} cannot be played here: {why}")
    return ruleset


def room_max_deals(value: Any) -> int | None:
    """``max_deals``: None (play the match out) or 1..``MAX_DEALS``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_DEALS:
        raise OptionError("max_deals", f"max_deals must be 1..{MAX_DEALS} or null")
    return value


def room_stakes(stakes: Any) -> StakeRules:
    """What the room plays for (``StakeRules.from_dict``)."""
    if stakes is not None and not isinstance(stakes, dict):
        raise OptionError("stakes", "stakes are an object such as {\"kind\": \"rating\"}")
    try:
        return StakeRules.from_dict(stakes)
    except RulesetError as e:
        raise OptionError("stakes", e.message) from e


def server_bot(name: Any, budget_s: float) -> str:
    """A bot spec this server accepts, normalised (``"Search:200"`` → ``"search:200"``):
    known, finite and bounded (``parse_bot_spec``), and thinking no longer than the server
    gives a bot (``bot_budget_s``), or a plug-in bot the operator installed (an entry point
    in the group ``shengji.bots``: bots/plugins.py); ``ValueError`` with a clear message
    otherwise. A client's import path (``os:system``) is never imported.

    >>> server_bot("search:5000", 2.0)
    Traceback (most recent call last):
    ...
    ValueError: bot 'search:5000' would think 5000 ms; this server gives a bot 2000 ms a move
    """
    if not isinstance(name, str):
        raise ValueError("a bot is named by a string such as 'random'")
    try:
        spec = parse_bot_spec(name)
    except ValueError as e:
        key = name.strip().lower()
        if key in entry_point_names():  # installed by the operator; never an import path
            return key
        if is_import_path(name):
            raise ValueError(
                f"bot {name!r} is an import path; this server seats only built-in bots and the "
                f"plug-ins its operator installed ({', '.join(entry_point_names()) or 'none'})"
            ) from e
        raise
    if spec.think_ms is not None and spec.think_ms > budget_s * 1000:
        raise ValueError(
            f"bot {name!r} would think {spec.think_ms:g} ms; this server gives a bot "
            f"{budget_s * 1000:g} ms a move"
        )
    return name.strip().lower()


def room_bots(bots: dict[int, Any], players: int, budget_s: float) -> dict[int, str]:
    """Seats to fill with bots at once: seats 0..players-1, each a spec ``server_bot``
    accepts; ``OptionError`` naming the seat (``bots.2``) otherwise."""
    out: dict[int, str] = {}
    for seat, name in bots.items():
        if not 0 <= seat < players:
            raise OptionError(f"bots.{seat}", f"seats are 0..{players - 1}")
        try:
            out[seat] = server_bot(name, budget_s)
        except ValueError as e:
            raise OptionError(f"bots.{seat}", str(e)) from e
    return out
