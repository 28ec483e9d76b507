"""Bots by name: ``make_bot("random", seed=3)``.

``search`` takes its think time and rollout policy after colons: ``search`` (1000 ms,
heuristic rollouts in worlds kept across the deal, ``bots/chains.py``, whose kitty is what its
burier would have buried, ``bots/burial_inference.py``), ``search:200`` (200 ms per decision),
``search:200:plain`` (every world drawn afresh from the rules' evidence alone: no chains, no
burial), ``search:200:random`` (random rollouts in fresh worlds), or a fixed number of
sampled worlds instead of a time budget, which makes it deterministic for a seed:
``search:16w``.

>>> make_bot("random", seed=3).name
'random'
>>> bot_names()
['beginner', 'expert', 'heuristic', 'normal', 'random', 'search']
>>> LEVELS["expert"]
'search:300'

The levels offered to players (新手 / 普通 / 高手) are names for bots and budgets:
``beginner`` (the heuristic with a third of its plays random), ``normal`` (``heuristic``) and
``expert`` (``search`` at 300 ms of CPU per decision, in worlds kept across the deal).
``cheat`` (``bots/cheat.py``) sees every hand: it is for the arena's ladder only, refused by
``parse_bot_spec`` (what the server and ``shengji play`` check names with) and left out of
``bot_names``.
>>> make_bot("search:50:random", seed=1).think_ms
50.0
>>> make_bot("search:16w", seed=1).samples
16
>>> with_think_ms(["search", "heuristic", "search:300"], 250)
['search:250', 'heuristic', 'search:300']
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from shengji.bots.base import Bot

BotFactory = Callable[[int | str], Bot]
"""Makes a bot from a seed (every bot owns its own random generator)."""


def _random(seed: int | str) -> Bot:
    from shengji.bots.random_bot import RandomBot

    return RandomBot(seed)


def _heuristic(seed: int | str) -> Bot:
    from shengji.bots.heuristic import HeuristicBot

    return HeuristicBot(seed)


def _search(
    seed: int | str,
    think_ms: float = 1000.0,
    rollout: str = "heuristic",
    samples: int | None = None,
    chains: bool = True,
) -> Bot:
    from shengji.bots.chains import COUNT
    from shengji.bots.search import SearchBot

    return SearchBot(seed, think_ms=think_ms, samples=samples, rollout=rollout,
                     chains=COUNT if chains else 0, burial=chains)


def _beginner(seed: int | str) -> Bot:
    from shengji.bots.beginner import BeginnerBot

    return BeginnerBot(seed)


def _cheat(seed: int | str) -> Bot:
    from shengji.bots.cheat import CheatBot

    return CheatBot(seed)


LEVELS: Final[dict[str, str]] = {
    "beginner": "beginner", "normal": "heuristic", "expert": "search:300"
}
"""Player levels (新手 / 普通 / 高手) and the bot spec each one is."""

BOTS: Final[dict[str, BotFactory]] = {
    "random": _random, "heuristic": _heuristic, "search": _search, "beginner": _beginner,
}
"""Registered bot factories by name."""

ARENA_ONLY: Final[dict[str, BotFactory]] = {"cheat": _cheat}
"""Bots that see hidden cards: only the arena makes them (``bot_factory``); tables never."""


def bot_names() -> list[str]:
    """The bot names a table or a player may use (levels included), sorted."""
    return sorted([*BOTS, *(k for k in LEVELS if k not in BOTS)])


MAX_THINK_MS: Final = 60_000.0
"""Longest think time a ``search:<ms>`` spec may ask for (one minute a decision)."""
MAX_WORLDS: Final = 10_000
"""Most sampled worlds a ``search:<n>w`` spec may ask for."""
MAX_SPEC_LENGTH: Final = 40
"""Longest bot spec accepted (``search:1500:heuristic`` is 21 characters)."""


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot name: ``parse_bot_spec("search:200:random")`` is
    ``BotSpec("search", 200.0, None, "random", chains=False)``; budgets are finite and bounded."""

    base: str
    think_ms: float | None = None
    """Time budget per decision (``search`` only; None: the bot's default)."""
    samples: int | None = None
    """Fixed number of sampled worlds instead of a time budget (``search:16w``)."""
    rollout: str | None = None
    """Rollout policy of ``search`` (``random`` or ``heuristic``)."""
    chains: bool = True
    """Worlds kept across the deal's decisions and moved toward what the other seats' plays
    say (``bots/chains.py``), their kitty inferred from the burial (``bots/burial_inference.py``):
    ``search`` with heuristic rollouts (``search:<ms>:chains`` says so explicitly);
    ``search:<ms>:plain`` and ``:random`` draw every world afresh from the rules' evidence
    alone."""


_WORLDS = re.compile(r"[0-9]{1,6}", re.ASCII)
_THINK = re.compile(r"[0-9]{1,6}(\.[0-9]{1,3})?", re.ASCII)
"""A think time in a spec: ASCII digits, perhaps a decimal point (``search:250``)."""


