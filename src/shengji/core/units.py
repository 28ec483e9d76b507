"""Units of play: singles, tuples (pair, triple, quad) and tractors of any width (RULES.md §3).

A *unit* has a width (copies per rank) and a length (consecutive positions; 1 for a plain
tuple). A play of one effective suit decomposes into units: every face forms a tuple of its
own count, and tuples of equal width on consecutive positions join into tractors (longest
first). A *component* ``(width, length)`` is a shape to look for inside a set of cards.

>>> from shengji.core.order import context
>>> from shengji.core.cards import parse_cards
>>> ctx = context(level=8, trump=1)                       # level 10, hearts trump
>>> classify(parse_cards("SK SK SQ SQ"), ctx).kind
'tractor'
>>> classify(parse_cards("S5 S5 S3 S3"), ctx).kind
'throw'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from shengji.core.cards import cards_str
from shengji.core.order import TRUMP, TrumpContext

Component = tuple[int, int]
"""A shape to find: ``(width, length)``; ``(2, 1)`` is a pair, ``(2, 3)`` a 3-pair tractor."""

TUPLE_NAMES: Final = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


@dataclass(frozen=True)
class Unit:
    """One unit of a play: ``width`` copies of each of ``faces`` (top position first)."""

    width: int
    length: int
    faces: tuple[int, ...]
    top: int
    """Position of the highest face."""
    suit: int
    """Effective suit."""

    def __init__(
        self, width: int, length: int, faces: tuple[int, ...], top: int, suit: int
    ) -> None:
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "length", length)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "top", top)
        object.__setattr__(self, "suit", suit)

    @property
    def size(self) -> int:
        """Number of cards."""
        return self.width * self.length

    @property
    def shape(self) -> Component:
        """``(width, length)``."""
        return (self.width, self.length)

    @property
    def kind(self) -> str:
        """``single``, ``pair``, ``triple``, ``quad`` or ``tractor``."""
        return "tractor" if self.length > 1 else TUPLE_NAMES.get(self.width, "tuple")

    def cards(self) -> list[int]:
        """The unit's cards as faces, highest first."""
        return [f for f in self.faces for _ in range(self.width)]

    def __str__(self) -> str:
        return cards_str(self.cards())


@dataclass(frozen=True)
class Classification:
    """What a set of cards is: ``kind`` and, for one unit, its width and length."""

    kind: str
    width: int | None
    length: int | None
    units: tuple[Unit, ...]
    suit: int | None
    """The effective suit, or None for a mixed set."""


PosCounts = list[list[list[int]]]
"""Position → list of ``[face, count]`` (count > 0): the cards of one suit, by position."""


def suit_of_play(cards: Sequence[int], ctx: TrumpContext) -> int | None:
    """The one effective suit of ``cards``, or None when they mix suits (or are empty)."""
    if not cards:
        return None
    es = ctx.esuit
    s = es[cards[0]]
    for c in cards:
        if es[c] != s:
            return None
    return s


def pos_counts(cards: Sequence[int], suit: int, ctx: TrumpContext) -> PosCounts:
    """Cards of ``suit`` among ``cards`` arranged by position (see ``PosCounts``)."""
    layers = ctx.pos_faces[suit]
    out: PosCounts = [[] for _ in layers]
    es, pos, face = ctx.esuit, ctx.pos, ctx.face
    for c in cards:
        if es[c] != suit:
            continue
        f = face[c]
        slot = out[pos[c]]
        for entry in slot:
            if entry[0] == f:
                entry[1] += 1
                break
        else:
            slot.append([f, 1])
    return out


def pos_counts_from_hand(hand: Sequence[int], suit: int, ctx: TrumpContext) -> PosCounts:
    """Like ``pos_counts`` but from a 54-long count vector."""
    layers = ctx.pos_faces[suit]
    if ctx.two_color:
        out: PosCounts = [[] for _ in layers]
        face = ctx.face
        for p, layer in enumerate(layers):
            for f in layer:
                n = hand[f] + sum(hand[k] for k in range(54) if k != f and face[k] == f)
                if n:
                    out[p].append([f, n])
        return out
    return [[[f, hand[f]] for f in layer if hand[f]] for layer in layers]


def decompose_counts(pc: PosCounts, suit: int) -> list[Unit]:
    """Units of the cards in ``pc`` (one suit): widest first, longest first, highest first."""
    by_width: dict[int, list[tuple[int, int]]] = {}
    for p, slot in enumerate(pc):
        for f, n in slot:
            by_width.setdefault(n, []).append((p, f))
    units: list[Unit] = []
    for w in sorted(by_width, reverse=True):
        items = by_width[w]
        if w == 1:
            units.extend(Unit(1, 1, (f,), p, suit) for p, f in items)
            continue
        left: dict[int, list[int]] = {}
        for p, f in items:
            left.setdefault(p, []).append(f)
        while left:
            run_lo, run_hi = _longest_run(left)
            if run_hi == run_lo:
                break
            faces = tuple(left[p].pop(0) for p in range(run_hi, run_lo - 1, -1))
            for p in range(run_lo, run_hi + 1):
                if not left[p]:
                    del left[p]
            units.append(Unit(w, run_hi - run_lo + 1, faces, run_hi, suit))
        for p in sorted(left):
            units.extend(Unit(w, 1, (f,), p, suit) for f in left[p])
    units.sort(key=lambda u: (-u.width, -u.length, -u.top))
    return units


