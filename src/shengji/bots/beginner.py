"""The beginner level (新手): the heuristic player, but a third of its plays are random.

It declares, buries and calls like ``heuristic``; each lead or follow is, with chance
``BLUNDER``, a uniformly random legal play instead of the heuristic's choice.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.driver import play_match
>>> bots = [BeginnerBot(seed=i) for i in range(4)]
>>> state, _ = play_match(PRESETS["one-deck"], bots, seed=2, deals=1)
>>> len(state.history)
1
"""

from __future__ import annotations

from typing import Final

from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.views import DealView

BLUNDER: Final = 1 / 3
"""Chance that a lead or follow is a random legal play."""


class BeginnerBot(HeuristicBot):
    """``heuristic`` with random plays mixed in (seeded, so deterministic for a seed)."""

    name = "beginner"

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """A random play with chance ``BLUNDER``, else the heuristic's choice."""
        if legal.kind in ("lead", "follow") and self.rng.random() < BLUNDER:
            return legal.sample(self.rng)
        return super().choose(view, legal)
