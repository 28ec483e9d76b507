"""Whether the bots run compiled (``make mypyc``) or as pure Python, said at server start.

Compiled, a heuristic rollout costs about a quarter of its pure-Python time, so a search
sees about four times the worlds in its budget and plays clearly stronger (docs/bots.md:
``search:300`` +0.113 levels a deal over ``heuristic`` compiled, +0.028 pure).

>>> build_note(True)
'bots: compiled (mypyc)'
>>> "make mypyc" in build_note(False)
True
"""

from __future__ import annotations


def compiled() -> bool:
    """Whether the search bot's module is a compiled extension (mypyc), not a ``.py`` file."""
    from shengji.bots import search

    return not (search.__file__ or "").endswith(".py")


def build_note(is_compiled: bool | None = None) -> str:
    """One line for the server's start: how the bots run, and how to compile them."""
    if compiled() if is_compiled is None else is_compiled:
        return "bots: compiled (mypyc)"
    return ("bots: pure Python (make mypyc compiles them: 高手/expert then sees about 4x the "
            "worlds a decision and plays stronger)")
