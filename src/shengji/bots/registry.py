"""Bots by name: ``make_bot("random", seed=3)``.

``search`` takes its think time and rollout policy after colons: ``search`` (1000 ms,
heuristic rollouts), ``search:200`` (200 ms per decision), ``search:200:random``.

>>> make_bot("random", seed=3).name
'random'
>>> bot_names()
['heuristic', 'random', 'search']
>>> make_bot("search:50:random", seed=1).think_ms
50.0
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


def _search(seed: int | str, think_ms: float = 1000.0, rollout: str = "heuristic") -> Bot:
    from shengji.bots.search import SearchBot

    return SearchBot(seed, think_ms=think_ms, rollout=rollout)


BOTS: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic, "search": _search}
"""Registered bot factories by name."""


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def bot_factory(name: str) -> BotFactory:
    """The factory of bot ``name`` (any case); ``ValueError`` naming the known bots if none."""
    base, _, params = name.strip().lower().partition(":")
    factory = BOTS.get(base)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    if not params:
        return factory
    if base != "search":
        raise ValueError(f"bot {base!r} takes no parameters (got {name!r})")
    think, _, rollout = params.partition(":")
    try:
        think_ms = float(think)
    except ValueError:
        raise ValueError(f"search:<think ms>[:<rollout bot>], not {name!r}") from None
    if think_ms <= 0 or (rollout and rollout not in ("random", "heuristic")):
        raise ValueError(f"search:<think ms > 0>[:random|heuristic], not {name!r}")
    return lambda seed: _search(seed, think_ms, rollout or "heuristic")


def make_bot(name: str, seed: int | str) -> Bot:
    """A new bot called ``name`` with its own generator seeded by ``seed``."""
    return bot_factory(name)(seed)
