"""Burying the kitty (扣底): keep trumps, points, boss cards and pairs; empty short suits.

Each card gets a keep-worth (trumps highest, then point cards for the dealer's side, boss
cards, pairs, high ranks). The burial is the cheapest set of ``kitty_size`` cards, where
emptying a whole off-suit (a future ruff) earns a bonus; every subset of off-suits to empty
is tried.

>>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
>>> from shengji.core.order import context
>>> hand = counts_of(p("HA HK H3 H4 SA S10 S5 C3 C4 C6 D7 D8 D9"))
>>> cards_str(sorted(choose_burial(hand, context(0, 1), kitty_size=3, defender=True)))
'C3 C4 C6'
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from shengji.core.cards import points
from shengji.core.order import TRUMP, TrumpContext

VOID_WORTH: Final = 20.0
"""Worth of an empty off-suit when burying."""


def keep_worth(hand: Sequence[int], ctx: TrumpContext, defender: bool, decks: int) -> list[float]:
    """How much each card kind of ``hand`` is worth keeping."""
    worth = [0.0] * 54
    face_n: dict[int, int] = {}
    for k in range(54):
        if hand[k]:
            face_n[ctx.face[k]] = face_n.get(ctx.face[k], 0) + hand[k]
    for s in range(5):
        kinds = [k for k in ctx.suit_kinds[s] if hand[k]]
        if not kinds:
            continue
        npos = len(ctx.pos_faces[s])
        for k in kinds:
            p = ctx.pos[k]
            if s == TRUMP:
                w = 100.0 + p
            else:
                above = sum(
                    decks * len(layer) for layer in ctx.pos_faces[s][p + 1 :]
                ) - sum(hand[j] for j in ctx.suit_kinds[s] if ctx.pos[j] > p)
                w = 30.0 if above == 0 else 14.0 if above <= 2 else 10.0 * p / max(1, npos - 1)
                pts = points(k)
                if pts:
                    w += 40.0 + pts if defender else 2.0
            if face_n[ctx.face[k]] >= 2:
                w += 25.0
            worth[k] = w
    return worth


def _fills(
    hand: Sequence[int], ctx: TrumpContext, kitty_size: int, worth: Sequence[float]
) -> Iterator[tuple[tuple[int, ...], list[int], list[int]]]:
    """For every set of off-suits that fits in the kitty: the suits, their cards, and the
    other cards in the order they fill the rest (off-suit before trump, cheapest first,
    longer suits first)."""
    by_suit: dict[int, list[int]] = {}
    for k in range(54):
        for _ in range(hand[k]):
            by_suit.setdefault(ctx.esuit[k], []).append(k)
    off = [s for s in by_suit if s != TRUMP]
    for r in range(len(off) + 1):
        for voided in combinations(off, r):
            chosen = [k for s in voided for k in by_suit[s]]
            if len(chosen) > kitty_size:
                continue
            rest = sorted(
                (k for s, ks in by_suit.items() if s not in voided for k in ks),
                key=lambda k: (ctx.esuit[k] == TRUMP, worth[k], -len(by_suit[ctx.esuit[k]])),
            )
            yield voided, chosen, rest


def choose_burial(
    hand: Sequence[int], ctx: TrumpContext, kitty_size: int, defender: bool = True,
    decks: int = 2, keep: Sequence[int] = (),
) -> list[int]:
    """The ``kitty_size`` cards to bury from ``hand`` (a count vector, kitty included);
    ``keep``: cards known to have stayed in the hand (the search's inference: cards the
    burier played since), never buried, and their suits never emptied."""
    worth = keep_worth(hand, ctx, defender, decks)
    pickable = list(hand)
    for c in keep:
        pickable[c] -= 1
    kept_suits = {ctx.esuit[c] for c in keep}
    best: tuple[float, list[int]] | None = None
    for voided, chosen, rest in _fills(pickable, ctx, kitty_size, worth):
        if kept_suits.intersection(voided):
            continue
        pick = chosen + rest[: kitty_size - len(chosen)]
        cost = sum(worth[k] for k in pick) - VOID_WORTH * len(voided)
        if best is None or cost < best[0]:
            best = (cost, pick)
    assert best is not None
    return best[1]


def burial_options(
    hand: Sequence[int], ctx: TrumpContext, kitty_size: int, defender: bool = True,
    decks: int = 2, k: int = 8,
) -> list[list[int]]:
    """Up to ``k`` distinct burials worth trying, cheapest by ``choose_burial``'s cost first:
    for every set of off-suits to empty, its cheapest fill and the fills that swap the
    dearest filler for one or two cards further up. For a search to choose among.

    >>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
    >>> from shengji.core.order import context
    >>> hand = counts_of(p("HA HK H3 H4 SA S10 S5 C3 C4 C6 D7 D8 D9"))
    >>> [cards_str(sorted(b)) for b in burial_options(hand, context(0, 1), 3, k=3)]
    ['C3 C4 C6', 'D7 D8 D9', 'D7 C3 C4']
    """
    worth = keep_worth(hand, ctx, defender, decks)
    cost_of: dict[tuple[int, ...], float] = {}
    for voided, chosen, rest in _fills(hand, ctx, kitty_size, worth):
        fill = kitty_size - len(chosen)
        picks = [chosen + rest[:fill]]
        if fill:
            picks += [chosen + rest[: fill - 1] + [rest[j]]
                      for j in (fill, fill + 1) if j < len(rest)]
        for pick in picks:
            key = tuple(sorted(pick))
            cost = sum(worth[c] for c in pick) - VOID_WORTH * len(voided)
            if cost < cost_of.get(key, math.inf):
                cost_of[key] = cost
    ranked = sorted(cost_of, key=lambda key: cost_of[key])
    return [list(b) for b in ranked[:k]]