def parse_bot_spec(name: str, arena: bool = False) -> BotSpec:
    """Parse and check a bot name; ``ValueError`` with a clear message if it is refused.

    >>> parse_bot_spec("Search:16w").samples
    16
    >>> parse_bot_spec("search:inf")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: search think time is ASCII digits (ms); use search:<think ms>...
    >>> parse_bot_spec("search:90000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: search think time must be ... ms in (0, 60000], not '90000'; use search:...
    >>> parse_bot_spec("cheat")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bot 'cheat' sees every hand: arena only...

    A level name stands for its bot (``parse_bot_spec("expert").think_ms`` is 300.0);
    ``arena=True`` also accepts the arena-only bots.
    """
    if not isinstance(name, str) or len(name) > MAX_SPEC_LENGTH:
        raise ValueError(f"a bot name is at most {MAX_SPEC_LENGTH} characters")
    key = name.strip().lower()
    if key in LEVELS and LEVELS[key] != key:
        return parse_bot_spec(LEVELS[key])
    base, _, params = key.partition(":")
    if base in ARENA_ONLY:
        if not arena:
            raise ValueError(f"bot {base!r} sees every hand: arena only, never at a table")
        if params:
            raise ValueError(f"bot {base!r} takes no parameters (got {name!r})")
        return BotSpec(base)
    if base not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(bot_names())}")
    if not params:
        return BotSpec(base)
    if base != "search":
        raise ValueError(f"bot {base!r} takes no parameters (got {name!r})")
    think, _, rollout = params.partition(":")
    usage = f"; use search:<think ms>|<worlds>w[:chains|plain|random], not {name!r}"
    if rollout and rollout not in ("random", "heuristic", "chains", "plain"):
        raise ValueError(f"search worlds/rollouts are chains, plain or random{usage}")
    chains = rollout not in ("random", "plain")
    if rollout in ("chains", "plain"):
        rollout = "heuristic"
    if think.endswith("w"):
        digits = think[:-1]
        if not _WORLDS.fullmatch(digits) or not 1 <= int(digits) <= MAX_WORLDS:
            raise ValueError(f"search worlds must be 1..{MAX_WORLDS}{usage}")
        return BotSpec(base, None, int(digits), rollout or None, chains)
    if not _THINK.fullmatch(think):  # ASCII digits: not １０００, ٣٠٠, 1_000 or 1e3
        raise ValueError(f"search think time is ASCII digits (ms){usage}")
    try:
        return BotSpec(base, think_ms(think, "search think time"), None, rollout or None,
                       chains)
    except ValueError as e:
        raise ValueError(f"{e}{usage}") from None


def think_ms(text: str | float, what: str = "--think-ms") -> float:
    """A think time in ms: finite, above 0 and at most ``MAX_THINK_MS``.

    >>> think_ms("250")
    250.0
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_THINK_MS):
        raise ValueError(
            f"{what} must be a number of ms in (0, {MAX_THINK_MS:g}], not {str(text)[:20]!r}"
        )
    return value


_BUILT_IN: Final = BOTS.keys() | ARENA_ONLY.keys() | LEVELS.keys()
"""Names (before any ``:``) that are no plug-in: bots, arena-only bots, player levels."""


def bot_factory(name: str, allow_import: bool = False) -> BotFactory:
    """The factory of bot ``name`` (any case); ``ValueError`` naming the known bots, or
    what is wrong with the parameters, if it is refused (``parse_bot_spec``). It also makes
    the arena-only bots: tables check names with ``parse_bot_spec`` first.

    Names not built in are looked up as plug-ins (``bots/plugins.py``): installed entry
    points, and ``package.module:Class`` import paths when ``allow_import``.
    """
    if name.strip().lower().partition(":")[0] not in _BUILT_IN:
        from shengji.bots import plugins

        found = plugins.find(name, allow_import)
        if found is not None:
            return found
        known = bot_names() + plugins.entry_point_names()
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(known)}")
    spec = parse_bot_spec(name, arena=True)
    factory = BOTS.get(spec.base) or ARENA_ONLY[spec.base]
    if spec == BotSpec(spec.base):  # no parameters
        return factory
    think = 1000.0 if spec.think_ms is None else spec.think_ms
    rollout, samples, chains = spec.rollout or "heuristic", spec.samples, spec.chains
    return lambda seed: _search(seed, think, rollout, samples, chains)


def with_think_ms(names: list[str], think: float | None) -> list[str]:
    """``names`` with every plain ``search`` given ``think`` ms per decision (``--think-ms``);
    names that set their own budget are left alone."""
    if think is None:
        return list(names)
    think = think_ms(think)
    return [f"search:{think:g}" if n.strip().lower() == "search" else n for n in names]


def make_bot(name: str, seed: int | str, allow_import: bool = False) -> Bot:
    """A new bot called ``name`` with its own generator seeded by ``seed``."""
    return bot_factory(name, allow_import)(seed)
