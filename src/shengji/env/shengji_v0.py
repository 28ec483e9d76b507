"""``shengji_v0``: the PettingZoo AEC environment, in PettingZoo's naming.

>>> e = env(preset="classic", render_mode="ansi")
>>> e.reset(seed=0)
>>> e.agents
['seat_0', 'seat_1', 'seat_2', 'seat_3']
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from shengji.env.aec import ShengjiEnv

raw_env = ShengjiEnv


def env(
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper (keyword arguments as
    ``ShengjiEnv``: ``reward``, ``level``, ``dealer``)."""
    return wrappers.OrderEnforcingWrapper(ShengjiEnv(preset, options, render_mode, **kwargs))
