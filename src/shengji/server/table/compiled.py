"""Whether the bots and the tables run compiled (``make mypyc``) or as pure Python, said at
server start.

Compiled, a table's per-action work (its state machine, each seat's view, their rendering)
takes 42% fewer instructions, about 15% of the whole server's CPU an action (docs/deploy.md,
"The compiled build"); the bots' gain is in bots/build.py.

>>> build_note(True)
'bots and tables: compiled (mypyc)'
>>> "make build" in build_note(False)
True
>>> build_note(True, tables=False)
'bots: compiled (mypyc); tables: pure Python (make build compiles them too)'
"""

from __future__ import annotations

from shengji.bots.build import compiled
from shengji.server.table import step


def tables_compiled() -> bool:
    """Whether the table's state machine is a compiled extension (a build from before the
    server's per-action path compiled has the bots only)."""
    return not (step.__file__ or "").endswith(".py")


def build_note(is_compiled: bool | None = None, tables: bool | None = None) -> str:
    """One line for the server's start: how the bots and the tables run, and how to compile
    them (``tables`` defaults to ``is_compiled`` when that is given)."""
    bots = compiled() if is_compiled is None else is_compiled
    if tables is None:
        tables = tables_compiled() if is_compiled is None else is_compiled
    if bots and tables:
        return "bots and tables: compiled (mypyc)"
    if bots:
        return "bots: compiled (mypyc); tables: pure Python (make build compiles them too)"
    return ("bots and tables: pure Python (make build, or make host, compiles them: "
            "高手/expert then sees about 4x the worlds a decision and plays stronger, and the "
            "server spends about 15% less CPU an action)")
