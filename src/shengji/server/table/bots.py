"""Which bots a room may seat, and the table's own quick choices (a fallback move, a hint).

The table never runs a bot itself: it asks the shell (``AskBot``) and takes the answer as a
command. What it does itself is cheap and seeded by the table's state, so a table stays a
function of its commands: a random legal move when a bot failed or answered nonsense, and a
random legal hint.

>>> checked_bot(" Heuristic ", 2.0)
'heuristic'
"""

from __future__ import annotations

import random

from shengji.core.actions import Action
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.server.table.validate import server_bot

HINT_BOTS = ("random", "heuristic")
"""Bots a client may ask for a hint (cheap ones: a hint never holds up the bot pool)."""


def checked_bot(name: str, budget_s: float) -> str:
    """A bot spec this server accepts (known, finite, thinking within ``budget_s``),
    normalised; ``ValueError`` saying why not otherwise (server/table/validate.py)."""
    return server_bot(name, budget_s)


def seeded_rng(*parts: object) -> random.Random:
    """A generator seeded by the table's state (the same commands, the same choices)."""
    return random.Random("/".join(str(p) for p in parts))


def fallback_move(deal: DealState, seat: int, rng: random.Random) -> Action | None:
    """A legal move for ``seat`` when its bot gave none (None while dealing: no declaration)."""
    if deal.phase is Phase.DEALING:
        return None
    legal = deal.legal_actions(seat)
    return legal.sample(rng) if legal else None
