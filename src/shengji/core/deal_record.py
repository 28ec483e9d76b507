"""The data of one deal (``DealRecord``: every field a ``DealState`` has), what a deal is
asked most (whose turn, a seat's hand, the dealer to be), the checks every phase shares and
the finished records (``TrickRecord``, ``DealResult``). The phases' transitions
(``deal_dealing`` … ``deal_playing``) read and write a ``DealRecord``; ``state.DealState`` is
this record with ``apply`` on top, dispatching by phase.

A transition writes ``state.writable(inplace)``: a fresh copy (``apply``), or in place the
state itself (``apply_in_place``), after every check has passed.

>>> from shengji.core.state import DealState
>>> from shengji.core.ruleset import PRESETS
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> s.writable(False) is s, s.writable(True) is s
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shengji.core.actions import (
    SYSTEM,
    Action,
    Bid,
    Bury,
    CallFriend,
    Deal,
    Declare,
    NameTrump,
    Pass,
    Play,
)
from shengji.core.auction import Auction
from shengji.core.bidding import Declaration
from shengji.core.declaring import first_deal_dealer
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import Event
from shengji.core.follow import Lead
from shengji.core.friend import FriendCall
from shengji.core.order import TrumpContext
from shengji.core.phases import PHASE_DEALING, PHASE_DONE, PHASE_PLAYING, Phase
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import LevelChange

_UNKNOWN: Final = -2
"""``to_act`` not computed yet (states are immutable, so it is computed once)."""


@dataclass(frozen=True)
class TrickRecord:
    """A finished trick: plays in order as ``(seat, cards)``."""

    leader: int
    plays: tuple[tuple[int, tuple[int, ...]], ...]
    winner: int
    points: int

    def __init__(
        self, leader: int, plays: tuple[tuple[int, tuple[int, ...]], ...], winner: int, points: int
    ) -> None:
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "plays", plays)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "points", points)


@dataclass(frozen=True)
class DealResult:
    """How a deal ended."""

    attacker_points: int
    kitty_points: int
    kitty_multiplier: int
    kitty_gain: int
    last_winner: int
    last_winning_cards: tuple[int, ...]
    change: LevelChange
    defenders: tuple[int, ...]
    stake: int
    failed_throws: int
    failed_seats: tuple[int, ...] = ()
    """The seat of each failed throw."""
    target: int | None = None
    """竞标: the attackers' target the auction set (None in other games)."""
    friend: int | None = None
    """找朋友: the seat revealed as the dealer's friend (None: none, or not that game)."""

    def __init__(
        self,
        attacker_points: int,
        kitty_points: int,
        kitty_multiplier: int,
        kitty_gain: int,
        last_winner: int,
        last_winning_cards: tuple[int, ...],
        change: LevelChange,
        defenders: tuple[int, ...],
        stake: int,
        failed_throws: int,
        failed_seats: tuple[int, ...] = (),
        target: int | None = None,
        friend: int | None = None,
    ) -> None:
        object.__setattr__(self, "attacker_points", attacker_points)
        object.__setattr__(self, "kitty_points", kitty_points)
        object.__setattr__(self, "kitty_multiplier", kitty_multiplier)
        object.__setattr__(self, "kitty_gain", kitty_gain)
        object.__setattr__(self, "last_winner", last_winner)
        object.__setattr__(self, "last_winning_cards", last_winning_cards)
        object.__setattr__(self, "change", change)
        object.__setattr__(self, "defenders", defenders)
        object.__setattr__(self, "stake", stake)
        object.__setattr__(self, "failed_throws", failed_throws)
        object.__setattr__(self, "failed_seats", failed_seats)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "friend", friend)

    @property
    def kitty_captured(self) -> bool:
        """Attackers won the last trick (扣底)."""
        return self.last_winner not in self.defenders



@lru_cache(maxsize=256)
def display_order(ctx: TrumpContext) -> tuple[int, ...]:
    """All 54 kinds in display order for a context (trumps first, high cards first)."""
    return tuple(sorted(range(54), key=ctx.sort_key))



def next_seat(seat: int, players: int) -> int:
    """The seat after ``seat`` (play goes round in seat order)."""
    return (seat + 1) % players



FIELDS: Final[tuple[str, ...]] = (
    "attacker_points",
    "auction",
    "ctx",
    "deal_no",
    "dealer",
    "deck",
    "declaration",
    "declared",
    "declarer_first",
    "defender_points",
    "defenders",
    "failed_throws",
    "failed_seats",
    "first_deal",
    "friend",
    "friend_call",
    "friend_seat",
    "friend_seen",
    "hand_sizes",
    "hands",
    "kitty",
    "kitty_holder",
    "kitty_kept",
    "lead",
    "leader",
    "level",
    "n_dealt",
    "passes",
    "phase",
    "rebury_decl",
    "result",
    "rights",
    "ruleset",
    "seat_levels",
    "seed",
    "shown",
    "stake",
    "start",
    "target",
    "trick",
    "tricks",
    "trump",
    "turn",
)
"""The public fields of a ``DealState`` (its ``__slots__`` less private memos)."""


