"""The messages a room keeps for clients that reconnect, bounded in bytes and in number.

Each public sequenced message is kept once, encoded, with its audience: one form for
everyone, and a second form only for a seat that was shown more (an update with a card
dealt to that seat). A seat's form is kept as its difference from the form for everyone
(the bytes between their common start and end: a round of the deal is one form for
everyone and four short cuts, not five encodings). Updates are kept without ``game`` (a
resuming client asks for a snapshot of its view). When the kept bytes (their objects
counted) pass ``max_bytes`` (or the messages ``max_count``) the oldest go; a client that
resumes from before what is left gets ``None`` from ``since`` and the room sends it a
snapshot instead (the same as a client that never connected).

>>> buf = Backlog(max_bytes=300, max_count=100)
>>> buf.keep(1, b'{"seq":1,"x":"aaaaaaaa"}')
>>> buf.keep(2, b'{"seq":2}', {0: b'{"seq":2,"mine":1}'})
>>> buf.since(0, None) is None       # seq 1 was dropped to stay under 300 bytes
True
>>> buf.since(1, 0), buf.since(1, 3)
([b'{"seq":2,"mine":1}'], [b'{"seq":2}'])
>>> buf.since(2, 0), buf.size_bytes
([], 242)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

_OVERHEAD = 104
"""Bytes counted for each kept message besides its encoding: the entry (56), its deque slot
(8), the encoding's object header (33), rounded up."""

_OWN_OVERHEAD = 120
"""Bytes counted for each seat's form besides its middle bytes: the ``Own`` (72), its slot
(8), the middle's object header (33), rounded up."""


class Own(NamedTuple):
    """A seat's form of a message, as its difference from the form for everyone (``data``):
    ``data[:head] + middle + data[len(data) - tail:]``."""

    seat: int
    head: int
    tail: int
    middle: bytes

    @classmethod
    def of(cls, seat: int, data: bytes, form: bytes) -> Own:
        """``form`` of ``seat`` against ``data``.

        >>> Own.of(0, b'{"events":[7],"seq":2}', b'{"events":[7,"SJ"],"seq":2}')
        Own(seat=0, head=12, tail=10, middle=b',"SJ"')
        """
        head = _common_head(data, form)
        tail = _common_tail(data[head:], form[head:])
        return cls(seat, head, tail, form[head : len(form) - tail])

    def form(self, data: bytes) -> bytes:
        """The seat's whole form again."""
        return data[: self.head] + self.middle + data[len(data) - self.tail :]


def _common_head(a: bytes, b: bytes) -> int:
    """How many bytes ``a`` and ``b`` start with in common (a binary search of slices)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_tail(a: bytes, b: bytes) -> int:
    """How many bytes ``a`` and ``b`` end with in common."""
    return _common_head(a[::-1], b[::-1])


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept message: its number, its form for everyone, and seats' own forms."""

    seq: int
    data: bytes
    own: tuple[Own, ...] = ()

    def __init__(self, seq: int, data: bytes, own: tuple[Own, ...] = ()) -> None:
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "own", own)

    @property
    def seats(self) -> list[int]:
        """The seats with a form of their own."""
        return [o.seat for o in self.own]

    @property
    def size(self) -> int:
        """The bytes it holds (its encodings and a fixed overhead)."""
        return (
            _OVERHEAD
            + len(self.data)
            + sum(_OWN_OVERHEAD + len(o.middle) for o in self.own)
        )

    def for_seat(self, seat: int | None) -> bytes:
        """The form ``seat`` (None: a spectator) is resent."""
        for o in self.own:
            if o.seat == seat:
                return o.form(self.data)
        return self.data


class Backlog:
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
        forms = tuple(Own.of(seat, data, form) for seat, form in own.items()) if own else ()
        k = Kept(seq, data, forms)
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
