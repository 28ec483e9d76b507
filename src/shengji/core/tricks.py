"""Who wins a trick: following plays, ruffs (毙), over-ruffs (盖毙) and discards (RULES.md §4).

A follower beats the best play so far only with the lead's shape in the led suit (a single
unit, higher), or with a valid ruff: trumps on an off-suit lead that contain every unit shape
of the lead. Ruffs are compared by the lead's biggest structure; ties go to the earlier play.
A throw is beaten only by a ruff.

>>> from shengji.core.order import context
>>> from shengji.core.cards import parse_cards as p
>>> from shengji.core.ruleset import PRESETS
>>> trick_winner([p("S5 S4 S4"), p("H9 H7 H7"), p("H8 H8 H4")], context(8, 1), PRESETS["classic"])
2
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.cards import points_of
from shengji.core.follow import analyse_lead
from shengji.core.order import TRUMP, TrumpContext
from shengji.core.ruleset import Ruleset
from shengji.core.units import (
    Component,
    Unit,
    best_placement_top,
    can_place,
    decompose,
    pos_counts,
    suit_of_play,
)


def _unit_key(unit: Unit, lead_unit: Unit, ruleset: Ruleset) -> tuple[int, int] | None:
    """Rank of a one-unit play against a one-unit lead, or None if it has the wrong shape."""
    if ruleset.stronger_shapes_beat:
        if unit.size == lead_unit.size and unit.width >= lead_unit.width:
            return (unit.width, unit.top)
        return None
    if unit.shape == lead_unit.shape:
        return (0, unit.top)
    return None


def dominant_component(units: Sequence[Unit]) -> Component:
    """The lead's biggest structure: its largest tractor, else its widest tuple."""
    return max(((u.length > 1, u.size, u.width), u.shape) for u in units)[1]


def _single_card_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext) -> int:
    """Fast path for one-card tricks: the highest card of the led suit or of trump."""
    es, pos = ctx.esuit, ctx.pos
    lead_suit = es[plays[0][0]]
    best_i, best_trump, best_pos = 0, lead_suit == TRUMP, pos[plays[0][0]]
    for i in range(1, len(plays)):
        c = plays[i][0]
        s = es[c]
        if s == TRUMP:
            if not best_trump or pos[c] > best_pos:
                best_i, best_trump, best_pos = i, True, pos[c]
        elif s == lead_suit and not best_trump and pos[c] > best_pos:
            best_i, best_pos = i, pos[c]
    return best_i


def trick_winner(plays: Sequence[Sequence[int]], ctx: TrumpContext, ruleset: Ruleset) -> int:
    """Index into ``plays`` (the lead first) of the winning play; plays are assumed legal."""
    if len(plays[0]) == 1:
        return _single_card_winner(plays, ctx)
    lead = analyse_lead(plays[0], ctx, ruleset)
    if len(lead.units) == 1:
        lead_unit = lead.units[0]
        best_i = 0
        base = _unit_key(lead_unit, lead_unit, ruleset)
        assert base is not None
        best: tuple[int, int, int] = (int(lead.suit == TRUMP), *base)
        for i, play in enumerate(plays[1:], start=1):
            s = suit_of_play(play, ctx)
            if s is None or (s != lead.suit and s != TRUMP):
                continue
            units = decompose(play, ctx)
            if len(units) != 1:
                continue
            key = _unit_key(units[0], lead_unit, ruleset)
            if key is None:
                continue
            full = (int(s == TRUMP), *key)
            if full > best:
                best, best_i = full, i
        return best_i
    if lead.suit == TRUMP:
        return 0
    shapes = [u.shape for u in lead.units]
    dominant = dominant_component(lead.units)
    best_i, best_top = 0, -1
    for i, play in enumerate(plays[1:], start=1):
        if suit_of_play(play, ctx) != TRUMP:
            continue
        pc = pos_counts(play, TRUMP, ctx)
        if not can_place(pc, shapes):
            continue
        top = best_placement_top(pc, dominant)
        if top > best_top:
            best_i, best_top = i, top
    return best_i


def is_valid_ruff(lead: Sequence[int], play: Sequence[int], ctx: TrumpContext) -> bool:
    """Whether all-trump ``play`` holds every unit shape of an off-suit ``lead``."""
    if suit_of_play(play, ctx) != TRUMP or suit_of_play(lead, ctx) in (None, TRUMP):
        return False
    return can_place(pos_counts(play, TRUMP, ctx), [u.shape for u in decompose(lead, ctx)])


def trick_points(plays: Sequence[Sequence[int]]) -> int:
    """Points on the table: ``trick_points([[5 of S], [K of H]])`` counts 5s, 10s and Ks."""
    return sum(points_of(p) for p in plays)
