"""Phases ``burying`` and ``rebury`` (反底), RULES.md §5: the kitty's holder buries as many
cards as it took; then, where the rules allow 反底, the other seats in turn may overturn with
a stronger set and take the kitty themselves (竞标: ``rebury_swap`` random kitty cards), or
pass. ``give_kitty`` is how any holder gets the kitty.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> transition(s, Bury(0, ()), False)
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: cannot bury during dealing
"""

from __future__ import annotations

import random

from shengji.core.actions import Action, Bury, Declare, Pass
from shengji.core.bidding import Declaration, beats_rebury, make_declaration
from shengji.core.deal_calling import start_play
from shengji.core.deal_record import DealRecord, next_seat, wrong_phase
from shengji.core.declaring import NOT_A_DECLARATION
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import Declared, Event, KittyBuried, KittyTaken, Passed
from shengji.core.order import context_for
from shengji.core.phases import Phase


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """``Bury`` while burying; ``Declare`` (反底) or ``Pass`` in the 反底 round."""
    ph = state.phase
    if ph is Phase.BURYING:
        if isinstance(action, Bury):
            return bury(state, action, inplace)
    elif ph is Phase.REBURY:
        if isinstance(action, Declare):
            return rebury(state, action, inplace)
        if isinstance(action, Pass):
            return pass_rebury(state, action, inplace)
    raise wrong_phase(state, action)


def give_kitty(s: DealRecord, seat: int) -> list[Event]:
    """Changes ``s`` (a fresh copy, or the state in place): ``seat`` takes the kitty into its
    hand and is to bury."""
    h = s.hand_to_change(s, seat)
    for c in s.kitty:
        h[c] += 1
    sizes = list(s.hand_sizes)
    sizes[seat] += len(s.kitty)
    s.hand_sizes = tuple(sizes)
    s.kitty_holder = seat
    s.phase = Phase.BURYING
    return [KittyTaken(seat, seat, s.kitty)]


def swap_kitty(s: DealRecord, seat: int) -> list[Event]:
    """Changes ``s``: 竞标 反牌, ``seat`` takes ``rebury_swap`` random kitty cards (seeded by
    the deal) and will bury as many; the rest stays in place, unseen by it."""
    kitty = list(s.kitty)
    rng = random.Random(f"{s.seed}/swap/{seat}/{','.join(map(str, kitty))}")
    taken = sorted(rng.sample(range(len(kitty)), s.ruleset.rebury_swap))
    drawn = tuple(kitty[i] for i in taken)
    s.kitty_kept = tuple(c for i, c in enumerate(kitty) if i not in taken)
    s.kitty = drawn
    return give_kitty(s, seat)


def bury(state: DealRecord, action: Bury, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """The holder buries the kitty; the 反底 round or the play follows."""
    state.check_seat(action.seat)
    k = state.ruleset.kitty_size - len(state.kitty_kept)
    if len(action.cards) != k:
        raise IllegalAction(Reason.BAD_KITTY, f"bury exactly {k} cards")
    state.check_holds(action.seat, action.cards)
    s = state.writable(inplace)
    h = state.hand_to_change(s, action.seat)
    for c in action.cards:
        h[c] -= 1
    sizes = list(state.hand_sizes)
    sizes[action.seat] -= k
    s.hand_sizes = tuple(sizes)
    s.kitty = (*state.kitty_kept, *action.cards)
    events: list[Event] = [
        KittyBuried(action.seat, action.seat, tuple(action.cards), k),
        KittyBuried(None, action.seat, (), k),
    ]
    if state.ruleset.rebury:
        s.phase = Phase.REBURY
        s.passes = 0
        s.turn = next_seat(action.seat, state.players)
    else:
        start_play(s)
    return s, events


def rebury(state: DealRecord, action: Declare, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """反底: a stronger set than the standing one doubles the stake, fixes its suit as trump
    and takes the kitty."""
    seat = action.seat
    state.check_seat(seat)
    state.check_holds(seat, action.cards)
    d = make_declaration(seat, action.cards, state.declare_level(seat), state.ruleset)
    if d is None:
        raise IllegalAction(Reason.BAD_DECLARATION, NOT_A_DECLARATION)
    return take_over(state, d, inplace)


def take_over(state: DealRecord, d: Declaration, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """The 反底 declaration ``d`` (already made from held cards) takes the kitty."""
    if not beats_rebury(d, state.rebury_decl):
        raise IllegalAction(
            Reason.BAD_DECLARATION, "反底 needs a stronger set: a pair or more, ranked by suit"
        )
    s = state.writable(inplace)
    s.rebury_decl = d
    s.stake = state.stake * 2
    s.trump = d.trump
    s.ctx = context_for(state.ruleset, state.level, d.trump)
    events: list[Event] = [Declared(None, d.seat, d.cards, d.trump, True, True)]
    if state.ruleset.rebury_swap:
        events.extend(swap_kitty(s, d.seat))
    else:
        events.extend(give_kitty(s, d.seat))
    return s, events


def pass_rebury(state: DealRecord, action: Pass, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """A seat lets the kitty stand; when all but its holder passed, play starts."""
    state.check_seat(action.seat)
    s = state.writable(inplace)
    s.passes = state.passes + 1
    nxt = next_seat(action.seat, state.players)
    if nxt == state.kitty_holder:
        nxt = next_seat(nxt, state.players)
    s.turn = nxt
    if s.passes >= state.players - 1:
        start_play(s)
    return s, [Passed(None, action.seat)]
