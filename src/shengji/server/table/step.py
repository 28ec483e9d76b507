"""One step of a table: the table as it is being changed, the time, and the effects so far.

``handle`` makes a ``Step``, lets the module that knows the command change ``step.t`` (a new
``Table`` each time) and add effects, and returns both. The helpers here are the few ways a
table speaks: a sequenced message (logged, then sent to everyone), a private word to one
connection, an error, a log line.
"""

from __future__ import annotations

from typing import Literal

from shengji.server.table.effects import Delivery, Effect, Note, Recipient, Record, Send
from shengji.server.table.model import Table, evolve
from shengji.server.table.render import Deltas, UpdateEntry
from shengji.server.wire import messages as wire


class Step:
    """A table being changed at ``now``; ``fx`` collects the effects in order."""

    def __init__(self, table: Table, now: float) -> None:
        self.t = table
        self.now = now
        self.fx: list[Effect] = []

    # ------------------------------------------------------------------ effects

    def emit(self, effect: Effect) -> None:
        """An effect to do now (not held behind writes)."""
        self.fx.append(effect)

    def deliver(self, d: Delivery) -> None:
        """A delivery, in order behind every write queued before it."""
        self.t = evolve(self.t, outbox=self.t.outbox.add(d))

    def record(self, kind: str, data: str = "", *, state: bool = False) -> None:
        """Queue the log row of the message numbered ``t.seq`` (with the room's stored state
        when ``state``), at the log's next position."""
        t = self.t
        pos = t.log_pos + 1
        rec = Record(pos, t.seq, t.match_no, kind, data, t.stored_state() if state else None)
        self.t = evolve(t, log_pos=pos, outbox=t.outbox.add_record(rec))

    def note(
        self,
        level: Literal["debug", "info", "warning", "error"],
        text: str,
        topic: Literal["rooms", "storage"] = "rooms",
    ) -> None:
        """A line for the operator's log."""
        self.fx.append(Note(level, f"room {self.t.config.code[:6]}: {text}", topic))

    # ------------------------------------------------------------------ audiences

    def everyone(self) -> tuple[Recipient, ...]:
        """Every connection, with its audience (the seat it sees from; ``Deltas`` for a
        version-3 client)."""
        return tuple((c, Deltas(v.seat) if v.deltas else v.seat) for c, v in self.t.conns.items())

    def one(self, conn: int) -> tuple[Recipient, ...]:
        """One connection (none if it is gone)."""
        v = self.t.conns.get(conn)
        return () if v is None else ((conn, Deltas(v.seat) if v.deltas else v.seat),)

    # ------------------------------------------------------------------ speaking

    def next_seq(self) -> int:
        """Take the next sequence number."""
        self.t = evolve(self.t, seq=self.t.seq + 1)
        return self.t.seq

    def publish(
        self, msg: wire.ServerMsg, kind: str, data: str = "", *, state: bool = False
    ) -> None:
        """Log a sequenced message (its ``seq`` taken already: ``next_seq``), then send it
        to everyone once it is durable."""
        self.record(kind, data, state=state)
        self.deliver(Send(self.everyone(), msg, seq=msg.seq, backlog=True))

    def publish_update(
        self,
        entry: UpdateEntry,
        audience: int | None,
        data: str | tuple[str, ...],
        *,
        state: bool = False,
    ) -> None:
        """Log a game action (or several: a round of dealt cards, a row each, all with the
        update's number) and send its update: to everyone (``audience`` None) or, for a
        message only one seat may know of, to that seat's connections without a new number
        (the caller kept ``seq`` as it was)."""
        for i, text in enumerate((data,) if isinstance(data, str) else data):
            self.record("action", text, state=state and i == 0)
        t = self.t
        entry.before, entry.own_before = t.shown, t.shown_own
        if audience is None:
            self.deliver(Send(self.everyone(), entry, seq=entry.seq, backlog=True))
            self.t = evolve(self.t, shown=entry.match, shown_own={})
            return
        everyone = self.everyone()
        to = tuple(r for r, v in zip(everyone, t.conns.values(), strict=True) if v.seat == audience)
        self.deliver(Send(to, entry, seq=entry.seq))
        own = {**t.shown_own}
        if entry.match is not None:
            own[audience] = entry.match
        self.t = evolve(
            self.t, last_private={**t.last_private, audience: entry.seq}, shown_own=own
        )

    def tell(self, conn: int, msg: wire.ServerMsg) -> None:
        """An unsequenced message for one connection, in order with the rest."""
        to = self.one(conn)
        if to:
            self.deliver(Send(to, msg))

    def tell_all(self, msg: wire.ServerMsg) -> None:
        """An unsequenced message for everyone, in order with the rest."""
        if self.t.conns:
            self.deliver(Send(self.everyone(), msg))

    def error(self, conn: int, code: str, message: str) -> None:
        """Refuse a client's message: nothing changed."""
        self.tell(conn, wire.Error(seq=self.t.seq, code=code, message=message))
