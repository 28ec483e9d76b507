"""One deal as an explicit state machine: dealing with live declarations, the kitty (and
反底), the tricks, and the deal's result (RULES.md §4–§7).

``DealState.new(ruleset, seed, level, dealer)`` shuffles from the seed. ``apply(action)``
returns ``(new_state, events)`` and never changes the state it is called on; an illegal
action raises ``IllegalAction`` with a ``Reason``. ``to_act`` says who moves (``SYSTEM``
deals the cards; while dealing any seat may also declare). ``legal_actions(seat)`` is lazy.

The deal's fields are a ``DealRecord`` (``deal_record.py``); each phase's transitions live in
a module of their own (``deal_dealing``, ``deal_declaring``, ``deal_bidding``, ``deal_kitty``,
``deal_calling``, ``deal_playing``), and ``apply`` dispatches to them through one table,
``TRANSITIONS``, by the state's phase.

>>> from shengji.core.actions import Deal
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> s.phase, s.to_act
(<Phase.DEALING: 'dealing'>, -1)
>>> s2, events = s.apply(Deal())
>>> sum(s2.hand_sizes), sum(s.hand_sizes)
(1, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, cast

from shengji.core import (
    deal_bidding,
    deal_calling,
    deal_dealing,
    deal_declaring,
    deal_kitty,
    deal_playing,
)
from shengji.core.actions import Action
from shengji.core.auction import Auction
from shengji.core.bidding import Declaration, legal_declarations, legal_reburies
from shengji.core.cards import BJ, JOKER_LEVEL, LJ, deck
from shengji.core.deal_record import (
    _UNKNOWN,
    FIELDS,
    DealRecord,
    DealResult,
    TrickRecord,
    display_order,
    refuse_all,
)
from shengji.core.draws import below, shuffle
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import DealStarted, Event
from shengji.core.legal import LegalActions
from shengji.core.phases import PHASE_DEALING, Phase
from shengji.core.ruleset import Ruleset

__all__ = [
    "FIELDS",
    "DealResult",
    "DealState",
    "Phase",
    "TrickRecord",
    "display_order",
    "first_seat_dealt",
]

Transition = Callable[[DealRecord, Action, bool], tuple[DealRecord, list[Event]]]
"""A phase's transition: ``(state, action, inplace) -> (state, events)``; in place it
changes and returns ``state`` itself, else a fresh copy (``DealRecord.writable``)."""

TRANSITIONS: Final[dict[Phase, Transition]] = {
    Phase.DEALING: deal_dealing.transition,
    Phase.DECLARING: deal_declaring.transition,
    Phase.BIDDING: deal_bidding.transition,
    Phase.NAMING: deal_bidding.transition,
    Phase.BURYING: deal_kitty.transition,
    Phase.REBURY: deal_kitty.transition,
    Phase.CALLING: deal_calling.transition,
    Phase.PLAYING: deal_playing.transition,
    Phase.DONE: refuse_all,
}
"""Each phase's transitions: what ``DealState.apply`` dispatches to."""


def first_seat_dealt(seed: int | str, players: int) -> int:
    """The seat dealt the first card under ``deal_order="random"``, drawn from the deal's
    seed apart from the shuffle (四副牌 "每轮由系统随机决定发牌顺序"), so a replay deals it
    again.

    >>> first_seat_dealt("match/3", 4) == first_seat_dealt("match/3", 4)
    True
    """
    return below(random.Random(f"{seed}/deal-order"), players)