def _longest_run(left: dict[int, list[int]]) -> tuple[int, int]:
    """Bounds of the longest run of consecutive positions (the highest on ties)."""
    best = (0, -1, -1)
    for p in left:
        if p - 1 in left:
            continue
        q = p
        while q + 1 in left:
            q += 1
        cand = (q - p + 1, q, p)
        if cand > best:
            best = cand
    return best[2], best[1]


def decompose(cards: Sequence[int], ctx: TrumpContext) -> list[Unit]:
    """Units of cards that share one effective suit.

    >>> from shengji.core.order import context
    >>> from shengji.core.cards import parse_cards
    >>> [str(u) for u in decompose(parse_cards("S9 S8 S8 S4 S4"), context(8, 1))]
    ['S8 S8', 'S4 S4', 'S9']
    """
    suit = suit_of_play(cards, ctx)
    if suit is None:
        raise ValueError("decompose needs cards of one effective suit")
    return decompose_counts(pos_counts(cards, suit, ctx), suit)


def classify(cards: Sequence[int], ctx: TrumpContext) -> Classification:
    """Single, pair, triple, quad, tractor, throw (several units of one suit) or mixed."""
    if not cards:
        return Classification("empty", None, None, (), None)
    suit = suit_of_play(cards, ctx)
    if suit is None:
        units: list[Unit] = []
        for s in sorted({ctx.esuit[c] for c in cards}):
            units.extend(decompose([c for c in cards if ctx.esuit[c] == s], ctx))
        return Classification("mixed", None, None, tuple(units), None)
    units = decompose(cards, ctx)
    if len(units) == 1:
        u = units[0]
        return Classification(u.kind, u.width, u.length, (u,), suit)
    return Classification("throw", None, None, tuple(units), suit)


# ---------------------------------------------------------------- finding shapes in cards


def placements(pc: PosCounts, width: int, length: int) -> Iterator[tuple[int, list[list[int]]]]:
    """Every way to take ``length`` consecutive positions of ``width`` copies, highest first.

    Yields ``(top_position, entries)`` where ``entries`` are the ``[face, count]`` cells used.
    """
    run = 0  # positions from ``lo`` up that hold ``width`` copies of some face
    for lo in range(len(pc) - 1, -1, -1):
        held = False
        for e in pc[lo]:
            if e[1] >= width:
                held = True
                break
        run = run + 1 if held else 0
        if run >= length:
            hi = lo + length - 1
            for chain in _chains(pc, width, lo, hi):
                yield hi, chain


def _chains(pc: PosCounts, width: int, lo: int, hi: int) -> Iterator[list[list[int]]]:
    if lo > hi:
        yield []
        return
    for e in pc[hi]:
        if e[1] >= width:
            for rest in _chains(pc, width, lo, hi - 1):
                yield [e, *rest]


def can_place(pc: PosCounts, components: Sequence[Component]) -> bool:
    """Whether disjoint copies of all ``components`` can be found in ``pc``."""
    comps = sorted(components, key=lambda c: (-c[0] * c[1], -c[0]))
    return _place(pc, comps, 0)


def _place(pc: PosCounts, comps: list[Component], i: int) -> bool:
    if i == len(comps):
        return True
    w, length = comps[i]
    for _top, chain in placements(pc, w, length):
        for e in chain:
            e[1] -= w
        ok = _place(pc, comps, i + 1)
        for e in chain:
            e[1] += w
        if ok:
            return True
    return False


def best_placement_top(pc: PosCounts, component: Component) -> int:
    """Top position of the highest placement of ``component``, or -1 if none."""
    for top, _chain in placements(pc, *component):
        return top
    return -1


def max_tractor_cover(pc: PosCounts, tractors: Sequence[Component]) -> int:
    """Largest total card count of ``tractors`` that disjoint tractors in ``pc`` can match."""
    if not tractors:
        return 0
    w, length = tractors[0]
    best = max_tractor_cover(pc, tractors[1:])
    for _top, chain in placements(pc, w, length):
        for e in chain:
            e[1] -= w
        got = w * length + max_tractor_cover(pc, tractors[1:])
        for e in chain:
            e[1] += w
        if got > best:
            best = got
            if best == sum(a * b for a, b in tractors):
                break
    return best


def is_trump_suit(suit: int | None) -> bool:
    """Whether an effective suit is the trump suit."""
    return suit == TRUMP
