"""Phase ``calling`` (找朋友, RULES.md §8): the dealer names the card whose holder becomes its
friend, then play starts; ``start_play`` is how every kitty ends (in this phase where a friend
is still to be called, else at the first lead), ``reveal_friend`` how the friend joins.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> transition(s, CallFriend(0, 0, 1), False)
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: cannot call a friend during dealing
"""

from __future__ import annotations

from shengji.core.actions import Action, CallFriend
from shengji.core.cards import card_str
from shengji.core.deal_record import DealRecord, wrong_phase
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import Event, FriendCalled
from shengji.core.friend import FriendCall, call_allowed, nearest_holder
from shengji.core.phases import Phase


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """Only ``CallFriend`` is taken."""
    if isinstance(action, CallFriend) and state.phase is Phase.CALLING:
        return call_friend(state, action, inplace)
    raise wrong_phase(state, action)


def call_friend(
    state: DealRecord, action: CallFriend, inplace: bool
) -> tuple[DealRecord, list[Event]]:
    """The dealer names its friend's card (RULES.md §8); play starts."""
    state.check_seat(action.seat)
    if not 0 <= action.card < 54:
        raise IllegalAction(Reason.BAD_CALL, f"no card kind {action.card}")
    rs = state.ruleset
    nearest = rs.friend_rule == "nearest-holder"
    if nearest and action.nth != 1:
        raise IllegalAction(
            Reason.BAD_CALL,
            "call a card, not a copy: its holder nearest the dealer is the friend "
            f"(call {action.seat} 1 {card_str(action.card)})",
        )
    if not 1 <= action.nth <= rs.decks:
        raise IllegalAction(
            Reason.BAD_CALL, f"call copy 1..{rs.decks} of a card, not {action.nth}"
        )
    assert state.dealer is not None
    if not call_allowed(rs.friend_call, rs.decks, state.hands[state.dealer], action.card):
        raise IllegalAction(
            Reason.BAD_CALL,
            f"call a card you hold a copy of, not {card_str(action.card)}: the friend holds "
            "the other copy",
        )
    s = state.writable(inplace)
    s.friend_call = FriendCall(action.card, action.nth)
    s.friend_seat = nearest_holder(action.card, state.dealer, state.hands) if nearest else None
    s.friend_seen = 0
    start_play(s)
    return s, [FriendCalled(None, action.seat, action.card, action.nth)]


def start_play(s: DealRecord) -> None:
    """Changes ``s`` (a fresh copy, or the state in place): the kitty is done; the dealer
    calls a friend first (找朋友) or leads the first trick."""
    if s.ruleset.partnership == "find-friend" and s.friend_call is None:
        s.phase = Phase.CALLING
        return
    s.phase = Phase.PLAYING
    s.leader = s.dealer if s.dealer is not None else 0
    s.trick = ()


def reveal_friend(s: DealRecord, seat: int) -> None:
    """Changes ``s`` (a fresh copy, or the state in place): ``seat`` joins the dealer; its
    tricks' points move over."""
    assert s.dealer is not None
    s.friend = seat
    s.defenders = tuple(sorted((s.dealer, seat)))
    moved = sum(t.points for t in s.tricks if t.winner == seat)
    s.attacker_points -= moved
    s.defender_points += moved
