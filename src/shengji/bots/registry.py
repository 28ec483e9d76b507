"""Bots by name: ``make_bot("random", seed=3)``; later issues add "heuristic" and "search".

>>> make_bot("random", seed=3).name
'random'
>>> bot_names()
['heuristic', 'random']
"""

from __future__ import annotations

from collections.abc import Callable

from shengji.bots.base import Bot

BotFactory = Callable[[int | str], Bot]
"""Makes a bot from a seed (every bot owns its own random generator)."""


def _random(seed: int | str) -> Bot:
    from shengji.bots.random import RandomBot

    return RandomBot(seed)


def _heuristic(seed: int | str) -> Bot:
    from shengji.bots.heuristic import HeuristicBot

    return HeuristicBot(seed)


BOTS: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic}
"""Registered bot factories by name."""


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def bot_factory(name: str) -> BotFactory:
    """The factory of bot ``name`` (any case); ``ValueError`` naming the known bots if none."""
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    return factory


def make_bot(name: str, seed: int | str) -> Bot:
    """A new bot called ``name`` with its own generator seeded by ``seed``."""
    return bot_factory(name)(seed)
