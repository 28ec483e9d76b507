"""A uniformly random legal player: the baseline every other bot must beat.

It declares now and then, buries at random, leads a random unit (sometimes a random
throw) and follows with a random legal play.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> from shengji.core.views import view_for
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> str(RandomBot(seed=2).choose(view_for(s, 0), s.legal_actions(-1)))
'deal'
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from shengji.core.actions import Action, Pass
from shengji.core.draws import pick
from shengji.core.legal import LegalActions
from shengji.core.phases import PHASE_PLAYING, Phase
from shengji.core.views import DealView


# a plugin bot may subclass it in the compiled build too (docs/bots.md, "Plugins")
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Random legal actions from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | str | None = None, declare_chance: float = 0.3) -> None:
        self.rng = random.Random(seed)
        self.declare_chance = declare_chance

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """A random legal action; declines most declaration chances."""
        phase = view.phase
        if phase is PHASE_PLAYING:  # most decisions: a lead or a follow
            return legal.sample(self.rng)
        if phase is Phase.DEALING and legal.seat >= 0:
            if not legal.small or self.rng.random() >= self.declare_chance:
                return None
            return pick(self.rng, legal.small)
        if phase is Phase.DECLARING or phase is Phase.REBURY:
            declares = [a for a in legal.small if not isinstance(a, Pass)]
            if declares and self.rng.random() < self.declare_chance:
                return pick(self.rng, declares)
            return next(a for a in legal.small if isinstance(a, Pass))
        return legal.sample(self.rng)
