"""The live table as a pure state machine.

``handle(table, command, now) -> (table, effects)``: typed commands in (table/commands.py),
a new ``Table`` (table/model.py) and typed effects out (table/effects.py). No I/O: the
asyncio ``Room`` (server/live/rooms.py) is a thin shell that feeds it commands and carries out
its effects — writes before the sends they hold back, timers, the bot pool.

Modules: ``model`` (the state), ``options`` (room options and server limits), ``outbox``
and ``flow`` (writes, held sends, pause and retry), ``connections`` (welcome, resume,
away), ``seating`` (seats, bots, owner, chat), ``play`` (actions, deal and match ends,
hints), ``timers`` (dealing, bots, turn clocks, 托管, the summary hold, the next step),
``views`` and ``render`` (what clients are sent), ``restore`` (after a restart).
"""

from shengji.server.table.commands import Command
from shengji.server.table.effects import Effect
from shengji.server.table.handle import handle
from shengji.server.table.model import Seat, Table, TableConfig
from shengji.server.table.options import Limits, TableOptions
from shengji.server.table.restore import restored
from shengji.server.table.timers import next_step

__all__ = [
    "Command",
    "Effect",
    "Limits",
    "Seat",
    "Table",
    "TableConfig",
    "TableOptions",
    "handle",
    "next_step",
    "restored",
]
