"""A table with nothing to do, and what of it outlives its unloading (server/live/idle_rooms.py).

A room nobody is connected to, with nothing to write or send, no bot asked and no
wake-up due soon, is ``quiet``: its table may be dropped from memory and rebuilt from the
room's row and log when someone comes (``restore.restored``, as after a restart). What the
log does not hold (the turn clock, the summary hold, seats on 托管, since when seats are
away, the chat lines, the match's version counter) is kept in a small ``Carry`` and put
back (``carry_over``), so the reloaded table goes on exactly where it stopped; only the
backlog of sent messages is gone (clients that come back get a snapshot).

>>> from shengji.server.table.model import TableConfig
>>> t = Table.empty(TableConfig.for_tests())
>>> quiet(t, now=10.0, horizon=5.0)
True
>>> quiet(evolve(t, wake=12.0), now=10.0, horizon=5.0)  # something due within the horizon
False
>>> carry_over(t, carried(evolve(t, version=7))).version
7
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Final

from shengji.server.table.model import ChatEntry, Clock, Hold, Table, evolve
from shengji.server.table.votes import DealVote


def quiet(t: Table, now: float, horizon: float) -> bool:
    """Whether ``t`` has nothing to do for at least ``horizon`` seconds from ``now``:
    nobody connected, nothing waiting to be written or sent, no bot asked, not closing,
    and no wake-up due before ``now + horizon``."""
    ob = t.outbox
    return (
        not t.conns
        and not ob.items
        and ob.issued is None
        and ob.retry_at is None
        and t.bot_ask is None
        and not t.finishing
        and not t.closed
        and (t.wake is None or t.wake >= now + horizon)
    )


@dataclass(frozen=True, slots=True)
class Carry:
    """What an unloaded table keeps that its row and log do not hold (times are the event
    loop's, which runs on while the room is unloaded)."""

    version: int
    seq: int
    away_since: Mapping[int, float]
    unattended_since: float | None
    auto: frozenset[int]
    clock: Clock | None
    hold: Hold | None
    next_card_at: float
    chat: tuple[ChatEntry, ...]
    chat_untrimmed: int
    vote: DealVote | None
    ended_early: bool


CARRIED: Final = tuple(f.name for f in fields(Carry))
"""``Carry``'s fields: each is the ``Table`` field of the same name."""


def carried(t: Table) -> Carry:
    """What of ``t`` to keep while it is unloaded."""
    return Carry(**{name: getattr(t, name) for name in CARRIED})


def carry_over(t: Table, c: Carry) -> Table:
    """``t`` (just rebuilt from the row and log) with what was kept put back. The log's
    sequence number must be the kept one (every sequenced message is logged)."""
    if t.seq != c.seq:
        raise ValueError(f"the log ends at {t.seq}, the unloaded table was at {c.seq}")
    return evolve(t, **{name: getattr(c, name) for name in CARRIED if name != "seq"})
