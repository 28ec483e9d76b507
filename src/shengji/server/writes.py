"""A table's writes carried out against the store, and the command that answers each.

``carry_out(store, room_id, write)`` does one ``Write`` effect (log rows with the room's
state, a finished match, a deal's stakes) and returns ``Written``, ``GameSaved`` or
``DealsSettled``; a storage fault is raised for the room to answer ``WriteFailed``. A retry
(``write.retry``) first looks whether the failed attempt was committed after all (a lost
connection can fail a commit that went through), so no row is written twice.
"""

from __future__ import annotations

from shengji.core.stakes import deal_outcome
from shengji.server.stakes import human_on_each_side
from shengji.server.storage import Store
from shengji.server.table.commands import (
    Command,
    DealsSettled,
    GameSaved,
    SettledDeal,
    Written,
)
from shengji.server.table.effects import LogRecords, SaveGame, SettleDeals, Write


async def carry_out(store: Store, room_id: int, write: Write) -> Command:
    """Do ``write``; the command that tells the table it is durable."""
    req = write.request
    match req:
        case LogRecords(records=records):
            first = records[0]
            if write.retry and await store.has_log_row(room_id, first.seq, first.kind, first.data):
                return Written(write.ticket)  # the failed attempt was committed after all
            state = next((r.state for r in reversed(records) if r.state is not None), None)
            rows = [(r.seq, r.match_no, r.kind, r.data) for r in records]
            await store.log_rows(room_id, rows, None if state is None else dict(state))
            return Written(write.ticket)
        case SaveGame(match_no=match_no, record=record, players=players):
            gid = await store.save_game(room_id, match_no, record, list(players))
            return GameSaved(write.ticket, gid)
        case SettleDeals():
            return DealsSettled(write.ticket, await settle_deals(store, room_id, req))


async def settle_deals(store: Store, room_id: int, req: SettleDeals) -> tuple[SettledDeal, ...]:
    """Settle the deals of ``req`` not settled yet (a deal without a human on each side
    settles nothing and is listed with no settlement)."""
    done = await store.settled_deals(room_id, req.match_no)
    out: list[SettledDeal] = []
    for d in req.deals:
        if d.deal_no in done:
            continue
        players = list(d.players)
        if not human_on_each_side(deal_outcome(d.result, len(players)), players):
            out.append(SettledDeal(d.deal_no, d.players, None))
            continue
        s = await store.settle_deal(room_id, req.match_no, d.deal_no, d.result, req.rules, players)
        if s is not None:
            out.append(SettledDeal(d.deal_no, d.players, s))
    return tuple(out)
