"""竞标 (three players, RULES.md §9): phase ``bidding``, each seat in turn bids the attackers'
target or passes, the last bid hands the kitty to the winner; phase ``naming``, the winner
names the trump suit (seed 002: "由庄家指定一种花色为主花色") and goes on to bury.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> transition(s, Bid(0, 80), False)
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: cannot bid during dealing
"""

from __future__ import annotations

from shengji.core.actions import Action, Bid, NameTrump, Pass
from shengji.core.deal_kitty import give_kitty
from shengji.core.deal_record import DealRecord, wrong_phase
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import AuctionWon, BidMade, Event, Passed, TrumpFixed
from shengji.core.order import context_for
from shengji.core.phases import Phase


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """``Bid`` or ``Pass`` in the auction; ``NameTrump`` once it is won."""
    ph = state.phase
    if ph is Phase.BIDDING and isinstance(action, (Bid, Pass)):
        return bid(state, action, inplace)
    if ph is Phase.NAMING and isinstance(action, NameTrump):
        return name_trump(state, action, inplace)
    raise wrong_phase(state, action)


def bid(state: DealRecord, action: Bid | Pass, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """A bid or a pass in the auction; the last one hands the kitty to the winner."""
    auction = state.auction
    if auction is None:
        raise wrong_phase(state, action)
    rs = state.ruleset
    if isinstance(action, Bid):
        after = auction.bid(action.seat, action.target, rs)
        events: list[Event] = [BidMade(None, action.seat, action.target)]
    else:
        after = auction.pass_(action.seat)
        events = [Passed(None, action.seat)]
    s = state.writable(inplace)
    s.auction = after
    if after.is_over:
        dealer, target = after.result(rs)
        s.dealer = dealer
        s.target = target
        s.level = state.seat_levels[dealer]
        s.defenders = (dealer,)
        events.append(AuctionWon(None, dealer, target, s.level))
        events.extend(give_kitty(s, dealer))
        s.phase = Phase.NAMING
    return s, events


def name_trump(
    state: DealRecord, action: NameTrump, inplace: bool
) -> tuple[DealRecord, list[Event]]:
    """The auction's winner names a suit and goes on to bury."""
    state.check_seat(action.seat)
    if not 0 <= action.trump < 4:
        raise IllegalAction(Reason.BAD_DECLARATION, "name one of the suits S, H, D, C")
    s = state.writable(inplace)
    s.trump = action.trump
    s.ctx = context_for(state.ruleset, state.level, action.trump)
    s.phase = Phase.BURYING
    return s, [TrumpFixed(None, action.trump, action.seat, None, None)]
