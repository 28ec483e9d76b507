"""Bidding (竞标) and naming trump for the three-player game, from hand strength.

A hand's worth as the lone dealer is its best suit's trump strength (``declare.strength``)
plus its off-suit aces and pairs, counting the kitty cards shown to everyone as its own (the
winner takes the kitty). From that the bot predicts the points the two attackers will take
and will deal for any target down to the prediction plus ``MARGIN`` (a little below it):
it bids the highest target the auction allows while that holds, else passes. The winner
names its strongest suit.

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.ruleset import preset
>>> rs = preset("three-player")
>>> strong = counts_of(p("BJ BJ LJ H2 H2 S2 HA HA HK HK HQ HJ H10 H9 H8 H7 H6 SA SA CA DA"))
>>> weak = counts_of(p("S3 S4 S6 S7 C3 C4 C6 C8 D3 D4 D6 D7 H3 H4 H6 H7 S8 C9 D9 H9 SJ"))
>>> predicted_points(strong, 0, rs) < predicted_points(weak, 0, rs)
True
>>> best_suit(strong, 0, rs)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shengji.bots.declare import strength
from shengji.core.actions import Action, Bid, NameTrump, Pass
from shengji.core.order import TRUMP, context_for
from shengji.core.ruleset import Ruleset
from shengji.core.views import DealView

BASE_POINTS: Final = 224.0
"""Predicted attacker points for a hand of no strength at all. The four weights are a
least-squares fit over 2000 heuristic self-play deals (attackers took 118 on average,
with 31 points of spread the hand does not explain)."""
PER_STRENGTH: Final = 162.0
"""Fewer attacker points per unit of best-suit strength."""
PER_ACE: Final = 1.5
"""Fewer attacker points per off-suit ace."""
PER_PAIR: Final = 4.5
"""Fewer attacker points per off-suit pair."""
MARGIN: Final = -10.0
"""The bot deals for any target down to its predicted attacker points plus this. Dealing is
worth more than letting another deal cheaply: in three-bot matches, margins of −10 and −15
won about 35% each against −5, and −10 won 4–5 times as often as +5 or +25."""


def best_suit(hand: Sequence[int], level: int, ruleset: Ruleset) -> int:
    """The suit (0..3, ``S H D C``) in which ``hand`` is strongest as trump."""
    return max(range(4), key=lambda s: (strength(hand, level, s, ruleset), -s))


def predicted_points(hand: Sequence[int], level: int, ruleset: Ruleset) -> float:
    """The points two attackers are expected to take against ``hand`` as the dealer."""
    suit = best_suit(hand, level, ruleset)
    power = strength(hand, level, suit, ruleset)
    ctx = context_for(ruleset, level, suit)
    aces = pairs = 0
    for k in range(54):
        n = hand[k]
        if not n or ctx.esuit[k] == TRUMP:
            continue
        if k % 13 == 12:
            aces += n
        if n >= 2:
            pairs += 1
    return BASE_POINTS - PER_STRENGTH * power - PER_ACE * aces - PER_PAIR * pairs


def choose_bid(view: DealView, small: Sequence[Action], margin: float = MARGIN) -> Action:
    """The highest bid the hand can stand (``margin`` above its predicted points), or a pass."""
    seat = view.seat
    pass_ = next(a for a in small if isinstance(a, Pass))
    bids = [a for a in small if isinstance(a, Bid)]
    if seat is None or not bids:
        return pass_
    hand = list(view.hand_counts)
    for c in view.shown:
        hand[c] += 1
    level = view.seat_levels[seat] if view.seat_levels else view.level
    floor = predicted_points(hand, level, view.ruleset) + margin
    top = max(bids, key=lambda a: a.target)
    return top if top.target >= floor else pass_


def choose_trump(view: DealView) -> NameTrump:
    """Name the suit the hand (kitty included) is strongest in."""
    assert view.seat is not None
    return NameTrump(view.seat, best_suit(view.hand_counts, view.level, view.ruleset))