class DealRecord:
    """The whole state of one deal, without the transitions (``state.DealState`` adds them).
    Treat instances as immutable values."""

    __slots__ = (*FIELDS, "_to_act", "_vouched", "_own")

    ruleset: Ruleset
    seed: int | str
    level: int
    deal_no: int
    dealer: int | None
    first_deal: bool
    start: int
    deck: tuple[int, ...]
    n_dealt: int
    hands: tuple[list[int], ...]
    hand_sizes: tuple[int, ...]
    declaration: Declaration | None
    declared: tuple[Declaration, ...]
    """Every declaration made during the deal, in order (hidden ones included)."""
    declarer_first: int | None
    passes: int
    turn: int
    _to_act: int | None
    _vouched: dict[int, Action] | None
    """Actions this state's own ``LegalActions`` generated, by identity (see ``vouch_book``);
    reset by every transition, so a vouched action is legal exactly here."""
    _own: bool
    """Whether no other state shares this one's hand lists (then in-place transitions change
    them directly; ``_copy`` shares them, so both lose ownership)."""
    trump: int | None
    ctx: TrumpContext | None
    kitty: tuple[int, ...]
    kitty_holder: int | None
    rebury_decl: Declaration | None
    stake: int
    phase: Phase
    leader: int
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    lead: Lead | None
    tricks: tuple[TrickRecord, ...]
    attacker_points: int
    defender_points: int
    defenders: tuple[int, ...]
    failed_throws: int
    failed_seats: tuple[int, ...]
    """The seat of each failed throw, in order."""
    result: DealResult | None
    seat_levels: tuple[int, ...]
    """Each seat's own level (竞标: the auction's winner plays at its level)."""
    auction: Auction | None
    """竞标: the bids so far (None in other games)."""
    target: int | None
    """竞标: the attackers' target once the auction is over."""
    shown: tuple[int, ...]
    """竞标: the kitty cards turned up for everyone after the deal."""
    kitty_kept: tuple[int, ...]
    """Kitty cards a 反底 swap left in place, unseen by the kitty's holder."""
    rights: tuple[int, ...]
    """亮牌权: on a deal after a takeover under ``takeover_dealer="attackers-declare"``, the
    seats that may declare, each with its own level; the declarer deals (nobody: the first
    of them). Empty: every seat declares with the deal's level."""
    friend_call: FriendCall | None
    """找朋友: the dealer's call, once made."""
    friend: int | None
    """找朋友: the friend once revealed (it is then in ``defenders``)."""
    friend_seat: int | None
    """找朋友, nearest-holder rule: the friend the call made (hidden until it plays the card;
    None: the dealer is alone, or the ``nth-played`` rule, where only a play decides)."""
    friend_seen: int
    """找朋友, ``nth-played`` rule: copies of the called card other seats have played."""

    def __init__(self) -> None:
        """Empty shell; use ``DealState.new``. Fields are set by ``new`` and ``_copy``."""

    def _blank(self) -> DealRecord:
        """An empty shell of this state's own class (``DealState`` makes a ``DealState``)."""
        return DealRecord()

    def _copy(self) -> DealRecord:
        s = self._blank()
        s.attacker_points = self.attacker_points
        s.auction = self.auction
        s.seat_levels = self.seat_levels
        s.rights = self.rights
        s.target = self.target
        s.shown = self.shown
        s.kitty_kept = self.kitty_kept
        s.friend_call = self.friend_call
        s.friend = self.friend
        s.friend_seat = self.friend_seat
        s.friend_seen = self.friend_seen
        s.ctx = self.ctx
        s.deal_no = self.deal_no
        s.dealer = self.dealer
        s.declaration = self.declaration
        s.declared = self.declared
        s.declarer_first = self.declarer_first
        s.defender_points = self.defender_points
        s.defenders = self.defenders
        s.deck = self.deck
        s.failed_throws = self.failed_throws
        s.failed_seats = self.failed_seats
        s.first_deal = self.first_deal
        s.hand_sizes = self.hand_sizes
        s.hands = self.hands
        s.kitty = self.kitty
        s.kitty_holder = self.kitty_holder
        s.lead = self.lead
        s.leader = self.leader
        s.level = self.level
        s.n_dealt = self.n_dealt
        s.passes = self.passes
        s.phase = self.phase
        s.rebury_decl = self.rebury_decl
        s.result = self.result
        s.ruleset = self.ruleset
        s.seed = self.seed
        s.stake = self.stake
        s.start = self.start
        s.trick = self.trick
        s.tricks = self.tricks
        s.trump = self.trump
        s.turn = self.turn
        s._to_act = _UNKNOWN
        s._vouched = None
        s._own = self._own = False
        return s


    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.ruleset.players

    @property
    def to_act(self) -> int | None:
        """Who moves: a seat, ``SYSTEM`` while dealing, None when the deal is over."""
        cached = self._to_act
        if cached != _UNKNOWN:
            return cached
        self._to_act = who = self._who_acts()
        return who

    def _who_acts(self) -> int | None:
        ph = self.phase
        if ph is PHASE_PLAYING:
            return (self.leader + len(self.trick)) % self.players
        if ph is PHASE_DEALING:
            return SYSTEM
        if ph is Phase.BURYING or ph is Phase.NAMING:
            return self.kitty_holder
        if ph is Phase.CALLING:
            return self.dealer
        if ph is Phase.DONE:
            return None
        if ph is Phase.BIDDING:
            return self.auction.turn if self.auction is not None else None
        return self.turn

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase is PHASE_DONE

    def hand(self, seat: int) -> list[int]:
        """A seat's cards as a sorted list of kinds (display order once trump is known)."""
        h = self.hands[seat]
        order = display_order(self.ctx) if self.ctx else range(54)
        return [k for k in order if h[k] for _ in range(h[k])]

    @property
    def dealer_to_be(self) -> int | None:
        """A first deal, before trump is fixed: the seat that would deal if the declarations
        ended now (the first declarer, or the standing one where an overturn takes the seat).
        None in any other deal, before anyone declared, and under hidden declarations (暗叫:
        nobody may know who declared)."""
        if self.dealer is not None or self.trump is not None or self.auction is not None:
            return None
        if self.ruleset.declaration == "hidden":
            return None
        return first_deal_dealer(self.declared, self.declaration, self.ruleset)

    def is_defender(self, seat: int) -> bool:
        """Whether ``seat`` is on the dealer's side (庄家方)."""
        return seat in self.defenders

    def writable(self, inplace: bool) -> DealRecord:
        """The state a transition writes: a copy, or (in place) this one."""
        if inplace:
            self._to_act = _UNKNOWN
            self._vouched = None
            return self
        return self._copy()

    def hand_to_change(self, s: DealRecord, seat: int) -> list[int]:
        """``seat``'s count vector in ``s`` (this state, or its fresh copy), safe to change:
        in place, this state's own lists (copied once if shared); else a copy of that hand."""
        if s is self:
            if not self._own:
                self.hands = tuple([list(h) for h in self.hands])
                self._own = True
            return self.hands[seat]
        h = list(self.hands[seat])
        hands = list(self.hands)
        hands[seat] = h
        s.hands = tuple(hands)
        return h

    def check_seat(self, seat: int) -> None:
        """Raise ``IllegalAction`` unless it is ``seat``'s turn."""
        if seat != self.to_act:
            if not 0 <= seat < self.players:
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"no seat {seat}")
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {self.to_act}'s turn")

    def check_holds(self, seat: int, cards: Sequence[int]) -> None:
        """Raise ``IllegalAction`` unless ``seat`` holds every one of ``cards``."""
        h = self.hands[seat]
        if len(cards) == 1:
            c = cards[0]
            if not 0 <= c < 54:
                raise IllegalAction(Reason.BAD_NOTATION, f"no card kind {c}")
            if not h[c]:
                raise IllegalAction(Reason.NOT_IN_HAND, "that card is not in your hand")
            return
        need: dict[int, int] = {}
        for c in cards:
            if not 0 <= c < 54:
                raise IllegalAction(Reason.BAD_NOTATION, f"no card kind {c}")
            need[c] = need.get(c, 0) + 1
        for c, n in need.items():
            if h[c] < n:
                raise IllegalAction(Reason.NOT_IN_HAND, "those cards are not in your hand")

    def declare_level(self, seat: int) -> int:
        """The level ``seat`` declares with: its own on a 亮牌权 deal, else the deal's."""
        return self.seat_levels[seat] if self.rights and self.dealer is None else self.level

    def own_declaration(self, seat: int) -> Declaration | None:
        """The last declaration ``seat`` made in this deal."""
        for d in reversed(self.declared):
            if d.seat == seat:
                return d
        return None


