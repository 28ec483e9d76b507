"""A table's writes carried out against the store, and the command that answers each.

``carry_out(store, room_id, write)`` does one ``Write`` effect (log rows with the room's
state, a finished match, a deal's stakes) and returns ``Written``, ``GameSaved`` or
``DealsSettled``; a storage fault is raised for the room to answer ``WriteFailed``. A retry
(``write.retry``) first looks whether the failed attempt was committed after all (a lost
connection can fail a commit that went through), so no row is written twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shengji.server.live.stakes import settle_listed
from shengji.server.store.group_commit import Row
from shengji.server.store.storage import Store
from shengji.server.table.commands import Command, DealsSettled, GameSaved, Written
from shengji.server.table.effects import LogRecords, SaveGame, SettleDeals, Write

Rows = list[Row]


def log_rows_of(req: LogRecords) -> tuple[Rows, Mapping[str, Any] | None]:
    """A log write's rows ``(pos, seq, match_no, kind, data)`` and the newest room state
    among them (None: the room's row is left as it is).

    >>> from shengji.server.table.effects import Record
    >>> recs = (Record(6, 4, 0, "chat", "hi"), Record(7, 5, 0, "room", "", {"a": 1}))
    >>> log_rows_of(LogRecords(recs))
    ([(6, 4, 0, 'chat', 'hi'), (7, 5, 0, 'room', '')], {'a': 1})
    """
    records = req.records
    state = next((r.state for r in reversed(records) if r.state is not None), None)
    return [(r.pos, r.seq, r.match_no, r.kind, r.data) for r in records], state


async def carry_out(store: Store, room_id: int, write: Write) -> Command:
    """Do ``write``; the command that tells the table it is durable."""
    req = write.request
    match req:
        case LogRecords(records=records):
            first = records[0]
            if write.retry and await store.log.has_row(
                room_id, first.pos, first.seq, first.kind, first.data
            ):
                return Written(write.ticket)  # the failed attempt was committed after all
            await store.log.append_rows(room_id, *log_rows_of(req))
            return Written(write.ticket)
        case SaveGame(match_no=match_no, record=record, players=players):
            gid = await store.games.save(room_id, match_no, record, list(players))
            return GameSaved(write.ticket, gid)
        case SettleDeals(match_no=match_no, rules=rules, deals=deals):
            listed = [(d.deal_no, d.result, d.players) for d in deals]
            settled = await settle_listed(store, room_id, match_no, rules, listed)
            return DealsSettled(write.ticket, tuple(settled))
