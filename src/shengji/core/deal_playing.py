"""Phase ``playing`` (RULES.md §6–§7): leads (a throw is checked against the other hands;
a failed one plays its smallest part and costs points), follows, the friend's reveal
(找朋友), each finished trick, and after the last one the kitty and the deal's result.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> transition(s, Play(0, (3,)), False)
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: cannot play during dealing
"""

from __future__ import annotations

from shengji.core.actions import Action, Play
from shengji.core.auction import target_level_change
from shengji.core.cards import points_of
from shengji.core.deal_calling import reveal_friend
from shengji.core.deal_record import DealRecord, DealResult, TrickRecord, wrong_phase
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import (
    DealEnded,
    Event,
    FriendRevealed,
    KittyRevealed,
    NotFriend,
    Played,
    ThrowFailed,
    TrickWon,
)
from shengji.core.follow import analyse_lead, follow_refusal
from shengji.core.friend import friend_after_play
from shengji.core.phases import PHASE_PLAYING, Phase
from shengji.core.scoring import kitty_multiplier, level_change
from shengji.core.throws import check_throw
from shengji.core.tricks import trick_winner
from shengji.core.units import suit_of_play


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """Only ``Play`` is taken."""
    if isinstance(action, Play) and state.phase is PHASE_PLAYING:
        return play(state, action, inplace)
    raise wrong_phase(state, action)


def play(state: DealRecord, action: Play, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """A lead or a follow by the seat whose turn it is."""
    seat, cards = action.seat, action.cards
    book = state._vouched
    # An action this position's LegalActions generated is legal: skip the re-checks.
    # Everything else (clients, bots' own objects) is checked in full.
    vouched = book is not None and book.get(id(action)) is action
    if not vouched:
        state.check_seat(seat)
        if not cards:
            raise IllegalAction(Reason.EMPTY_PLAY, "play at least one card")
        state.check_holds(seat, cards)
    ctx = state.ctx
    assert ctx is not None
    rs = state.ruleset
    events: list[Event] = []
    penalty_delta = 0
    failed = 0
    if not state.trick:
        if not vouched and suit_of_play(cards, ctx) is None:
            raise IllegalAction(Reason.MIXED_LEAD, "a lead is cards of one suit")
        lead = analyse_lead(cards, ctx, rs)
        if len(lead.units) > 1:  # a throw: vouched or not, the others' hands decide it
            others = [state.hands[p] for p in range(state.players) if p != seat]
            res = check_throw(cards, others, ctx, rs)
            if not res.valid:
                if not res.play:
                    raise IllegalAction(Reason.THROW_NOT_ALLOWED, res.reason or "no throw")
                pen = rs.failed_throw_penalty
                events.append(ThrowFailed(None, seat, tuple(cards), res.play, pen))
                penalty_delta = pen if seat in state.defenders else -pen
                failed = 1
                cards = res.play
                lead = analyse_lead(cards, ctx, rs)
    else:
        assert state.lead is not None
        lead = state.lead
        if not vouched:
            refusal = follow_refusal(lead, state.hands[seat], cards, ctx)
            if refusal is not None:
                raise IllegalAction(*refusal)
    s = state.writable(inplace)
    h = state.hand_to_change(s, seat)
    for c in cards:
        h[c] -= 1
    sizes = list(state.hand_sizes)
    sizes[seat] -= len(cards)
    s.hand_sizes = tuple(sizes)
    s.attacker_points = state.attacker_points + penalty_delta
    s.failed_throws = state.failed_throws + failed
    if failed:
        s.failed_seats = (*state.failed_seats, seat)
    s.lead = lead
    s.trick = (*state.trick, (seat, tuple(cards)))
    events.append(Played(None, seat, tuple(cards)))
    call = state.friend_call
    if call is not None and state.friend is None and state.dealer is not None:
        if rs.friend_rule == "nearest-holder":
            if seat != state.dealer and call.card in cards:
                if seat == state.friend_seat:
                    reveal_friend(s, seat)
                    events.append(FriendRevealed(None, seat, call.card))
                else:
                    events.append(NotFriend(None, seat, call.card))
        else:
            s.friend_seen, hit = friend_after_play(
                call, state.dealer, state.friend_seen, seat, cards
            )
            if hit:
                reveal_friend(s, seat)
                events.append(FriendRevealed(None, seat, call.card))
    if len(s.trick) == state.players:
        events.extend(finish_trick(s))
    return s, events


def finish_trick(s: DealRecord) -> list[Event]:
    """Changes ``s`` (a fresh copy, or the state in place): the full trick goes to its
    winner with its points; after the last trick the deal ends."""
    ctx = s.ctx
    assert ctx is not None
    plays = [c for _, c in s.trick]
    wi = trick_winner(plays, ctx, s.ruleset)
    winner = s.trick[wi][0]
    pts = points_of([c for p in plays for c in p])
    if winner in s.defenders:
        s.defender_points += pts
    else:
        s.attacker_points += pts
    rec = TrickRecord(s.leader, s.trick, winner, pts)
    s.tricks = (*s.tricks, rec)
    events: list[Event] = [TrickWon(None, len(s.tricks), winner, pts, s.attacker_points)]
    s.leader = winner
    last_trick = s.trick
    s.trick = ()
    s.lead = None
    if not any(s.hand_sizes):
        events.extend(end(s, winner, last_trick[0][1], last_trick[wi][1]))
    return events


def end(
    s: DealRecord, winner: int, lead: tuple[int, ...], winning: tuple[int, ...]
) -> list[Event]:
    """Changes ``s``: the kitty's points (扣底 by the attackers, multiplied by the last
    lead) and the deal's ``DealResult``; the phase becomes ``done``."""
    ctx = s.ctx
    assert ctx is not None
    rs = s.ruleset
    kitty_points = points_of(s.kitty)
    captured = winner not in s.defenders
    mult = kitty_multiplier(lead, winning, ctx, rs)
    transfer = rs.kitty_formula == "last-trick-transfer"
    if transfer:
        if captured:
            gain = s.defender_points * mult
            s.defender_points -= gain
        else:
            gain = -s.attacker_points * mult
            s.defender_points -= gain
    else:
        gain = kitty_points * mult if captured else 0
        if not captured:
            s.defender_points += kitty_points
    s.attacker_points += gain
    if s.target is not None:
        change = target_level_change(s.attacker_points, s.target)
    else:
        change = level_change(s.attacker_points, rs)
    s.result = DealResult(
        attacker_points=s.attacker_points,
        kitty_points=kitty_points,
        kitty_multiplier=mult if captured or transfer else 0,
        kitty_gain=gain,
        last_winner=winner,
        last_winning_cards=winning,
        change=change,
        defenders=s.defenders,
        stake=s.stake,
        failed_throws=s.failed_throws,
        failed_seats=s.failed_seats,
        target=s.target,
        friend=s.friend,
    )
    s.phase = Phase.DONE
    return [
        KittyRevealed(None, s.kitty, kitty_points, mult if captured or transfer else 0, gain),
        DealEnded(
            None,
            s.attacker_points,
            change.defender_levels,
            change.attacker_levels,
            change.attackers_take_over,
            s.stake,
        ),
    ]