def wrong_phase(state: DealRecord, action: Action) -> IllegalAction:
    """The refusal of an action the state's phase does not take (``WRONG_PHASE``).

    >>> from shengji.core.state import DealState
    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
    >>> wrong_phase(s, Play(0, (3,))).message
    'cannot play during dealing'
    """
    ph = state.phase.value
    if isinstance(action, Play):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot play during {ph}")
    if isinstance(action, Deal):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot deal during {ph}")
    if isinstance(action, Declare):
        if state.auction is not None and state.phase is not Phase.REBURY:
            return IllegalAction(
                Reason.WRONG_PHASE,
                "竞标: the auction's winner names trump; declare only to overturn",
            )
        return IllegalAction(Reason.WRONG_PHASE, f"cannot declare during {ph}")
    if isinstance(action, Pass):
        return IllegalAction(Reason.WRONG_PHASE, f"nothing to pass during {ph}")
    if isinstance(action, Bury):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot bury during {ph}")
    if isinstance(action, Bid):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot bid during {ph}")
    if isinstance(action, CallFriend):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot call a friend during {ph}")
    if isinstance(action, NameTrump):
        return IllegalAction(Reason.WRONG_PHASE, f"cannot name trump during {ph}")
    return IllegalAction(Reason.WRONG_PHASE, f"unknown action {action!r}")


def refuse_all(
    state: DealRecord, action: Action, inplace: bool
) -> tuple[DealRecord, list[Event]]:
    """The transitions of a finished deal (phase ``done``): none."""
    raise wrong_phase(state, action)
