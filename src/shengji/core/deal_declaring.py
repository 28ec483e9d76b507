"""Declaring (RULES.md §4): declarations while the cards go out (phase ``dealing``) and in
the window after the last card (phase ``declaring``: each seat in turn declares or passes);
when the window closes, ``fix_trump`` settles trump and the dealer and hands the kitty over.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> transition(s, Pass(0), False)
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: nothing to pass during dealing
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.actions import Action, Declare, Pass
from shengji.core.bidding import Declaration, make_declaration, tier
from shengji.core.deal_calling import start_play
from shengji.core.deal_kitty import give_kitty
from shengji.core.deal_record import DealRecord, next_seat, wrong_phase
from shengji.core.declaring import (
    NOT_A_DECLARATION,
    fallback_trump,
    first_deal_dealer,
    refusal_now,
    standing_after,
)
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import Declared, Event, Passed, TrumpFixed, WindowTurn
from shengji.core.order import context_for
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """The window after the deal: ``Declare`` or ``Pass``, each seat in turn."""
    if state.phase is Phase.DECLARING:
        if isinstance(action, Declare):
            return declare(state, action, inplace)
        if isinstance(action, Pass):
            return pass_window(state, action, inplace)
    raise wrong_phase(state, action)


def declare(state: DealRecord, action: Declare, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """A declaration while dealing (any seat) or in the window (the seat whose turn it is)."""
    ph, seat = state.phase, action.seat
    if state.auction is not None or ph not in (Phase.DEALING, Phase.DECLARING):
        raise wrong_phase(state, action)
    if ph is Phase.DEALING:
        if not 0 <= seat < state.players:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"no seat {seat}")
    else:
        state.check_seat(seat)
    rs = state.ruleset
    if state.rights and seat not in state.rights:
        raise IllegalAction(
            Reason.BAD_DECLARATION,
            "only the attackers of the last deal may declare now (亮牌权: "
            + ", ".join(f"seat {r}" for r in state.rights) + ")",
        )
    state.check_holds(seat, action.cards)
    d = make_declaration(seat, action.cards, state.declare_level(seat), rs)
    if d is None:
        raise IllegalAction(Reason.BAD_DECLARATION, NOT_A_DECLARATION)
    hidden = rs.declaration == "hidden"
    # Hidden (暗叫) declarations are only checked against the seat's own earlier one,
    # so a refusal never tells what others declared; the strongest stands at the end.
    why = refusal_now(d, state.declared, state.declaration, rs)
    if why is not None:
        raise IllegalAction(Reason.BAD_DECLARATION, why)
    s = state.writable(inplace)
    s.declared = (*state.declared, d)
    standing = state.declaration
    s.declaration = standing_after(standing, d, rs)
    if state.rights and s.declaration is d:  # 亮牌权: played at the declarer's level
        s.level = state.seat_levels[seat]
    overturn = standing is not None and s.declaration is d and standing.seat != seat
    if state.declarer_first is None:
        s.declarer_first = seat
    if hidden:
        # Stake and overturns are settled when trump is revealed (see fix_trump); the
        # window counts a hidden declaration as that seat's turn, like a pass.
        events: list[Event] = [Declared(seat, seat, d.cards, d.trump, False, False)]
        if ph is Phase.DECLARING:
            events.append(WindowTurn(None, seat))
            s.turn = next_seat(seat, state.players)
            s.passes = state.passes + 1
            if s.passes >= state.players:
                events.extend(fix_trump(s))
        return s, events
    if overturn:
        s.stake = state.stake * 2
    if ph is Phase.DECLARING:
        s.passes = 0
        s.turn = next_seat(seat, state.players)
    return s, [Declared(None, seat, d.cards, d.trump, overturn, False, s.dealer_to_be)]


def pass_window(state: DealRecord, action: Pass, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """A seat passes in the window; when every seat has, trump is fixed."""
    state.check_seat(action.seat)
    s = state.writable(inplace)
    s.passes = state.passes + 1
    if state.ruleset.declaration == "hidden":
        # Others must not tell a hidden declaration from a pass.
        events: list[Event] = [
            Passed(action.seat, action.seat),
            WindowTurn(None, action.seat),
        ]
    else:
        events = [Passed(None, action.seat)]
    s.turn = next_seat(action.seat, state.players)
    if s.passes >= state.players:
        events.extend(fix_trump(s))
    return s, events


def fix_trump(s: DealRecord) -> list[Event]:
    """Changes ``s`` (a fresh copy, or the state in place): settle trump and dealer, hand
    the kitty over."""
    rs = s.ruleset
    d = s.declaration
    turned: int | None = None
    if d is not None:
        trump = d.trump
    else:
        trump, turned = fallback_trump(rs, s.kitty)
    if s.dealer is None:
        if s.rights:  # 亮牌权: the declarer (nobody: the first right holder) deals
            s.dealer = d.seat if d is not None else s.start
            s.level = s.seat_levels[s.dealer]
        else:
            first = first_deal_dealer(s.declared, d, rs)
            s.dealer = s.start if first is None else first
    dealer = s.dealer
    if rs.declaration == "hidden":
        s.stake = s.stake * 2 ** hidden_overturns(s.declared, rs)
    s.trump = trump
    s.ctx = context_for(rs, s.level, trump)
    s.defenders = dealer_side(s, dealer)
    s.rebury_decl = d
    events: list[Event] = [TrumpFixed(None, s.ctx.trump, dealer, d.seat if d else None, turned)]
    if rs.kitty_size:
        events.extend(give_kitty(s, dealer))
    else:
        start_play(s)
    return events


def dealer_side(state: DealRecord, dealer: int) -> tuple[int, ...]:
    """The dealer's side: the dealer alone (竞标; 找朋友 until the friend is revealed),
    else the seats of its parity."""
    if state.auction is not None or state.ruleset.partnership == "find-friend":
        return (dealer,)
    return tuple(p for p in range(state.players) if p % 2 == dealer % 2)


def hidden_overturns(declared: Sequence[Declaration], ruleset: Ruleset) -> int:
    """How often the standing hidden declaration passed to another seat (each doubles)."""
    standing: Declaration | None = None
    count = 0
    for d in declared:
        if standing is None or tier(d, ruleset) > tier(standing, ruleset):
            if standing is not None and standing.seat != d.seat:
                count += 1
            standing = d
    return count
