"""Search variants for the ladder, by import path (``bench/ladder.py --rungs
search_variants:bold``): settings tried on the ladder before they become a spec or a
default. Those run before the burial evidence became the default (2026-12-04) keep it off,
as they ran.

>>> bold(1).confidence
1.5
"""

from __future__ import annotations

from shengji.bots.cheat import CheatBot
from shengji.bots.search import SearchBot


def bold(seed: int | str) -> SearchBot:
    """``search`` (1 s, chains) overruling the heuristic at 1.5 standard errors above zero and
    a mean gain above 0.02 level (2 and 0.05 by default)."""
    return SearchBot(seed, think_ms=1000.0, confidence=1.5, margin=0.02,
                     burial=False)


def careful(seed: int | str) -> SearchBot:
    """``search`` (1 s, chains) overruling the heuristic only at 2.5 standard errors above
    zero and a mean gain above 0.08 level: the other side of ``bold``."""
    return SearchBot(seed, think_ms=1000.0, confidence=2.5, margin=0.08,
                     burial=False)


def settled(seed: int | str) -> SearchBot:
    """``search`` (1 s) with chains that move further between worlds (12 swaps proposed per
    world, not 6) and hold to the plays more tightly (a miss costs ``exp(-3)``, not
    ``exp(-2)``): fewer but more faithful worlds per decision."""
    return SearchBot(seed, think_ms=1000.0, chain_steps=12, beta=3.0, burial=False)


def again(seed: int | str) -> SearchBot:
    """``search:1000`` itself with other random draws (its seed plus ``.again``): a second
    run of the default on the same pairs, to size the noise of one run against another."""
    return SearchBot(f"{seed}.again", think_ms=1000.0, burial=False)


def chains32(seed: int | str) -> SearchBot:
    """``search:1000`` keeping 32 chains a seat, not 12: about 200 worlds a decision at 1 s
    come from 12 chains six swaps apart, so they are far from independent draws."""
    return SearchBot(seed, think_ms=1000.0, chains=32, burial=False)


def chains96(seed: int | str) -> SearchBot:
    """``search:1000`` keeping 96 chains a seat: each gives about two worlds a decision and
    still moves across the deal's decisions."""
    return SearchBot(seed, think_ms=1000.0, chains=96, burial=False)


def burial(seed: int | str) -> SearchBot:
    """``search:1000`` inferring the hidden kitty from the burial (``bots/burial_inference.py``):
    worlds whose kitty is what its burier would have buried, and a kitty card it would not
    have buried three misses for the chains."""
    return SearchBot(seed, think_ms=1000.0, burial=True)


def burial300(seed: int | str) -> SearchBot:
    """``search:300`` (the level 高手 / ``expert``) with the burial evidence, today's default:
    its rung before (``search-300.jsonl``) ran without it."""
    return SearchBot(seed, think_ms=300.0, burial=True)


def endgame300(seed: int | str) -> SearchBot:
    """``search:300`` (``expert``) as it is now: the last tricks of each world solved exactly
    (``bots/endgame.py``) and the budget by need (``search.settle``)."""
    return SearchBot(seed, think_ms=300.0)


def noend300(seed: int | str) -> SearchBot:
    """``endgame300`` with every world rolled out to the end (no exact endgame): what the
    solver adds, on the same deals."""
    return SearchBot(seed, think_ms=300.0, endgame=0)


def noneed300(seed: int | str) -> SearchBot:
    """``endgame300`` with the budget as before (every decision runs until one candidate is
    left or the budget is spent): what the budget by need changes."""
    return SearchBot(seed, think_ms=300.0, need=False)


def cheat_rollouts(seed: int | str) -> CheatBot:
    """``cheat`` as it was before the exact endgames: heuristic rollouts in the true deal to
    the last card (its plays are deterministic, so this replays the old reference exactly)."""
    return CheatBot(seed, endgame=0)
