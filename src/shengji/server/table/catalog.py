"""The presets as the create-room form and ``/api/meta`` list them (``preset_catalog``)."""

from __future__ import annotations

from typing import Any

from shengji.core.cards import LEVELS
from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESET_INFO, PRESETS, RESERVED_PRESETS, preset
from shengji.server.table.validate import unplayable


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
