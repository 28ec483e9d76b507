"""Bot plug-ins: bots from other packages, by entry point or by import path.

An installed package offers bots in the entry-point group ``shengji.bots`` (its
``pyproject.toml``: ``[project.entry-points."shengji.bots"] mybot = "mybot.bot:MyBot"``);
``shengji arena --bots mybot,random`` then finds it by name, as does every place that takes
a bot name. On the command line a bot can also be given as ``package.module:Class`` (an
import path, found in the environment or, as with ``python -m``, in the current folder);
library callers opt in with ``allow_import=True``. The server never imports
by path (a client could name any module): an operator installs plug-ins as packages.

What is loaded is called with the bot's seed when it takes an argument (a class whose
``__init__`` takes ``seed``, or a function ``seed -> Bot``), else with none; the result must
follow the ``Bot`` protocol (``bots/base.py``: ``name`` and ``choose``).

>>> is_import_path("shengji.bots.random_bot:RandomBot"), is_import_path("search:200")
(True, False)
>>> is_import_path("lowest_bot:LowestBot")
True
>>> bot = find("shengji.bots.random_bot:RandomBot", allow_import=True)(7)
>>> bot.name
'random'
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points
from typing import Any, Final

from shengji.bots.base import Bot

GROUP: Final = "shengji.bots"
"""The entry-point group plug-in packages register their bots in."""

_IMPORT: Final = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class PluginError(ValueError):
    """A plug-in that cannot be loaded or does not make a bot (the message says why)."""


def is_import_path(name: str) -> bool:
    """Whether ``name`` reads as ``package.module:Attribute`` (``search:200``, a built-in
    bot with a parameter, does not: an attribute is a name)."""
    return bool(_IMPORT.match(name.strip()))


@cache
def _entry_points() -> dict[str, Any]:
    return {ep.name.lower(): ep for ep in entry_points(group=GROUP)}


def entry_point_names() -> list[str]:
    """Names of the installed plug-in bots, sorted."""
    return sorted(_entry_points())


def find(name: str, allow_import: bool = False) -> Callable[[int | str], Bot] | None:
    """The factory of plug-in ``name``: an installed entry point, or an import path when
    ``allow_import``; None when ``name`` is neither. Raises ``PluginError`` when it is one
    but cannot be loaded."""
    text = name.strip()
    ep = _entry_points().get(text.lower())
    if ep is not None:
        try:
            target = ep.load()
        except Exception as e:  # any error importing someone else's package
            raise PluginError(
                f"plug-in bot {text!r} ({ep.value}) failed to load: {type(e).__name__}: {e}"
            ) from e
        return _factory(target, f"{text!r} ({ep.value})")
    if is_import_path(text):
        if not allow_import:
            raise PluginError(
                f"bot {text!r} is an import path; only the command line loads bots that way "
                "(install it as a package with a 'shengji.bots' entry point instead)"
            )
        return _factory(_import(text), repr(text))
    return None


def _import(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    _current_folder_importable()
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as e:
        raise PluginError(
            f"bot {path!r}: cannot import module {module_name!r}: {type(e).__name__}: {e}"
        ) from e
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"bot {path!r}: module {module_name!r} has no {attr!r}") from None
    return obj


def _current_folder_importable() -> None:
    """Put the current folder last on ``sys.path``, as ``python -m`` has it first: a bot
    saved as ``./lowest_bot.py`` is ``lowest_bot:LowestBot`` from the installed ``shengji``
    script too. Last, so that it never hides an installed package."""
    here = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == here for p in sys.path):
        sys.path.append(here)


def _factory(target: Any, label: str) -> Callable[[int | str], Bot]:
    if not callable(target):
        raise PluginError(f"bot {label} is not a class or function that makes a bot")
    try:
        params = [
            p for p in inspect.signature(target).parameters.values()
            if p.default is inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        takes_seed = bool(params) or _accepts_one(target)
    except (TypeError, ValueError):
        takes_seed = True

    def make(seed: int | str) -> Bot:
        try:
            bot = target(seed) if takes_seed else target()
        except Exception as e:
            raise PluginError(f"bot {label} failed to start: {type(e).__name__}: {e}") from e
        if not isinstance(bot, Bot):
            raise PluginError(
                f"bot {label} made {type(bot).__name__}, which lacks the Bot protocol "
                "(a 'name' attribute and a 'choose(view, legal)' method)"
            )
        return bot

    return make


def _accepts_one(target: Any) -> bool:
    """Whether ``target`` takes an optional first argument (``seed=None``)."""
    params = list(inspect.signature(target).parameters.values())
    return bool(params) and params[0].kind in (
        inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD
    )
