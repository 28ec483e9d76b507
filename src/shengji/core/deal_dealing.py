"""Phase ``dealing``: the cards go out one at a time (RULES.md §4); any seat may declare
meanwhile (``deal_declaring.declare``). After the last card the declaring window opens (or,
竞标, the auction, with ``kitty_shown`` kitty cards turned up).

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> s2, events = transition(s, Deal(), False)
>>> s2.n_dealt, s.n_dealt, [type(e).__name__ for e in events]
(1, 0, ['CardDealt', 'CardCountDealt'])
"""

from __future__ import annotations

from shengji.core.actions import Action, Deal, Declare
from shengji.core.deal_declaring import declare
from shengji.core.deal_record import DealRecord, wrong_phase
from shengji.core.events import CardCountDealt, CardDealt, Event, KittyShown
from shengji.core.phases import Phase


def transition(state: DealRecord, action: Action, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """``Deal`` (the next card) or a ``Declare`` while the cards go out."""
    if isinstance(action, Deal):
        return deal(state, inplace)
    if isinstance(action, Declare):
        return declare(state, action, inplace)
    raise wrong_phase(state, action)


def deal(state: DealRecord, inplace: bool) -> tuple[DealRecord, list[Event]]:
    """The next card to its seat: ``CardDealt`` to it, ``CardCountDealt`` to all."""
    s = state.writable(inplace)
    seat, c = deal_card(state, s)
    events: list[Event] = [CardDealt(seat, seat, c), CardCountDealt(None, seat)]
    if s.phase is Phase.BIDDING:
        events.append(KittyShown(None, s.shown))
    return s, events


def deal_card(state: DealRecord, s: DealRecord) -> tuple[int, int]:
    """Deal the next card of ``state`` into ``s`` (the state itself or its fresh copy):
    ``(seat, card)``."""
    players = state.players
    n = state.n_dealt
    seat = (state.start + n) % players
    c = state.deck[n]
    state.hand_to_change(s, seat)[c] += 1
    sizes = list(state.hand_sizes)
    sizes[seat] += 1
    s.hand_sizes = tuple(sizes)
    s.n_dealt = n = n + 1
    if n == players * state.ruleset.hand_size:
        if state.auction is not None:
            s.phase = Phase.BIDDING
            s.shown = state.kitty[: state.ruleset.kitty_shown]
        else:
            s.phase = Phase.DECLARING
            s.turn = state.start
            s.passes = 0
    return seat, c
