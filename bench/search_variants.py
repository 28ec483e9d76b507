"""Search variants for the ladder, by import path (``bench/ladder.py --rungs
search_variants:bold``): settings tried on the ladder before they become a spec or a default.

>>> bold(1).confidence
1.5
"""

from __future__ import annotations

from shengji.bots.search import SearchBot


def bold(seed: int | str) -> SearchBot:
    """``search`` (1 s, chains) overruling the heuristic at 1.5 standard errors above zero and
    a mean gain above 0.02 level (2 and 0.05 by default)."""
    return SearchBot(seed, think_ms=1000.0, confidence=1.5, margin=0.02)
