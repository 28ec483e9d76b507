"""Presence: who is connected to a room, sent coalesced and, to clients that ask, as deltas.

A room does not tell everyone about every join as it happens: changes (joins, departures,
seat changes) mark the board dirty and one flush, at most every
``Settings.presence_interval_s``, sends what changed. A crowd of 400 joining within that
time costs one message per client, not 400. A client that said ``hello`` with
``presence: "delta"`` gets the whole list once, then only ``presence_delta`` messages (who
came or changed, who left); others get the whole list when it changed.

>>> class C:
...     def __init__(self, pid, delta):
...         self.player_id, self.name, self.seat = pid, pid, None
...         self.presence_delta, self.presence_synced, self.got = delta, False, []
...     def send(self, data):
...         self.got.append(data)
>>> board, a, b = PresenceBoard(), C("ann", True), C("bob", False)
>>> board.flush([a], 7)
1
>>> board.flush([a, b], 8)  # ann: a delta (bob came); bob: the whole list
2
>>> a.got[-1]
b'{"t":"presence_delta","joined":[{"player":"bob","name":"bob","seat":null}],"left":[],"away":[],"v":3,"seq":8}'
>>> board.flush([a, b], 9)  # nothing changed: nothing sent
0
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from shengji.server.wire import messages as wire

Entry = wire.PresenceEntry


class Viewer(Protocol):
    """What the board needs of a connection (``rooms.Conn``)."""

    presence_delta: bool
    presence_synced: bool

    @property
    def player_id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    def send(self, data: bytes) -> None: ...


class PresenceBoard:
    """The presence last sent to a room, and the flush that sends what changed since."""

    def __init__(self) -> None:
        self.sent: dict[str, Entry] = {}
        self.away: list[int] = []

    @staticmethod
    def current(conns: Iterable[Viewer]) -> dict[str, Entry]:
        """Who is connected now, one entry per player (several tabs are one)."""
        now: dict[str, Entry] = {}
        for c in conns:
            now[c.player_id] = wire.PresenceEntry(player=c.player_id, name=c.name, seat=c.seat)
        return now

    def flush(self, conns: Iterable[Viewer], seq: int, away: list[int] | None = None) -> int:
        """Send each connection what it has not heard yet; returns the messages sent.
        ``away``: the seats a human holds with no connection (their plates say "away")."""
        conns = list(conns)
        now = self.current(conns)
        away = sorted(away or [])
        joined = [e for pid, e in now.items() if self.sent.get(pid) != e]
        left = [pid for pid in self.sent if pid not in now]
        changed = bool(joined or left) or away != self.away
        full: bytes | None = None
        delta: bytes | None = None
        sent = 0
        for c in conns:
            if c.presence_synced and not changed:
                continue
            if c.presence_delta and c.presence_synced:
                if delta is None:
                    msg = wire.PresenceDelta(seq=seq, joined=joined, left=left, away=away)
                    delta = wire.encode(msg)
                c.send(delta)
            else:
                if full is None:
                    msg_full = wire.Presence(seq=seq, players=list(now.values()), away=away)
                    full = wire.encode(msg_full)
                c.send(full)
                c.presence_synced = True
            sent += 1
        self.sent = now
        self.away = away
        return sent
