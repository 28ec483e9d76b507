"""找朋友 for the heuristic bot: which card the dealer calls, and who counts as a partner.

The call: an off-suit A (a sure winner, so the friend shows up early and strong) — first one
the dealer holds a copy of but not all (another seat must hold the rest), in the suit where
the dealer is shortest; else one it lacks entirely; else the K the same way. A dealer holding
every off-suit A (and K) calls one it holds all of and plays alone. Only copies nobody could
hold (the dealer's own and the buried ones) are left out of the count.

Partners while the friend is hidden (nearest-holder rule, ``DealView.friend_candidates``): a
seat sure to be the friend sides with the dealer and likes to lead the card (that reveals
it); a seat sure not to be sides with every other seat known not to be; the dealer sides
with its friend once only one seat can be it; anyone else counts only itself. Under the
``nth-played`` rule a seat holding the copy counted next sides with the dealer. Once
revealed, the teams are known.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> from shengji.core.views import view_for
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> sorted(partners(view_for(s, 1)._replace(defenders=(0, 2)), 1))
[1, 3]
"""

from __future__ import annotations

from shengji.core.actions import CallFriend
from shengji.core.cards import card
from shengji.core.friend import copies_seen
from shengji.core.views import DealView

_ACE, _KING = 12, 11


def choose_call(view: DealView) -> CallFriend:
    """The dealer's call for this view (phase ``calling``)."""
    seat = view.seat
    assert seat is not None and view.trump is not None
    decks = view.ruleset.decks
    hand = view.hand_counts
    buried = [0] * 54
    for c in view.kitty or ():
        buried[c] += 1
    suits = [s for s in range(4) if s != view.trump]
    length = {s: sum(hand[card(s, r)] for r in range(13) if r != view.level) for s in suits}
    alone: CallFriend | None = None
    other_copy = view.ruleset.friend_call == "other-copy"
    for rank in (_ACE, _KING):
        if rank == view.level:
            continue
        kinds = [card(s, rank) for s in sorted(suits, key=lambda s: length[s])]
        for want_held in (True,) if other_copy else (True, False):
            for k in kinds:
                others = decks - hand[k] - buried[k]
                if others > 0 and (hand[k] > 0) == want_held:
                    return CallFriend(seat, k, 1)
        if alone is None and kinds:
            alone = CallFriend(seat, kinds[0], 1)
    if other_copy:  # the friend holds the other copy
        held = [k for k in range(54) if 0 < hand[k] < decks]
        if held:
            return CallFriend(seat, max(held, key=lambda k: (k % 13 != view.level, k % 13)), 1)
    if alone is not None:
        return alone
    return CallFriend(seat, next(k for k in range(52) if k % 13 != view.level), 1)


def next_copy_holder(view: DealView, seat: int) -> bool:
    """``nth-played`` rule: whether ``seat`` (not revealed) holds the copy counted next."""
    call, dealer = view.friend_call, view.dealer
    if call is None or dealer is None or view.friend is not None or seat == dealer:
        return False
    plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
    seen = copies_seen(call, dealer, plays)[0]
    return seen < call.nth <= seen + view.hand_counts[call.card]


def sure_friend(view: DealView, seat: int) -> bool:
    """Whether ``seat`` (the viewer, not revealed yet) knows it is the dealer's friend: it
    plays the called card to reveal itself."""
    if view.friend_call is None or view.friend is not None or seat == view.dealer:
        return False
    if view.ruleset.friend_rule != "nearest-holder":
        return next_copy_holder(view, seat)
    return view.friend_candidates == (seat,)


def partners(view: DealView, seat: int) -> frozenset[int]:
    """The seats ``seat`` (the viewer) plays with, itself included, as far as it knows."""
    players = view.ruleset.players
    defenders = set(view.defenders)
    dealer = view.dealer
    if view.friend_call is None or view.friend is not None or dealer is None:
        if seat in defenders:
            return frozenset(defenders)
        return frozenset(set(range(players)) - defenders)
    if sure_friend(view, seat):
        return frozenset((seat, dealer))
    if view.ruleset.friend_rule != "nearest-holder":
        return frozenset(defenders) if seat in defenders else frozenset((seat,))
    cands = view.friend_candidates
    if seat == dealer:
        return frozenset((dealer, *cands)) if len(cands) == 1 else frozenset((dealer,))
    if seat in cands:
        return frozenset((seat,))
    # surely an attacker: with every seat also surely not the friend
    return frozenset(p for p in range(players) if p != dealer and p not in cands)
