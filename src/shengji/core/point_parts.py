"""The attackers' points of a finished deal, taken apart into what the deal summary shows:
the point cards won in tricks, failed-throw penalties, and what the last trick did — the
kitty's points times its multiplier (扣底), the kitty kept by the dealer side, or, where the
ruleset transfers points on the last trick (四副牌 抠底), one side's points times the
multiplier going to the other. The parts always add up to the deal's ``attacker_points``.

Also which kitty penalty of find-a-friend (J 抠底, A 抠底; seed 002 items 5, 6) the end calls
for, so the summary can name it.

>>> part = PointsPart("kitty", 40, 20, 2)
>>> part.points == part.base * part.multiplier
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shengji.core.cards import points
from shengji.core.display import table_facts
from shengji.core.friend_levels import kitty_penalty_kind
from shengji.core.state import DealResult, DealState

PartKind = Literal["tricks", "penalty", "kitty", "kitty_kept", "transfer_won", "transfer_lost"]
"""``tricks``: point cards the attackers won; ``penalty``: failed throws (signed);
``kitty``: the kitty's points × multiplier (the attackers won the last trick);
``kitty_kept``: the dealer side won the last trick and keeps the kitty (0 to the attackers);
``transfer_won``: the attackers won the last trick and take the defenders' points × the
multiplier; ``transfer_lost``: the defenders won it and take the attackers' points × the
multiplier (negative)."""


@dataclass(frozen=True, slots=True)
class PointsPart:
    """One line of the sum: ``points`` to the attackers; ``base`` × ``multiplier`` where
    the line multiplies (``base``: the kitty's or a side's points)."""

    kind: PartKind
    points: int
    base: int | None = None
    multiplier: int | None = None


def point_parts(deal: DealState) -> tuple[PointsPart, ...]:
    """The parts of a finished deal's attacker points (``ValueError`` before its end).

    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
    >>> point_parts(s)
    Traceback (most recent call last):
    ...
    ValueError: the deal is not over: no points to take apart
    """
    res = deal.result
    if res is None:
        raise ValueError("the deal is not over: no points to take apart")
    facts = table_facts(deal, None)
    won = sum(points(c) for c in facts.point_cards)
    parts = [PointsPart("tricks", won)]
    if facts.penalty_points:
        parts.append(PointsPart("penalty", facts.penalty_points))
    parts.append(_last_trick(deal, res))
    return tuple(parts)


def _last_trick(deal: DealState, res: DealResult) -> PointsPart:
    """What the last trick gave the attackers."""
    gain, mult = res.kitty_gain, res.kitty_multiplier
    if deal.ruleset.kitty_formula == "last-trick-transfer":
        base = abs(gain) // mult if mult else 0
        kind: PartKind = "transfer_won" if res.kitty_captured else "transfer_lost"
        return PointsPart(kind, gain, base, mult)
    if res.kitty_captured:
        return PointsPart("kitty", gain, res.kitty_points, mult)
    return PointsPart("kitty_kept", gain, res.kitty_points, None)


def kitty_penalty(deal: DealState) -> tuple[str, int] | None:
    """The find-a-friend kitty penalty a finished deal called for: ``("jack", levels the
    dealer side lost)`` (the attackers captured the kitty on J with a J unit), ``("ace",
    3)`` (on A with an A: the dealer back to J, the friend down 3), or None."""
    return None if deal.result is None else kitty_penalty_kind(deal.ruleset, deal, deal.result)
