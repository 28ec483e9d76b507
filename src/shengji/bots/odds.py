"""Rough odds about the hidden hands, from a ``Memory`` and the public hand sizes.

The unseen cards are treated as dealt at random over the other hands and the hidden kitty,
except that a seat known to be void in a suit holds none of it. ``beat_chance`` estimates
whether a seat still to play can beat the best play of a trick.

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.order import context
>>> from shengji.bots.memory import Memory
>>> m = Memory(context(8, 1), decks=2, players=4, seat=0)
>>> m.set_hand(counts_of(p("SA SA")))
>>> o = Odds(m, sizes=(25, 25, 25, 25), hidden_kitty=8)
>>> o.void(1, 0) < 0.01, o.higher(1, 0, 1, 1, m.ctx.pos[p("SA")[0]])
(True, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Final

from shengji.bots.memory import Memory
from shengji.core.order import TRUMP
from shengji.core.units import Unit, placements


class Odds:
    """Chance estimates for one decision (cached per question)."""

    def __init__(self, mem: Memory, sizes: tuple[int, ...], hidden_kitty: int) -> None:
        self.mem = mem
        self.sizes = sizes
        self.hidden_kitty = hidden_kitty
        self._void: dict[int, float] = {}
        self._higher: dict[int, float] = {}
        """Both keyed by one int packing the question (no tuple to build and hash)."""
        self._pools: dict[int, int] = {}

    def _pool(self, seat: int, suit: int) -> int:
        """Cards that could hold the unseen cards of ``suit``: hands not void in it + kitty."""
        got = self._pools.get(suit)
        if got is None:
            m = self.mem
            got = self.hidden_kitty
            for p in range(m.players):
                if p != m.seat and suit not in m.voids[p]:
                    got += self.sizes[p]
            got = self._pools[suit] = max(got, 1)
        return got

    def count_above(self, suit: int, top: int) -> int:
        """Unseen cards of ``suit`` ranked above position ``top``."""
        return self.mem.unseen_above(suit)[top + 1]

    def share(self, seat: int, suit: int) -> float:
        """Fraction of the unseen cards of ``suit`` a seat holds on average."""
        if suit in self.mem.voids[seat]:
            return 0.0
        return min(1.0, self.sizes[seat] / self._pool(seat, suit))

    def void(self, seat: int, suit: int) -> float:
        """Chance that ``seat`` holds no card of ``suit``."""
        key = seat * 8 + suit
        got = self._void.get(key)
        if got is not None:
            return got
        size = self.sizes[seat]
        if suit in self.mem.voids[seat] or size == 0:
            p = 1.0
        else:
            p = _none_drawn(size, self._pool(seat, suit), self.mem.suit_unseen(suit))
        self._void[key] = p
        return p

    def higher(self, seat: int, suit: int, width: int, length: int, top: int) -> float:
        """Chance that ``seat`` holds a unit of this shape in ``suit`` above position ``top``."""
        if width == 1 and length == 1:
            return self.higher_single(seat, suit, top)
        # seat < 8, suit < 8, width < 8, length < 64, -1 <= top < 255: one int per question
        key = (((seat * 8 + suit) * 8 + width) * 64 + length) * 256 + top + 1
        got = self._higher.get(key)
        if got is None:
            got = self._higher[key] = self._higher_uncached(seat, suit, width, length, top)
        return got

    def higher_single(self, seat: int, suit: int, top: int) -> float:
        """``higher`` for one card (most questions; cheap enough not to be cached)."""
        m = self.mem
        if suit in m.voids[seat]:
            return 0.0
        c = m.unseen_above(suit)[top + 1]
        if not c:
            return 0.0
        q = min(1.0, self.sizes[seat] / self._pool(seat, suit))  # ``share``: not void here
        if q <= 0.0:
            return 0.0
        return 1.0 - (1.0 - q) ** c

    def _higher_uncached(self, seat: int, suit: int, width: int, length: int, top: int) -> float:
        m = self.mem
        if suit in m.voids[seat] or (width > 1 and suit in m.pairless[seat]):
            return 0.0
        q = self.share(seat, suit)
        if q <= 0.0:
            return 0.0
        pc = m.unseen_pc(suit)
        if length == 1:
            miss = 1.0
            qw = q**width
            for p in range(top + 1, len(pc)):
                for e in pc[p]:
                    if e[1] >= width:
                        miss *= 1.0 - min(1.0, comb(e[1], width) * qw)
            return 1.0 - miss
        miss = 1.0
        for t, chain in placements(pc, width, length):
            if t <= top:
                break
            hold = 1.0
            for e in chain:
                hold *= min(1.0, comb(e[1], width) * q**width)
            miss *= 1.0 - hold
        return 1.0 - miss

    def has_shapes(self, seat: int, units: Sequence[Unit]) -> float:
        """Chance that ``seat`` holds trumps forming every shape of ``units`` (a ruff)."""
        if TRUMP in self.mem.voids[seat]:
            return 0.0
        p = 1.0 - self.void(seat, TRUMP)
        for u in units:
            if u.width > 1:
                p *= self.higher(seat, TRUMP, u.width, u.length, -1)
        return p


_NONE_DRAWN: dict[int, float] = {}
"""``_none_drawn``'s answers (a pure function of three small ints, asked again and again
across decisions); emptied when it reaches ``_NONE_DRAWN_MAX`` entries."""
_NONE_DRAWN_MAX: Final = 1 << 16


def _none_drawn(size: int, pool: int, unseen: int) -> float:
    """Chance that ``size`` cards dealt from ``pool`` hold none of ``unseen`` given ones
    (below 1e-4: 0).

    >>> _none_drawn(2, 4, 1)  # 3/4 * 2/3
    0.5
    """
    key = (size * 1024 + pool) * 1024 + unseen
    p = _NONE_DRAWN.get(key)
    if p is not None:
        return p
    p = 1.0
    for j in range(min(size, pool)):
        if pool - j <= 0:
            break
        p *= max(0.0, (pool - unseen - j) / (pool - j))
        if p < 1e-4:
            p = 0.0
            break
    if len(_NONE_DRAWN) >= _NONE_DRAWN_MAX:
        _NONE_DRAWN.clear()
    _NONE_DRAWN[key] = p
    return p
