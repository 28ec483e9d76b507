"""Bots by name: ``make_bot("random", seed=3)``.

``search`` takes its think time and rollout policy after colons: ``search`` (1000 ms,
heuristic rollouts), ``search:200`` (200 ms per decision), ``search:200:random``, or a fixed
number of sampled worlds instead of a time budget, which makes it deterministic for a seed:
``search:16w``.

>>> make_bot("random", seed=3).name
'random'
>>> bot_names()
['heuristic', 'random', 'search']
>>> make_bot("search:50:random", seed=1).think_ms
50.0
>>> make_bot("search:16w", seed=1).samples
16
>>> with_think_ms(["search", "heuristic", "search:300"], 250)
['search:250', 'heuristic', 'search:300']
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


def _search(
    seed: int | str,
    think_ms: float = 1000.0,
    rollout: str = "heuristic",
    samples: int | None = None,
) -> Bot:
    from shengji.bots.search import SearchBot

    return SearchBot(seed, think_ms=think_ms, samples=samples, rollout=rollout)


BOTS: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic, "search": _search}
"""Registered bot factories by name."""


def bot_names() -> list[str]:
    """The registered bot names, sorted."""
    return sorted(BOTS)


def bot_factory(name: str, allow_import: bool = False) -> BotFactory:
    """The factory of bot ``name`` (any case); ``ValueError`` naming the known bots if none.

    Names not built in are looked up as plug-ins (``bots/plugins.py``): installed entry
    points, and ``package.module:Class`` import paths when ``allow_import``.
    """
    base, _, params = name.strip().lower().partition(":")
    factory = BOTS.get(base)
    if factory is None:
        from shengji.bots import plugins

        found = plugins.find(name, allow_import)
        if found is not None:
            return found
        known = bot_names() + plugins.entry_point_names()
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(known)}")
    if not params:
        return factory
    if base != "search":
        raise ValueError(f"bot {base!r} takes no parameters (got {name!r})")
    think, _, rollout = params.partition(":")
    usage = f"search:<think ms>|<worlds>w[:random|heuristic], not {name!r}"
    samples: int | None = None
    try:
        if think.endswith("w"):
            samples = int(think[:-1])
            think_ms = 1000.0
        else:
            think_ms = float(think)
    except ValueError:
        raise ValueError(usage) from None
    if (
        think_ms <= 0
        or (samples is not None and samples < 1)
        or (rollout and rollout not in ("random", "heuristic"))
    ):
        raise ValueError(usage)
    return lambda seed: _search(seed, think_ms, rollout or "heuristic", samples)


def with_think_ms(names: list[str], think_ms: float | None) -> list[str]:
    """``names`` with every plain ``search`` given ``think_ms`` per decision (``--think-ms``);
    names that set their own budget are left alone."""
    if think_ms is None:
        return list(names)
    if think_ms <= 0:
        raise ValueError(f"--think-ms must be above 0, not {think_ms:g}")
    return [f"search:{think_ms:g}" if n.strip().lower() == "search" else n for n in names]


def make_bot(name: str, seed: int | str, allow_import: bool = False) -> Bot:
    """A new bot called ``name`` with its own generator seeded by ``seed``."""
    return bot_factory(name, allow_import)(seed)
