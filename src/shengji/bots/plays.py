"""Building candidate plays from one's own hand: follows that keep the structure rule,
ruffs, discards and throws. ``key`` gives each card kind a preference (lower is played
first), so the same builders make a cheap play, a point-feeding play or a strong one.

Every follow built here is checked with the engine's own ``follow_refusal``.

>>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
>>> from shengji.core.order import context
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.follow import analyse_lead
>>> ctx = context(8, 1)                                   # level 10, hearts trump
>>> lead = analyse_lead(p("SK SK"), ctx, PRESETS["classic"])
>>> hand = counts_of(p("S3 S3 S4 S5 S5 C2"))
>>> cards_str(structured(lead, hand, ctx, [0.0] * 54))    # a pair is owed: the cheapest
'S3 S3'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from shengji.core.follow import (
    Lead,
    best_structure_key,
    follow_refusal,
    structure_key,
    suit_count,
)
from shengji.core.order import TRUMP, TrumpContext
from shengji.core.tricks import dominant_component
from shengji.core.units import Component, PosCounts, placements, pos_counts, pos_counts_from_hand

Key = list[float]
"""Preference per card kind: lower is played first."""

_MAX_NODES: Final = 400


def cards_of(hand: tuple[int, ...], kinds: Sequence[int] | range = range(54)) -> list[int]:
    """The cards of a count vector among ``kinds``, with repeats."""
    return [k for k in kinds if hand[k] for _ in range(hand[k])]


def realize(faces: dict[int, int], hand: tuple[int, ...], ctx: TrumpContext, key: Key) -> list[int]:
    """Real cards of ``hand`` for ``faces`` (face → copies), cheapest kinds first."""
    out: list[int] = []
    if not ctx.two_color:
        for f, n in faces.items():
            out.extend([f] * n)
        return out
    left = list(hand)
    for f, n in faces.items():
        kinds = sorted((k for k in range(54) if ctx.face[k] == f and left[k]), key=lambda k: key[k])
        for k in kinds:
            take = min(n, left[k])
            out.extend([k] * take)
            left[k] -= take
            n -= take
    return out


def _face_key(pc: PosCounts, key: Key) -> dict[int, float]:
    return {e[0]: key[e[0]] for slot in pc for e in slot}


def _take(
    pc: PosCounts, comps: list[Component], fkey: dict[int, float], taken: dict[int, int],
    budget: list[int],
) -> bool:
    """Take disjoint ``comps`` from ``pc`` (cheapest placements first), recording faces."""
    if not comps:
        return True
    (w, length), rest = comps[0], comps[1:]
    opts = sorted(placements(pc, w, length), key=lambda tc: sum(fkey[e[0]] for e in tc[1]))
    for _top, chain in opts:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for e in chain:
            e[1] -= w
            taken[e[0]] = taken.get(e[0], 0) + w
        if _take(pc, rest, fkey, taken, budget):
            return True
        for e in chain:
            e[1] += w
            taken[e[0]] -= w
            if not taken[e[0]]:
                del taken[e[0]]
    return False


def _restore(pc: PosCounts, taken: dict[int, int]) -> None:
    for slot in pc:
        for e in slot:
            e[1] += taken.get(e[0], 0)


def _fill(pc: PosCounts, taken: dict[int, int], n: int, fkey: dict[int, float]) -> None:
    """Add the cheapest single cards until ``taken`` holds ``n`` cards."""
    have = sum(taken.values())
    if have >= n:
        return
    pool = sorted(
        ((fkey[e[0]], e[0]) for slot in pc for e in slot for _ in range(e[1])),
        key=lambda x: x[0],
    )
    for _cost, f in pool[: n - have]:
        taken[f] = taken.get(f, 0) + 1


def _tuples(pc: PosCounts, taken: dict[int, int], w: int, need: int,
            fkey: dict[int, float]) -> None:
    """Add the cheapest ``w``-tuples until ``taken`` holds ``need`` of them."""
    have = sum(n // w for n in taken.values())
    while have < need:
        opts = [e for slot in pc for e in slot if e[1] >= w]
        if not opts:
            return
        e = min(opts, key=lambda e: fkey[e[0]])
        e[1] -= w
        taken[e[0]] = taken.get(e[0], 0) + w
        have = sum(n // w for n in taken.values())


def _comp_sets(lead: Lead, best: tuple[int, ...]) -> list[list[Component]]:
    """Component lists that reach ``best``'s tractor part (generic leads)."""
    if lead.rungs is not None:
        return [sorted(alt, key=lambda c: -c[0] * c[1]) for alt in lead.rungs[-best[0]]]
    if not lead.tractors or not best[0]:
        return [[]]
    out: list[list[Component]] = []
    for k in range(len(lead.tractors), 0, -1):
        for sub in itertools.combinations(lead.tractors, k):
            if sum(a * b for a, b in sub) == best[0] and list(sub) not in out:
                out.append(list(sub))
    return out


