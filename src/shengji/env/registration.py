"""Gymnasium ids for every preset: ``gymnasium.make("shengji/Classic-v0")`` is
``SingleSeatEnv(preset="classic")`` (seat 0 learns, ``random`` bots play the others; any
``SingleSeatEnv`` keyword passes through ``make``). ``import shengji.env`` registers them;
``gymnasium.make("shengji.env:shengji/Classic-v0")`` imports it for you.

>>> env_id("lianzhong-three-deck")
'shengji/LianzhongThreeDeck-v0'
>>> import gymnasium
>>> gymnasium.spec(env_id("one-deck")).kwargs
{'preset': 'one-deck'}
"""

from __future__ import annotations

from typing import Final

import gymnasium

from shengji.core.ruleset import PRESETS

NAMESPACE: Final = "shengji"
ENTRY_POINT: Final = "shengji.env.gym_env:SingleSeatEnv"


def env_id(preset: str) -> str:
    """The Gymnasium id of a preset: ``one-deck`` → ``shengji/OneDeck-v0``."""
    name = "".join(part.capitalize() for part in preset.split("-"))
    return f"{NAMESPACE}/{name}-v0"


def register_presets() -> list[str]:
    """Register every preset (again: the same spec, no warning); the ids, sorted."""
    ids = []
    for preset in sorted(PRESETS):
        ident = env_id(preset)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=ENTRY_POINT, kwargs={"preset": preset},
                               disable_env_checker=False)
        ids.append(ident)
    return sorted(ids)


IDS: Final = register_presets()
"""Every registered id."""
