"""Throws (甩牌): validation against the other hands and the forced play on failure.

A throw is valid when no other player holds, in the same suit, a unit of the same shape
that beats one of its units. When it fails the leader plays one failing unit instead:
the smallest (the lowest bottom card, then fewer cards, then the lower top), as every preset
does ("则其必须出欲联出的牌中的最小牌"), or with the room option
``throw_forced="structure-first"`` the failing unit of the biggest structure (tractor, then
triple, then pair, then single).

>>> from shengji.core.order import context
>>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
>>> from shengji.core.ruleset import PRESETS
>>> r = check_throw(p("S9 S8 S8 S4 S4"), [counts_of(p("SJ"))], context(8, 1), PRESETS["classic"])
>>> r.valid, cards_str(r.play)
(False, 'S9')
>>> others = [counts_of(p("SA SA SA")), counts_of(p("S5 S5"))]  # three decks: KKK and 44 fail
>>> cards_str(check_throw(p("SK SK SK S4 S4"), others, context(0, 1), PRESETS["three-deck"]).play)
'S4 S4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shengji.core.order import TrumpContext
from shengji.core.ruleset import Ruleset
from shengji.core.units import (
    PosCounts,
    Unit,
    best_placement_top,
    decompose,
    pos_counts_from_hand,
    suit_of_play,
)


@dataclass(frozen=True)
class ThrowResult:
    """Outcome of a lead: ``play`` is what is actually played."""

    valid: bool
    play: tuple[int, ...]
    failed: tuple[Unit, ...]
    reason: str | None = None


def unit_beaten(unit: Unit, others: Sequence[Sequence[int]], ctx: TrumpContext) -> bool:
    """Whether some other hand (count vectors) can form a higher unit of the same shape."""
    return _beaten(unit, [pos_counts_from_hand(h, unit.suit, ctx) for h in others])


def _beaten(unit: Unit, others: Sequence[PosCounts]) -> bool:
    return any(best_placement_top(pc, unit.shape) > unit.top for pc in others)


def _forced_key(unit: Unit, ruleset: Ruleset) -> tuple[int, ...]:
    if ruleset.throw_forced == "structure-first":
        return (-(unit.length > 1), -unit.width, -unit.length, unit.top)
    return (unit.top - unit.length + 1, unit.size, unit.top)


def cards_for_unit(unit: Unit, source: Sequence[int], ctx: TrumpContext) -> tuple[int, ...]:
    """The actual cards of ``source`` that make up ``unit`` (faces map back to real cards)."""
    pool = list(source)
    out: list[int] = []
    for f in unit.faces:
        for _ in range(unit.width):
            k = next(c for c in pool if ctx.face[c] == f)
            pool.remove(k)
            out.append(k)
    return tuple(out)


def check_throw(
    lead: Sequence[int], others: Sequence[Sequence[int]], ctx: TrumpContext, ruleset: Ruleset
) -> ThrowResult:
    """Check a lead against the other players' hands (count vectors)."""
    suit = suit_of_play(lead, ctx)
    if suit is None:
        return ThrowResult(False, (), (), "a lead must be cards of one suit")
    units = decompose(lead, ctx)
    if len(units) == 1:
        return ThrowResult(True, tuple(lead), ())
    if ruleset.throw_policy == "never":
        return ThrowResult(False, (), tuple(units), "throws are not allowed in this ruleset")
    if ruleset.throw_policy == "others-void":
        es = ctx.esuit
        if any(n and es[k] == suit for hand in others for k, n in enumerate(hand)):
            return ThrowResult(
                False, (), tuple(units), "a throw is allowed only when all others are void"
            )
        return ThrowResult(True, tuple(lead), ())
    pcs = [pos_counts_from_hand(h, suit, ctx) for h in others]  # once per hand, not per unit
    failed = tuple(u for u in units if _beaten(u, pcs))
    if not failed:
        return ThrowResult(True, tuple(lead), ())
    forced = min(failed, key=lambda u: _forced_key(u, ruleset))
    return ThrowResult(False, cards_for_unit(forced, lead, ctx), failed, "the throw failed")
