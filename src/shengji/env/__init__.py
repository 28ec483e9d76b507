"""Reinforcement-learning environments (optional extra ``env``: pettingzoo, gymnasium, numpy).

``from shengji.env import shengji_v0; env = shengji_v0.env(preset="classic")`` is the
PettingZoo AEC environment of one deal; ``shengji.env.gym_env.SingleSeatEnv`` is the
Gymnasium wrapper for one seat against named bots, registered for every preset when this
package is imported (``gymnasium.make("shengji/Classic-v0")``, ``registration.py``).
``shengji.env.actions`` (the action catalogue) needs only the core. See docs/research.md.
"""

from __future__ import annotations

from importlib.util import find_spec

if find_spec("gymnasium") is not None:  # the env extra; the action catalogue needs none
    from shengji.env import registration as registration
