"""Whether the bots run compiled (``make mypyc``) or as pure Python.

Compiled, a heuristic rollout costs about a quarter of its pure-Python time, so a search
sees about four times the worlds in its budget and plays clearly stronger (docs/bots.md:
``search:300`` +0.113 levels a deal over ``heuristic`` compiled, +0.028 pure). The server
says it at start, with its tables' build (server/table/compiled.py).

>>> compiled() in (True, False)
True
"""

from __future__ import annotations


def compiled() -> bool:
    """Whether the search bot's module is a compiled extension (mypyc), not a ``.py`` file."""
    from shengji.bots import search

    return not (search.__file__ or "").endswith(".py")
