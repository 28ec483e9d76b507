"""The bot protocol: a bot sees only its seat's view and the legal actions.

>>> from shengji.bots.random import RandomBot
>>> isinstance(RandomBot(seed=1), Bot)
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from shengji.core.actions import Action
from shengji.core.legal import LegalActions
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
