"""The bot protocol: a bot sees only its seat's view and the legal actions.

>>> from shengji.bots.random_bot import RandomBot
>>> isinstance(RandomBot(seed=1), Bot)
True
"""

from __future__ import annotations

import time
from typing import Protocol, runtime_checkable

from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.state import DealState
from shengji.core.views import DealView


@runtime_checkable
class Bot(Protocol):
    """Chooses an action for one seat.

    ``choose`` returns one of ``legal``'s actions. While the cards are being dealt a bot is
    asked whether it wants to declare; returning None there means "not now".
    """

    name: str

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """The action to take (None only to decline a declaration while dealing)."""
        ...


class TimedBot:
    """Wraps a bot and appends how long each decision took (seconds of CPU time of the
    deciding thread, so a busy machine does not inflate them) to ``sink``."""

    def __init__(self, bot: Bot, sink: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.sink = sink

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """The wrapped bot's choice, timed."""
        t = time.thread_time()
        try:
            return self.bot.choose(view, legal)
        finally:
            self.sink.append(time.thread_time() - t)

    def peek(self, deal: DealState) -> None:
        """Pass the whole deal on to an omniscient bot (arena only; see ``driver``)."""
        peek = getattr(self.bot, "peek", None)
        if peek is not None:
            peek(deal)