class DealState(DealRecord):
    """The whole state of one deal (the fields of ``DealRecord``) with its transitions.
    Treat instances as immutable values."""

    __slots__ = ()

    @classmethod
    def new(
        cls,
        ruleset: Ruleset,
        seed: int | str,
        level: int = 0,
        dealer: int | None = None,
        deal_no: int = 0,
        levels: Sequence[int] | None = None,
        rights: Sequence[int] = (),
    ) -> DealState:
        """A shuffled deal. ``dealer=None``: a first deal, the declarer becomes dealer.

        ``levels``: each seat's own level (default: ``level`` for all). 竞标 (bidding): any
        ``dealer`` is ignored, seat ``deal_no % players`` opens the auction and is dealt to
        first, and ``level`` becomes the winner's level when the auction ends. ``rights``
        (亮牌权): only these seats may declare, each with its own level from ``levels``;
        the declarer deals (nobody: ``rights[0]``), ``dealer`` is ignored and the cards are
        dealt from ``rights[0]``. ``deal_order="random"`` (four decks): the cards are dealt
        from a seat drawn from ``seed`` (``first_seat_dealt``), which also opens the
        declaring window and deals a first deal nobody declares in.
        """
        cards = deck(ruleset.decks)
        shuffle(random.Random(seed), cards)
        s = cls()
        s.ruleset = ruleset
        s.seed = seed
        s.level = level
        s.deal_no = deal_no
        s.dealer = dealer
        s.rights = tuple(rights)
        if s.rights:
            dealer = s.dealer = None
            if levels is not None:
                s.level = levels[s.rights[0]]
        s.first_deal = dealer is None and not s.rights
        s.start = s.rights[0] if s.rights else 0 if dealer is None else dealer
        bidding = ruleset.partnership == "bidding"
        if bidding:  # the auction decides the dealer
            s.dealer = None
            s.start = deal_no % ruleset.players
        elif ruleset.deal_order == "random" and not s.rights:
            s.start = first_seat_dealt(seed, ruleset.players)
        s.seat_levels = tuple(levels) if levels is not None else (level,) * ruleset.players
        s.auction = Auction(s.start, ruleset.players) if bidding else None
        s.target = None
        s.shown = ()
        s.kitty_kept = ()
        s.friend_call = None
        s.friend = None
        s.friend_seat = None
        s.friend_seen = 0
        s.deck = tuple(cards)
        s.n_dealt = 0
        s.hands = tuple([0] * 54 for _ in range(ruleset.players))
        s.hand_sizes = (0,) * ruleset.players
        s.declaration = None
        s.declared = ()
        s.declarer_first = None
        s.passes = 0
        s.turn = s.start
        s.trump = None
        s.ctx = None
        s.kitty = tuple(cards[ruleset.players * ruleset.hand_size :])
        s.kitty_holder = None
        s.rebury_decl = None
        s.stake = 1
        s.phase = Phase.DEALING
        s.leader = s.start
        s.trick = ()
        s.lead = None
        s.tricks = ()
        s.attacker_points = 0
        s.defender_points = 0
        s.defenders = ()
        s.failed_throws = 0
        s.failed_seats = ()
        s.result = None
        s._to_act = _UNKNOWN
        s._vouched = None
        s._own = True
        return s

    def started_event(self) -> DealStarted:
        """The public event that opens this deal."""
        return DealStarted(None, self.dealer, self.level, self.deal_no, self.rights)

    def _blank(self) -> DealState:
        return DealState()

    # ------------------------------------------------------------------ queries

    def legal_actions(self, seat: int) -> LegalActions:
        """What ``seat`` (or ``SYSTEM``) may do now; lazy for burials, leads and follows."""
        return LegalActions(self, seat)

    def vouch_book(self) -> dict[int, Action]:
        """The book of actions vouched legal in this very position (``LegalActions`` writes
        the plays it generates into it, keyed by ``id``): ``apply`` skips re-checking an action
        found there by identity. Any transition starts a new book, so a stale
        ``LegalActions`` writes only into an orphaned one; an equal action built elsewhere
        (a client's, a bot's own) is always checked in full."""
        book = self._vouched
        if book is None:
            book = self._vouched = {}
        return book

    def check(self, action: Action) -> None:
        """Raise ``IllegalAction`` if ``action`` is not legal now (changes nothing)."""
        self.apply(action)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ transitions

    def apply(self, action: Action) -> tuple[DealState, list[Event]]:
        """The state after ``action`` and the events it caused; raises ``IllegalAction``."""
        s, events = TRANSITIONS[self.phase](self, action, False)
        return cast(DealState, s), events

    def apply_in_place(self, action: Action) -> list[Event]:
        """Fast path for simulations (arena, search): change this state itself.

        Same checks, events and outcome as ``apply``; an illegal action still changes
        nothing. Only for a state nobody else holds.
        """
        return TRANSITIONS[self.phase](self, action, True)[1]

    def deal_in_place(self) -> tuple[int, int]:
        """Fast path for simulations: ``apply_in_place(Deal())`` without building its events
        (``CardDealt`` to the seat, ``CardCountDealt`` to all, ``KittyShown`` after the last
        card under 竞标); returns ``(seat, card)``. Only for a state nobody else holds."""
        if self.phase is not PHASE_DEALING:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot deal during {self.phase.value}")
        return deal_dealing.deal_card(self, self.writable(True))

    # ------------------------------------------------------------------ declarations

    def _may_declare(self, seat: int) -> bool:
        """Cheap pre-check: does the seat hold a level card or two identical jokers?"""
        h, lv = self.hands[seat], self.declare_level(seat)
        if self.rights and seat not in self.rights:
            return False
        if h[LJ] > 1 or h[BJ] > 1:
            return True
        return lv < JOKER_LEVEL and bool(h[lv] or h[13 + lv] or h[26 + lv] or h[39 + lv])

    def declarations_for(self, seat: int) -> list[Declaration]:
        """Declarations ``seat`` may make now (during the deal, the window or 反底)."""
        ph = self.phase
        if self.auction is not None and ph is not Phase.REBURY:
            return []
        if ph is Phase.DEALING and not self._may_declare(seat):
            return []
        if ph is Phase.DEALING or (ph is Phase.DECLARING and seat == self.turn):
            if self.rights and seat not in self.rights:
                return []
            hidden = self.ruleset.declaration == "hidden"
            against = self.own_declaration(seat) if hidden else self.declaration
            return legal_declarations(
                seat, self.hands[seat], self.declare_level(seat), against, self.ruleset
            )
        if ph is Phase.REBURY and seat == self.turn:
            return legal_reburies(
                seat, self.hands[seat], self.level, self.rebury_decl, self.ruleset
            )
        return []

