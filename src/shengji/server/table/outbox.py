"""The outbox: writes and the sends that wait for them, in order.

Whatever a table says is either a write (a log row, a finished match, a deal's stakes) or
a delivery (a message, a replay, a disconnect). Both go into the outbox in the order they
happen. A delivery leaves as soon as every write before it is durable; the first write is
handed to the shell (one at a time, so the log stays in order), and log rows that queue up
behind it are batched into the next write (group commit).

When a write fails the outbox keeps it at the front, waits (``retry_at``: 0.1 s, 0.2 s, ...
up to the limit) and hands the same write out again; ``paused_since`` says since when the
room has been waiting. Nothing behind a failing write leaves, so clients never hear of
something the database does not hold, and nothing is dropped.

>>> from shengji.server.table.effects import Disconnect
>>> ob = Outbox().add_record(Record(1, 1, 0, "room", "")).add(Disconnect(3))
>>> [type(i).__name__ for i in ob.items]
['LogRecords', 'Disconnect']
>>> ob.add_record(Record(2, 2, 0, "chat", "")).items[0].records[-1].seq
2
>>> [round(backoff(0.1, 1.0, n), 2) for n in range(1, 7)]
[0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from shengji.server.table.effects import (
    WRITE_CLASSES,
    Delivery,
    LogRecords,
    Record,
    Send,
    WriteRequest,
)

Item: TypeAlias = WriteRequest | Delivery


def is_write(item: Item) -> bool:
    """Whether an outbox item is a write (else a delivery)."""
    return isinstance(item, WRITE_CLASSES)


def backoff(first_s: float, max_s: float, attempt: int) -> float:
    """The wait before retry number ``attempt`` (1, 2, ...): doubling from ``first_s``."""
    return min(max_s, first_s * 2.0 ** (attempt - 1))


@dataclass(frozen=True, slots=True)
class Outbox:
    """Writes and deliveries in order; ``issued`` is the ticket of the first write while
    the shell holds it."""

    items: tuple[Item, ...] = ()
    issued: int | None = None
    next_ticket: int = 1
    retry_at: float | None = None
    attempts: int = 0
    """Failed attempts of the first write."""
    paused_since: float | None = None
    """A write has been failing since then (the room is paused)."""

    def __init__(
        self,
        items: tuple[Item, ...] = (),
        issued: int | None = None,
        next_ticket: int = 1,
        retry_at: float | None = None,
        attempts: int = 0,
        paused_since: float | None = None,
    ) -> None:
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "issued", issued)
        object.__setattr__(self, "next_ticket", next_ticket)
        object.__setattr__(self, "retry_at", retry_at)
        object.__setattr__(self, "attempts", attempts)
        object.__setattr__(self, "paused_since", paused_since)

    @property
    def unwritten(self) -> int:
        """Writes not yet durable."""
        return sum(1 for i in self.items if is_write(i))

    @property
    def idle(self) -> bool:
        """Nothing waits to be written."""
        return not any(is_write(i) for i in self.items)

    def with_items(self, items: tuple[Item, ...]) -> Outbox:
        """This outbox holding ``items`` (``dataclasses.replace`` without its per-call
        field lookup: the outbox changes at every message a table sends)."""
        return Outbox(
            items, self.issued, self.next_ticket, self.retry_at, self.attempts, self.paused_since
        )

    def add(self, item: Item) -> Outbox:
        """Queue a write or a delivery at the end."""
        return self.with_items((*self.items, item))

    def add_record(self, rec: Record) -> Outbox:
        """Queue one log row: into the last queued log write when it is not out yet
        (deliveries after that write wait a little longer, never out of order)."""
        items = self.items
        for i in range(len(items) - 1, -1, -1):
            item = items[i]
            if not is_write(item):
                continue
            if isinstance(item, LogRecords) and not (i == 0 and self.issued is not None):
                grown = LogRecords((*item.records, rec))
                return self.with_items((*items[:i], grown, *items[i + 1 :]))
            break
        return self.with_items((*items, LogRecords((rec,))))

    def sends(self) -> list[Send]:
        """The sends still held (for tests and the shell's shutdown)."""
        return [i for i in self.items if isinstance(i, Send)]
