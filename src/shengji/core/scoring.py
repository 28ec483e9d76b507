"""Points, the kitty multiplier (RULES.md §6) and level changes (RULES.md §7).

>>> from shengji.core.order import context
>>> from shengji.core.cards import parse_cards as p
>>> from shengji.core.ruleset import PRESETS
>>> kitty_multiplier(p("S4 S4 S5 S5"), p("S4 S4 S5 S5"), context(8, 1), PRESETS["classic"])
16
>>> level_change(120, PRESETS["classic"])
LevelChange(defender_levels=0, attacker_levels=1, attackers_take_over=True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from shengji.core.order import TrumpContext
from shengji.core.ruleset import Ruleset
from shengji.core.units import Unit, classify, decompose


class LevelChange(NamedTuple):
    """Result of a deal for the level table."""

    defender_levels: int
    attacker_levels: int
    attackers_take_over: bool


def winning_units(
    lead: Sequence[int], winning_play: Sequence[int], ctx: TrumpContext, by_winner: bool = False
) -> list[Unit]:
    """The units a winning play counts with: its own single unit, else the lead's shapes;
    ``by_winner`` (联众 / 边锋 "根据最大一方牌情"): a throw's winner counts its own units.

    >>> from shengji.core.order import context
    >>> from shengji.core.cards import parse_cards as p
    >>> ctx = context(8, 1)                                   # level 10, hearts trump
    >>> [str(u) for u in winning_units(p("SA SK"), p("H3 H3"), ctx)]
    ['SA', 'SK']
    >>> [str(u) for u in winning_units(p("SA SK"), p("H3 H3"), ctx, by_winner=True)]
    ['H3 H3']
    """
    lead_units = decompose(lead, ctx)
    c = classify(winning_play, ctx)
    if c.kind in ("mixed", "empty"):
        return lead_units
    if len(c.units) == 1 and len(lead_units) == 1:
        return list(c.units)
    return list(c.units) if by_winner else lead_units


def kitty_multiplier(
    lead: Sequence[int], winning_play: Sequence[int], ctx: TrumpContext, ruleset: Ruleset
) -> int:
    """Multiplier of the kitty's points when ``winning_play`` takes the last trick; a
    throw's units are the lead's or the winner's as ``ruleset.kitty_throw_units`` says."""
    units = winning_units(lead, winning_play, ctx, ruleset.kitty_throw_units == "winner")
    formula = ruleset.kitty_formula
    if formula == "power-of-size":
        return min(ruleset.kitty_cap, max(1 << u.size for u in units))
    if formula == "lianzhong":
        return lianzhong_multiplier(units)
    if formula == "tournament":
        if len(units) > 1:
            return 2
        u = units[0]
        return 8 if u.length > 1 else 4 if u.width > 1 else 2
    # last-trick-transfer (4 decks): cards in the unit that won.
    return max(u.size for u in units)


def lianzhong_multiplier(units: Sequence[Unit]) -> int:
    """联众 / 边锋 扣底: the first pattern the units hold, in the sheet's order ("…且不再计算
    其他牌型"): a Titanic of n triples 2·3^n, a triple 6, a tractor of n pairs 2·2^n, a pair
    4, else 2. So the widest units decide, the longest of them counting: 2·width^length.

    >>> from shengji.core.order import context
    >>> from shengji.core.cards import parse_cards as p
    >>> lianzhong_multiplier(decompose(p("SA SA SA SK SK SQ SQ"), context(0, 1)))  # not 8
    6
    """
    widest = max(u.width for u in units)
    return max(2 * int(widest**u.length) for u in units if u.width == widest)


def level_change(attacker_points: int, ruleset: Ruleset) -> LevelChange:
    """Levels gained for the attackers' final points under the ruleset's table."""
    return LevelChange(*ruleset.levels.result(attacker_points))


def advance(ruleset: Ruleset, index: int, steps: int, as_dealer: bool = True) -> int:
    """New index into the level sequence after going up ``steps``.

    A must-play rank (必打) stops the climb, and a side leaves it only by winning a deal
    there as the dealer side: attackers taking over while on it stay on it.

    >>> from shengji.core.ruleset import PRESETS
    >>> t = PRESETS["tournament"]                 # 2, 5, 10, J, Q, K, A; must play 2 and A
    >>> advance(t, 0, 3, as_dealer=False), advance(t, 0, 3), advance(t, 1, 9)
    (0, 3, 6)
    """
    seq = ruleset.level_sequence
    if not as_dealer and seq[index] in ruleset.must_play:
        return index
    target = min(index + steps, len(seq) - 1)
    for i in range(index + 1, target):
        if seq[i] in ruleset.must_play:
            return i
    return target
