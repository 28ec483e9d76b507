"""The messages a room keeps for clients that reconnect, bounded in bytes and in number.

Each public sequenced message is kept once, encoded, with its audience: one form for
everyone, and a second form only for a seat that was shown more (an update with a card
dealt to that seat). Updates are kept without ``game`` (a resuming client asks for a
snapshot of its view). When the kept bytes pass ``max_bytes`` (or the messages ``max_count``)
the oldest go; a client that resumes from before what is left gets ``None`` from ``since``
and the room sends it a snapshot instead (the same as a client that never connected).

>>> buf = ReplayBuffer(max_bytes=150, max_count=100)
>>> buf.keep(1, b'{"seq":1,"x":"aaaaaaaa"}')
>>> buf.keep(2, b'{"seq":2}', {0: b'{"seq":2,"mine":1}'})
>>> buf.since(0, None) is None       # seq 1 was dropped to stay under 150 bytes
True
>>> buf.since(1, 0), buf.since(1, 3)
([b'{"seq":2,"mine":1}'], [b'{"seq":2}'])
>>> buf.since(2, 0), buf.size_bytes
([], 91)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field

_OVERHEAD = 64
"""Bytes counted for each kept message besides its encodings (the entry, the deque slot)."""


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept message: its number, its form for everyone, and seats' own forms."""

    seq: int
    data: bytes
    own: Mapping[int, bytes] = field(default_factory=dict)

    @property
    def size(self) -> int:
        """The bytes it holds (its encodings and a fixed overhead)."""
        return _OVERHEAD + len(self.data) + sum(len(b) for b in self.own.values())

    def for_seat(self, seat: int | None) -> bytes:
        """The form ``seat`` (None: a spectator) is resent."""
        if seat is None:
            return self.data
        return self.own.get(seat, self.data)


class ReplayBuffer:
    """Kept messages in order, the oldest dropped beyond ``max_bytes`` or ``max_count``."""

    def __init__(self, max_bytes: int, max_count: int) -> None:
        self.max_bytes = max_bytes
        self.max_count = max_count
        self.kept: deque[Kept] = deque()
        self.size_bytes = 0
        self.dropped_through = 0
        """The newest seq dropped (0: none): a client that saw less cannot resume here."""

    def keep(self, seq: int, data: bytes, own: Mapping[int, bytes] | None = None) -> None:
        """Keep message ``seq`` (``data`` for everyone, ``own`` for seats shown more)."""
        k = Kept(seq, data, own or {})
        self.kept.append(k)
        self.size_bytes += k.size
        while self.kept and (
            self.size_bytes > self.max_bytes or len(self.kept) > self.max_count
        ):
            old = self.kept.popleft()
            self.size_bytes -= old.size
            self.dropped_through = max(self.dropped_through, old.seq)

    def since(self, after: int, seat: int | None) -> list[bytes] | None:
        """Every kept message after ``after`` as ``seat`` is resent it, in order; None when
        some of them were dropped already (send a snapshot instead)."""
        if after < self.dropped_through:
            return None
        return [k.for_seat(seat) for k in self.kept if k.seq > after]
