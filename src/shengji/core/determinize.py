"""Worlds for search: a full ``DealState`` built from one seat's view plus guessed hidden cards.

A search bot (PIMC) samples the cards it cannot see, builds the deal they imply and plays it
out. Only the view and the guess go in, so a world can never hold more than the seat knows.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.views import view_for
>>> from shengji.core.state import DealState
>>> len(unseen_cards(view_for(DealState.new(PRESETS["classic"], seed=1, dealer=0), 0)))
108
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.cards import counts_of, deck
from shengji.core.deal_record import _UNKNOWN
from shengji.core.follow import analyse_lead
from shengji.core.friend import candidates, copies_seen
from shengji.core.order import context_for
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.views import DealView


def unseen_cards(view: DealView) -> list[int]:
    """Cards the viewer has not seen: the pack less its hand, every played card and, for the
    kitty's holder, the kitty (while it buries, the kitty is in its hand)."""
    left = counts_of(deck(view.ruleset.decks))
    for c in view.played_cards:
        left[c] -= 1
    for k, n in enumerate(view.hand_counts):
        left[k] -= n
    if view.kitty is not None and view.phase is not Phase.BURYING:
        for c in view.kitty:
            left[c] -= 1
    return [k for k in range(54) for _ in range(left[k])]


def known_voids(view: DealView) -> list[set[int]]:
    """Per seat, the effective suits it is known to lack: it once followed a lead of that
    suit with fewer cards of it than it could have owed."""
    ctx = view.ctx
    voids: list[set[int]] = [set() for _ in range(view.ruleset.players)]
    if ctx is None:
        return voids
    tricks = [t.plays for t in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    for plays in tricks:
        lead = plays[0][1]
        suit = ctx.esuit[lead[0]]
        for seat, cards in plays[1:]:
            if sum(1 for c in cards if ctx.esuit[c] == suit) < len(lead):
                voids[seat].add(suit)
    return voids


def state_from_view(
    view: DealView, hands: Sequence[Sequence[int]], kitty: Sequence[int]
) -> DealState:
    """The playing-phase deal that ``view`` shows, with ``hands`` (count vectors, the viewer's
    own included) and ``kitty`` filling in what the viewer cannot see."""
    if view.phase is not Phase.PLAYING or view.trump is None or view.dealer is None:
        raise ValueError("worlds are built for the playing phase only")
    return _world(view, hands, kitty)


def burial_searchable(view: DealView) -> bool:
    """Whether ``state_after_burial`` can build worlds for this view: the kitty's holder
    burying the whole kitty, play starting right after (no 炒地皮 re-bury, no friend to
    call, no 竞标 kitty swap)."""
    rs = view.ruleset
    return (view.phase is Phase.BURYING and view.seat is not None
            and view.seat == view.kitty_holder and view.trump is not None
            and view.dealer is not None and not rs.rebury and rs.partnership == "fixed"
            and not view.shown
            and view.hand_sizes[view.seat] == rs.hand_size + rs.kitty_size)


def state_after_burial(
    view: DealView, hands: Sequence[Sequence[int]], burial: Sequence[int]
) -> DealState:
    """The deal at its first lead had the kitty's holder (``view.seat``, burying) put
    ``burial`` back as the kitty: ``hands`` fill in the other seats (the holder's is its
    view's, kitty included). What the engine's ``Bury`` does, for a search to try several
    burials in one world; only where ``burial_searchable(view)``, else ``ValueError``.

    >>> from shengji.core.ruleset import PRESETS
    >>> from shengji.core.views import view_for
    >>> from shengji.core.state import DealState
    >>> burial_searchable(view_for(DealState.new(PRESETS["classic"], seed=1, dealer=0), 0))
    False
    """
    if not burial_searchable(view):
        raise ValueError("worlds after a burial: the kitty's holder burying, plain rules only")
    assert view.seat is not None and view.dealer is not None
    own = list(view.hand_counts)
    for c in burial:
        own[c] -= 1
    if len(burial) != view.ruleset.kitty_size or min(own) < 0:
        raise ValueError("bury exactly the kitty's size, of cards in hand")
    after = [list(h) for h in hands]
    after[view.seat] = own
    s = _world(view, after, burial)
    s.leader = view.dealer  # as the engine starts play (``deal_calling.start_play``)
    s.trick = ()
    s.lead = None
    return s


def _world(view: DealView, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> DealState:
    """The deal ``view`` shows, ``hands`` and ``kitty`` filling in what it hides."""
    assert view.trump is not None and view.dealer is not None
    rs = view.ruleset
    ctx = context_for(rs, view.level, view.trump)
    s = DealState()
    s.ruleset = rs
    s.seed = "world"
    s.level = view.level
    s.deal_no = view.deal_no
    s.dealer = view.dealer
    s.first_deal = False
    s.start = view.dealer
    s.deck = ()
    s.n_dealt = rs.players * rs.hand_size
    s.hands = tuple(list(h) for h in hands)
    s.hand_sizes = tuple(sum(h) for h in hands)
    s.declaration = view.declaration
    s.declared = ()
    s.declarer_first = None
    s.passes = 0
    s.turn = view.dealer
    s.trump = view.trump
    s.ctx = ctx
    s.kitty = tuple(kitty)
    s.kitty_holder = view.kitty_holder
    s.rebury_decl = view.declaration
    s.stake = view.stake
    s.phase = Phase.PLAYING
    s.leader = view.leader
    s.trick = view.trick
    s.lead = analyse_lead(view.trick[0][1], ctx, rs) if view.trick else None
    s.tricks = view.tricks
    s.attacker_points = view.attacker_points
    s.defender_points = sum(
        t.points for t in view.tricks if t.winner in view.defenders
    )
    s.defenders = view.defenders
    s.failed_throws = 0
    s.failed_seats = ()
    s.result = None
    s.seat_levels = view.seat_levels or (view.level,) * rs.players
    s.rights = view.rights
    s.auction = view.auction
    s.target = view.target
    s.shown = view.shown
    s.kitty_kept = ()
    s.friend_call = call = view.friend_call
    s.friend = s.friend_seat = view.friend
    s.friend_seen = 0
    if call is not None:
        plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
        s.friend_seen = copies_seen(call, view.dealer, plays)[0]
        if view.friend is None and rs.friend_rule == "nearest-holder":
            # the world's friend: its nearest holder the public facts still allow
            public = candidates(call, view.dealer, rs.players, rs.decks, plays, None)
            s.friend_seat = next((p for p in public if hands[p][call.card]), None)
    s._to_act = _UNKNOWN
    s._vouched = None
    s._own = True
    return s




def start_of_play(
    view: DealView, hands: Sequence[Sequence[int]], kitty: Sequence[int]
) -> DealState:
    """The world of ``state_from_view`` as it stood at the first lead: every card played
    since back in its player's hand, no trick played, no points won; replaying the view's
    plays from it reaches the world again. Not for 找朋友 (who defends changes with the
    friend's reveal): ``ValueError``."""
    if view.friend_call is not None:
        raise ValueError("start_of_play does not rebuild a friend call")
    plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
    start = [list(h) for h in hands]
    for seat, cards in plays:
        for c in cards:
            start[seat][c] += 1
    s = state_from_view(view, start, kitty)
    s.leader = plays[0][0] if plays else view.leader
    s.trick = ()
    s.lead = None
    s.tricks = ()
    s.attacker_points = 0
    s.defender_points = 0
    return s
