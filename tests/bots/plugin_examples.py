"""Bots for the plug-in tests, loaded by import path (``tests.bots.plugin_examples:…``)."""

from __future__ import annotations

import os
import time

from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Action, Play
from shengji.core.legal import LegalActions
from shengji.core.phases import Phase
from shengji.core.views import DealView


class IllegalBot(RandomBot):
    """Plays random legal actions until the first trick, then leads a card it may not hold."""

    name = "illegal"

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        if view.phase is Phase.PLAYING:
            held = [k for k in range(54) if view.hand_counts[k]]
            missing = next(k for k in range(54) if k not in held)
            return Play(legal.seat, (missing,))
        return super().choose(view, legal)


class CrashBot(RandomBot):
    """Raises in the middle of the play."""

    name = "crash"

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        if view.phase is Phase.PLAYING and len(view.tricks) >= 2:
            raise ZeroDivisionError("oops")
        return super().choose(view, legal)


class SlowRandomBot(RandomBot):
    """``random``'s choices (same seed, same moves), ``SLOW_BOT_MS`` (default 1) ms each: for
    long-run tests."""

    name = "slow-random"

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.pause = float(os.environ.get("SLOW_BOT_MS", "1")) / 1000

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        if self.pause:
            time.sleep(self.pause)
        return super().choose(view, legal)


class NotABot:
    """Has no ``choose``."""

    name = "nothing"


def make_random(seed: int | str) -> RandomBot:
    """A factory function instead of a class."""
    return RandomBot(seed)
