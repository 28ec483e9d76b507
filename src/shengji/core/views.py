"""What one seat may see (``view_for``) and what everyone may see (``public_view``).

A view never holds another seat's cards, the kitty (except for the seat holding it while
burying, and for everyone once the deal is over; not after a 竞标 swap that left cards unseen),
or a hidden declaration (4-deck style). 竞标 views also hold the auction, the target and the
kitty cards shown to everyone.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> from shengji.core.actions import Deal
>>> v = view_for(DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0), 2)
>>> v.seat, v.hand, v.kitty
(2, (), None)
>>> s1, _ = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0).apply(Deal())
>>> len(view_for(s1, 0).hand), len(view_for(s1, 1).hand)
(1, 0)
"""

from __future__ import annotations

from typing import NamedTuple

from shengji.core.auction import Auction
from shengji.core.bidding import Declaration
from shengji.core.friend import FriendCall, candidates, play_order
from shengji.core.order import TrumpContext, context_for
from shengji.core.phases import PHASE_DONE, Phase
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealResult, DealState, TrickRecord, display_order


class DealView(NamedTuple):
    """A seat's (or a spectator's) view of a deal (cheap to build: one per decision)."""

    seat: int | None
    phase: Phase
    ruleset: Ruleset
    level: int
    deal_no: int
    dealer: int | None
    defenders: tuple[int, ...]
    trump: int | None
    to_act: int | None
    hand_counts: tuple[int, ...]
    """The viewer's own cards as a 54-long count vector (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    declaration: Declaration | None
    """The current declaration, if this viewer may see it."""
    own_declaration: Declaration | None
    kitty: tuple[int, ...] | None
    """The kitty: to its holder from pick-up on, and to everyone once the deal is over."""
    kitty_holder: int | None
    leader: int
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    tricks: tuple[TrickRecord, ...]
    attacker_points: int
    stake: int
    cards_dealt: int
    result: DealResult | None
    auction: Auction | None = None
    """竞标: the bids so far (``auction.bids``: ``(seat, target)``, None for a pass)."""
    target: int | None = None
    """竞标: the attackers' target once the auction is over."""
    shown: tuple[int, ...] = ()
    """竞标: the kitty cards turned up for everyone after the deal."""
    seat_levels: tuple[int, ...] = ()
    """Each seat's own level."""
    friend_call: FriendCall | None = None
    """找朋友: the dealer's call (public once made)."""
    friend: int | None = None
    """找朋友: the friend once revealed (a hidden friend is never shown, not even to itself:
    it sees its own cards and can tell; see ``friend_candidates``)."""
    dealer_to_be: int | None = None
    """A first deal before trump is fixed: the seat that deals if the declarations end now
    (the first declarer, "先亮者为庄家", or the overturner where the ruleset says so); None
    otherwise and under hidden declarations."""
    rights: tuple[int, ...] = ()
    """亮牌权: the seats that contest this deal by declaring, each at its own level (empty:
    everyone, at ``level``); while they do, ``level`` is the standing declarer's level."""

    @property
    def declare_level(self) -> int:
        """The level this viewer declares with: its own while a 亮牌权 deal is contested,
        else the deal's."""
        if self.rights and self.dealer is None and self.seat is not None and self.seat_levels:
            return self.seat_levels[self.seat]
        return self.level

    @property
    def friend_candidates(self) -> tuple[int, ...]:
        """找朋友: the seats that may still be the friend as this viewer can tell, nearest
        the dealer first (``core/friend.py`` ``candidates``): ``(friend,)`` once revealed,
        ``()`` when the dealer is known to be alone. ``(seat,)`` tells the viewer it is the
        friend. Under ``nth-played`` any other seat may be, until the reveal."""
        call, dealer = self.friend_call, self.dealer
        if call is None or dealer is None:
            return ()
        if self.friend is not None:
            return (self.friend,)
        rs = self.ruleset
        if rs.friend_rule != "nearest-holder":
            return tuple(play_order(dealer, rs.players))
        plays = [p for t in self.tricks for p in t.plays]
        plays.extend(self.trick)
        held = self.hand_counts[call.card] if self.hand_counts else 0
        return candidates(
            call, dealer, rs.players, rs.decks, plays, None, self.seat, held, self.kitty or ()
        )

    @property
    def hand(self) -> tuple[int, ...]:
        """The viewer's cards in display order (trumps first once trump is known)."""
        h = self.hand_counts
        if not h:
            return ()
        if self.trump is None:
            return tuple(k for k in range(54) if h[k] for _ in range(h[k]))
        ctx = context_for(self.ruleset, self.level, self.trump)
        return tuple(k for k in display_order(ctx) if h[k] for _ in range(h[k]))

    @property
    def ctx(self) -> TrumpContext | None:
        """Order tables for this deal once trump is known."""
        return None if self.trump is None else context_for(self.ruleset, self.level, self.trump)

    @property
    def played_cards(self) -> list[int]:
        """Every card played so far in this deal, tricks in order."""
        out = [c for t in self.tricks for _, cards in t.plays for c in cards]
        out.extend(c for _, cards in self.trick for c in cards)
        return out


_new_view = tuple.__new__


def _view(state: DealState, seat: int | None) -> DealView:
    trump = state.trump
    own = state.own_declaration(seat) if seat is not None and state.declared else None
    if trump is not None:
        visible_decl = state.rebury_decl  # once trump is fixed the standing one is public
    elif state.ruleset.declaration == "hidden":
        visible_decl = own
    else:
        visible_decl = state.declaration
    # A 反底 swap leaves kitty cards its holder never saw: then the holder sees none of it.
    holder = seat is not None and seat == state.kitty_holder and not state.kitty_kept
    kitty = state.kitty if holder or state.phase is PHASE_DONE else None
    hand: tuple[int, ...] = () if seat is None else tuple(state.hands[seat])
    # One view is built per decision: the tuple is made directly (a named tuple's own
    # constructor is a Python function, a frame per view; tests/core/test_views.py checks
    # every view has all the fields).
    return _new_view(DealView, (
        seat,
        state.phase,
        state.ruleset,
        state.level,
        state.deal_no,
        state.dealer,
        state.defenders,
        trump,
        state.to_act,
        hand,
        state.hand_sizes,
        visible_decl,
        own,
        kitty,
        state.kitty_holder,
        state.leader,
        state.trick,
        state.tricks,
        state.attacker_points,
        state.stake,
        state.n_dealt,
        state.result,
        state.auction,
        state.target,
        state.shown,
        state.seat_levels,
        state.friend_call,
        state.friend,
        state.dealer_to_be,
        state.rights,
    ))


def view_for(state: DealState, seat: int) -> DealView:
    """What ``seat`` may see."""
    return _view(state, seat)


def public_view(state: DealState) -> DealView:
    """What a spectator may see: no hand, no kitty before the end."""
    return _view(state, None)