def structured(
    lead: Lead, hand: tuple[int, ...], ctx: TrumpContext, key: Key,
    best: tuple[int, ...] | None = None,
) -> tuple[int, ...] | None:
    """A legal follow from ``hand`` with the led suit's owed structure, cheapest by ``key``
    (``best``: the hand's ``best_structure_key``, when worked out already).

    Only for a follower who holds more cards of the led suit than the lead has.
    """
    s, n = lead.suit, lead.size
    pc = pos_counts_from_hand(hand, s, ctx)
    if best is None:
        best = best_structure_key(lead, pc)
    fkey = _face_key(pc, key)
    budget = [_MAX_NODES]
    for comps in _comp_sets(lead, best):
        taken: dict[int, int] = {}
        if not _take(pc, comps, fkey, taken, budget):
            continue
        if lead.rungs is None:
            tail = best[1:] if lead.tractors else best
            for (w, _cap), need in zip(lead.slots, tail, strict=True):
                _tuples(pc, taken, w, need, fkey)
        _fill(pc, taken, n, fkey)
        pc = pos_counts_from_hand(hand, s, ctx)  # _take and _tuples used it up
        if sum(taken.values()) != n:
            continue
        play = tuple(sorted(realize(taken, hand, ctx, key)))
        if structure_key(lead, pos_counts(play, s, ctx)) == best and (
            follow_refusal(lead, hand, play, ctx, best) is None
        ):
            return play
    return None


def same_shape_units(
    lead: Lead, hand: tuple[int, ...], ctx: TrumpContext, suit: int
) -> list[tuple[int, tuple[int, ...]]]:
    """``(top, cards)`` for each unit of ``suit`` in ``hand`` shaped like a one-unit lead."""
    u = lead.units[0]
    pc = pos_counts_from_hand(hand, suit, ctx)
    out: list[tuple[int, tuple[int, ...]]] = []
    seen: set[int] = set()
    zero = [0.0] * 54
    for top, chain in placements(pc, u.width, u.length):
        if top in seen:
            continue
        seen.add(top)
        faces = {e[0]: u.width for e in chain}
        out.append((top, tuple(sorted(realize(faces, hand, ctx, zero)))))
    return out


def ruffs(lead: Lead, hand: tuple[int, ...], ctx: TrumpContext, key: Key) -> list[tuple[int, ...]]:
    """All-trump plays that hold every shape of an off-suit lead, one per dominant top,
    cheapest by ``key`` (lowest top first)."""
    n = lead.size
    trumps = suit_count(hand, TRUMP, ctx)
    if trumps < n or lead.suit == TRUMP:
        return []
    pc = pos_counts_from_hand(hand, TRUMP, ctx)
    fkey = _face_key(pc, key)
    dom = dominant_component(lead.units)
    rest = [u.shape for u in lead.units]
    rest.remove(dom)
    rest.sort(key=lambda c: -c[0] * c[1])
    out: list[tuple[int, ...]] = []
    tops: set[int] = set()
    budget = [_MAX_NODES]
    for top, chain in list(placements(pc, *dom))[::-1]:
        if top in tops:
            continue
        taken: dict[int, int] = {}
        for e in chain:
            e[1] -= dom[0]
            taken[e[0]] = taken.get(e[0], 0) + dom[0]
        ok = _take(pc, rest, fkey, taken, budget)
        if ok:
            _restore(pc, taken)
            fill_pc = pos_counts_from_hand(hand, TRUMP, ctx)
            for slot in fill_pc:
                for e in slot:
                    e[1] -= taken.get(e[0], 0)
            _fill(fill_pc, taken, n, fkey)
            out.append(tuple(sorted(realize(taken, hand, ctx, key))))
            tops.add(top)
        else:
            _restore(pc, taken)
        if budget[0] < 0:
            break
    return out


def cheapest(cards: Sequence[int], n: int, key: Key) -> list[int]:
    """The ``n`` cards of ``cards`` with the lowest ``key``."""
    return sorted(cards, key=lambda k: key[k])[:n]
