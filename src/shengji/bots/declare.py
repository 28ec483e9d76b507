"""Choosing trump (亮主, 反主, 反底) from hand strength.

A trump suit's *strength* for a hand is its share of trumps, weighted by rank (jokers and
level cards count most) with a bonus per pair. The bot declares the strongest suit it
may, when that strength clears a bar that falls as more cards arrive; it overturns only a
clearly worse suit (a partner's only by a wide margin), and 反底 only when very strong.
In a first deal where the first declarer deals ("开局中，双方争庄，先亮者为庄家") it races for
the seat with a lower bar; where an overturn takes the seat it overturns more readily.

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.ruleset import PRESETS
>>> hand = counts_of(p("H2 HA HK HQ HJ H9 H9 S3 C4"))
>>> strength(hand, 0, 1, PRESETS["classic"]) > strength(hand, 0, 0, PRESETS["classic"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shengji.core.actions import Action, Declare, Pass
from shengji.core.bidding import make_declaration
from shengji.core.order import TRUMP, context_for
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset
from shengji.core.views import DealView

MIN_CARDS: Final = 3
"""No declaration on fewer cards than this while dealing."""
DEAL_BAR: Final = (0.40, 0.32)
"""Strength needed while dealing: at the first cards, and once all cards are in."""
WINDOW_BAR: Final = 0.40
"""Strength needed in the window after the deal."""
NOBODY_BAR: Final = 0.30
"""Strength enough to declare in the window when nobody has declared."""
OVERTURN_MARGIN: Final = 0.10
FIRST_DEAL_MARGIN: Final = 0.03
"""First deal, where overturning also takes the dealer seat: overturn more readily."""
FIRST_DEAL_RACE: Final = 0.06
"""First deal, where the first declarer deals and nobody has declared: the bar drops by this."""
PARTNER_MARGIN: Final = 0.25
REBURY_BAR: Final = 0.62
REBURY_MARGIN: Final = 0.20


def strength(hand: Sequence[int], level: int, trump: int, ruleset: Ruleset) -> float:
    """Weighted trump share of ``hand`` if ``trump`` (a suit or NO_TRUMP) were trump."""
    n = sum(hand)
    if not n:
        return 0.0
    ctx = context_for(ruleset, level, trump)
    kinds = ctx.suit_kinds[TRUMP]
    top = max(ctx.pos[k] for k in kinds) or 1
    total = 0.0
    for k in kinds:
        c = hand[k]
        if c:
            total += c * (1.0 + 0.6 * ctx.pos[k] / top) + (0.5 if c >= 2 else 0.0)
    return total / n


def choose_declaration(view: DealView, small: Sequence[Action]) -> Action | None:
    """A declaration, a pass (in the window or 反底 round) or None (not now, while dealing)."""
    rs, hand, seat = view.ruleset, view.hand_counts, view.seat
    options = [a for a in small if isinstance(a, Declare)]
    fallback = next((a for a in small if isinstance(a, Pass)), None)
    if not options or seat is None:
        return fallback
    best: dict[int, tuple[int, Declare]] = {}
    for a in options:
        d = make_declaration(seat, a.cards, view.declare_level, rs)
        if d is not None and (d.trump not in best or d.count > best[d.trump][0]):
            best[d.trump] = (d.count, a)
    if not best:
        return fallback
    power = {t: strength(hand, view.declare_level, t, rs) for t in best}
    trump = max(power, key=lambda t: power[t])
    mine = power[trump]
    cur = view.declaration
    if view.phase is Phase.REBURY:
        named = view.trump if view.auction is not None else None  # 竞标: the named suit
        here = (
            strength(hand, view.declare_level, cur.trump, rs) if cur
            else strength(hand, view.declare_level, named, rs) if named is not None
            else 0.0
        )
        ok = mine >= REBURY_BAR and mine - here >= REBURY_MARGIN
        return best[trump][1] if ok else fallback
    held = sum(hand)
    if view.phase is Phase.DEALING:
        if held < MIN_CARDS:
            return None
        progress = held / rs.hand_size
        bar = DEAL_BAR[0] + (DEAL_BAR[1] - DEAL_BAR[0]) * progress
    else:
        bar = WINDOW_BAR if cur is not None else NOBODY_BAR
    if cur is None:
        if view.dealer is None and not rs.first_deal_overturn_takes_dealer:
            bar -= FIRST_DEAL_RACE  # 先亮者为庄家: showing first wins the dealer seat
        return best[trump][1] if mine >= bar else fallback
    here = strength(hand, view.declare_level, cur.trump, rs)
    if cur.seat == seat:
        if trump == cur.trump or mine - here >= OVERTURN_MARGIN * 1.5:
            return best[trump][1]  # reinforce (自保), or overturn oneself for a clearly better suit
        return fallback
    partner = rs.partnership == "fixed" and rs.players == 4 and (cur.seat - seat) % 4 == 2
    # the declarer takes the seat: a first deal where overturning does, or 亮牌权
    takes_seat = view.dealer is None and (
        rs.first_deal_overturn_takes_dealer or bool(view.rights)
    )
    margin = PARTNER_MARGIN if partner else FIRST_DEAL_MARGIN if takes_seat else OVERTURN_MARGIN
    if mine >= bar - 0.05 and mine - here >= margin:
        return best[trump][1]
    return fallback
