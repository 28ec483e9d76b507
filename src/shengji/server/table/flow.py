"""The outbox at work: deliveries leave once what came before them is durable, one write is
out at a time, a failed write pauses the room and is retried with backoff.

While a write fails the room is *paused*: every client is told at once (``paused``), the
table deals no card, asks no bot and lets no clock run out, and the same write goes out
again after 0.1 s, 0.2 s, 0.4 s ... (at most ``Limits.retry_max_s``), or at once when the
database takes another write (``StorageBack``: it is back). When it succeeds the
clients are told (``resumed``), the turn clock and the summary hold get back the time the
pause took, and everything held leaves in order. One log line when a pause starts, one
when it ends.
"""

from __future__ import annotations

from dataclasses import replace

from shengji.server.table.effects import (
    DELIVERY_CLASSES,
    WRITE_CLASSES,
    Send,
    Write,
    WriteRequest,
)
from shengji.server.table.model import evolve
from shengji.server.table.outbox import Item, backoff
from shengji.server.table.step import Step
from shengji.server.wire import messages as wire


def first_write(items: tuple[Item, ...]) -> WriteRequest:
    """The outbox's first item, which must be a write."""
    head = items[0]
    assert isinstance(head, WRITE_CLASSES), head
    return head


def drain(s: Step) -> None:
    """Let out every delivery no write holds back; hand out the first write if none is out."""
    t = s.t
    ob = t.outbox
    sent = t.sent_seq
    items = ob.items
    i = 0
    while i < len(items):
        d = items[i]
        if not isinstance(d, DELIVERY_CLASSES):
            break
        s.emit(d)
        if isinstance(d, Send) and d.seq is not None:
            sent = max(sent, d.seq)
        i += 1
    items = items[i:]
    if items and ob.issued is None and ob.retry_at is None:
        s.emit(Write(ob.next_ticket, first_write(items), retry=False))
        ob = replace(ob, issued=ob.next_ticket, next_ticket=ob.next_ticket + 1)
    s.t = evolve(t, outbox=ob.with_items(items), sent_seq=sent)


def retry_due(s: Step) -> None:
    """Hand the failed write out again once its wait is over."""
    ob = s.t.outbox
    if ob.retry_at is None or ob.retry_at > s.now or ob.issued is None:
        return
    s.emit(Write(ob.issued, first_write(ob.items), retry=True))
    s.t = evolve(s.t, outbox=replace(ob, retry_at=None))


def retry_now(s: Step) -> None:
    """The database is back: a failed write waiting for its retry goes out now."""
    ob = s.t.outbox
    if ob.retry_at is not None and ob.retry_at > s.now:
        s.t = evolve(s.t, outbox=replace(ob, retry_at=s.now))
    retry_due(s)


def written(s: Step, ticket: int) -> WriteRequest | None:
    """The write ``ticket`` is durable: it leaves the outbox (a pause ends); returns what was
    written (None for an answer to no write out, which changes nothing)."""
    ob = s.t.outbox
    if ob.issued != ticket or not ob.items:
        s.note("warning", f"answer to write {ticket}, which is not out; ignored")
        return None
    head = first_write(ob.items)
    paused, attempts = ob.paused_since, ob.attempts
    ob = replace(
        ob, items=ob.items[1:], issued=None, attempts=0, retry_at=None, paused_since=None
    )
    s.t = evolve(s.t, outbox=ob)
    if paused is not None:
        resumed(s, paused, attempts)
    return head


def failed(s: Step, ticket: int, reason: str) -> None:
    """The write ``ticket`` failed with a storage fault: pause (once) and retry later."""
    ob = s.t.outbox
    if ob.issued != ticket:
        return
    lim = s.t.config.limits
    attempts = ob.attempts + 1
    retry_at = s.now + backoff(lim.retry_first_s, lim.retry_max_s, attempts)
    first = ob.paused_since is None
    ob = replace(
        ob, attempts=attempts, retry_at=retry_at, paused_since=s.now if first else ob.paused_since
    )
    s.t = evolve(s.t, outbox=ob)
    if first:
        what = f"a write failed ({reason}); the table is paused and retries with backoff"
        s.note("error", what, "storage")
        s.emit(Send(s.everyone(), wire.Paused(seq=s.t.sent_seq, reason="storage")))


def resumed(s: Step, since: float, attempts: int) -> None:
    """Writes succeed again: clocks get back the paused time; everyone is told."""
    took = max(0.0, s.now - since)
    t = s.t
    clock = t.clock
    if clock is not None:
        clock = replace(clock, deadline=clock.deadline + took)
    hold = t.hold
    if hold is not None:
        hold = replace(hold, until=hold.until + took)
    s.t = evolve(t, clock=clock, hold=hold, next_card_at=max(t.next_card_at, s.now))
    s.note(
        "warning",
        f"writes succeed again after {took:.1f} s ({attempts} failed attempts); the table goes on",
        "storage",
    )
    s.emit(Send(s.everyone(), wire.Resumed(seq=s.t.sent_seq)))
