"""One deal as an explicit state machine: dealing with live declarations, the kitty (and
反底), the tricks, and the deal's result (RULES.md §4–§7).

``DealState.new(ruleset, seed, level, dealer)`` shuffles from the seed. ``apply(action)``
returns ``(new_state, events)`` and never changes the state it is called on; an illegal
action raises ``IllegalAction`` with a ``Reason``. ``to_act`` says who moves (``SYSTEM``
deals the cards; while dealing any seat may also declare). ``legal_actions(seat)`` is lazy.

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
from shengji.core.auction import Auction, target_level_change
from shengji.core.bidding import (
    Declaration,
    beats_rebury,
    legal_declarations,
    legal_reburies,
    make_declaration,
    tier,
)
from shengji.core.cards import BJ, JOKER_LEVEL, LJ, card_str, deck, points_of
from shengji.core.declaring import (
    NOT_A_DECLARATION,
    fallback_trump,
    first_deal_dealer,
    refusal_now,
    standing_after,
)
from shengji.core.draws import below, shuffle
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import (
    AuctionWon,
    BidMade,
    CardCountDealt,
    CardDealt,
    DealEnded,
    DealStarted,
    Declared,
    Event,
    FriendCalled,
    FriendRevealed,
    KittyBuried,
    KittyRevealed,
    KittyShown,
    KittyTaken,
    NotFriend,
    Passed,
    Played,
    ThrowFailed,
    TrickWon,
    TrumpFixed,
    WindowTurn,
)
from shengji.core.follow import Lead, analyse_lead, follow_refusal
from shengji.core.friend import FriendCall, friend_after_play, nearest_holder
from shengji.core.legal import LegalActions
from shengji.core.order import TrumpContext, context_for
from shengji.core.phases import PHASE_DEALING, PHASE_DONE, PHASE_PLAYING, Phase
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import LevelChange, kitty_multiplier, level_change
from shengji.core.throws import check_throw
from shengji.core.tricks import trick_winner
from shengji.core.units import suit_of_play


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


def first_seat_dealt(seed: int | str, players: int) -> int:
    """The seat dealt the first card under ``deal_order="random"``, drawn from the deal's
    seed apart from the shuffle (四副牌 "每轮由系统随机决定发牌顺序"), so a replay deals it
    again.

    >>> first_seat_dealt("match/3", 4) == first_seat_dealt("match/3", 4)
    True
    """
    return below(random.Random(f"{seed}/deal-order"), players)


def _hidden_overturns(declared: Sequence[Declaration], ruleset: Ruleset) -> int:
    """How often the standing hidden declaration passed to another seat (each doubles)."""
    standing: Declaration | None = None
    count = 0
    for d in declared:
        if standing is None or tier(d, ruleset) > tier(standing, ruleset):
            if standing is not None and standing.seat != d.seat:
                count += 1
            standing = d
    return count


_UNKNOWN: Final = -2
"""``to_act`` not computed yet (states are immutable, so it is computed once)."""

def _next(seat: int, players: int) -> int:
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


class DealState:
    """The whole state of one deal. Treat instances as immutable values."""

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

    def _copy(self) -> DealState:
        s = DealState()
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
        return self._apply(action, False)

    def apply_in_place(self, action: Action) -> list[Event]:
        """Fast path for simulations (arena, search): change this state itself.

        Same checks, events and outcome as ``apply``; an illegal action still changes
        nothing. Only for a state nobody else holds.
        """
        return self._apply(action, True)[1]

    def _apply(self, action: Action, inplace: bool) -> tuple[DealState, list[Event]]:
        ph = self.phase
        if isinstance(action, Play):
            if ph is not PHASE_PLAYING:
                raise IllegalAction(Reason.WRONG_PHASE, f"cannot play during {ph.value}")
            return self._play(action, inplace)
        if isinstance(action, Deal):
            if ph is not Phase.DEALING:
                raise IllegalAction(Reason.WRONG_PHASE, f"cannot deal during {ph.value}")
            return self._deal(inplace)
        if isinstance(action, Declare):
            return self._declare(action, inplace)
        if isinstance(action, Pass):
            return self._pass(action, inplace)
        if isinstance(action, Bury):
            return self._bury(action, inplace)
        if isinstance(action, Bid):
            return self._bid(action, inplace)
        if isinstance(action, CallFriend):
            return self._call_friend(action, inplace)
        if isinstance(action, NameTrump):
            return self._name_trump(action, inplace)
        raise IllegalAction(Reason.WRONG_PHASE, f"unknown action {action!r}")

    def _target(self, inplace: bool) -> DealState:
        """The state a transition writes: a copy, or (in place) this one."""
        if inplace:
            self._to_act = _UNKNOWN
            self._vouched = None
            return self
        return self._copy()

    def _hand_to_change(self, s: DealState, seat: int) -> list[int]:
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

    def _check_seat(self, seat: int) -> None:
        if seat != self.to_act:
            if not 0 <= seat < self.players:
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"no seat {seat}")
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {self.to_act}'s turn")

    def _check_holds(self, seat: int, cards: Sequence[int]) -> None:
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

    def _deal(self, inplace: bool) -> tuple[DealState, list[Event]]:
        s = self._target(inplace)
        seat, c = self._deal_card(s)
        events: list[Event] = [CardDealt(seat, seat, c), CardCountDealt(None, seat)]
        if s.phase is Phase.BIDDING:
            events.append(KittyShown(None, s.shown))
        return s, events

    def deal_in_place(self) -> tuple[int, int]:
        """Fast path for simulations: ``apply_in_place(Deal())`` without building its events
        (``CardDealt`` to the seat, ``CardCountDealt`` to all, ``KittyShown`` after the last
        card under 竞标); returns ``(seat, card)``. Only for a state nobody else holds."""
        if self.phase is not PHASE_DEALING:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot deal during {self.phase.value}")
        return self._deal_card(self._target(True))

    def _deal_card(self, s: DealState) -> tuple[int, int]:
        """Deal the next card into ``s`` (this state or its fresh copy): ``(seat, card)``."""
        players = self.players
        n = self.n_dealt
        seat = (self.start + n) % players
        c = self.deck[n]
        self._hand_to_change(s, seat)[c] += 1
        sizes = list(self.hand_sizes)
        sizes[seat] += 1
        s.hand_sizes = tuple(sizes)
        s.n_dealt = n = n + 1
        if n == players * self.ruleset.hand_size:
            if self.auction is not None:
                s.phase = Phase.BIDDING
                s.shown = self.kitty[: self.ruleset.kitty_shown]
            else:
                s.phase = Phase.DECLARING
                s.turn = self.start
                s.passes = 0
        return seat, c

    def _declare(self, action: Declare, inplace: bool) -> tuple[DealState, list[Event]]:
        ph, seat = self.phase, action.seat
        if self.auction is not None and ph is not Phase.REBURY:
            raise IllegalAction(
                Reason.WRONG_PHASE,
                "竞标: the auction's winner names trump; declare only to overturn",
            )
        if ph is Phase.DEALING:
            if not 0 <= seat < self.players:
                raise IllegalAction(Reason.NOT_YOUR_TURN, f"no seat {seat}")
        elif ph in (Phase.DECLARING, Phase.REBURY):
            self._check_seat(seat)
        else:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot declare during {ph.value}")
        if self.rights and seat not in self.rights and ph is not Phase.REBURY:
            raise IllegalAction(
                Reason.BAD_DECLARATION,
                "only the attackers of the last deal may declare now (亮牌权: "
                + ", ".join(f"seat {r}" for r in self.rights) + ")",
            )
        self._check_holds(seat, action.cards)
        d = make_declaration(seat, action.cards, self.declare_level(seat), self.ruleset)
        if d is None:
            raise IllegalAction(Reason.BAD_DECLARATION, NOT_A_DECLARATION)
        if ph is Phase.REBURY:
            return self._rebury(d, inplace)
        hidden = self.ruleset.declaration == "hidden"
        # Hidden (暗叫) declarations are only checked against the seat's own earlier one,
        # so a refusal never tells what others declared; the strongest stands at the end.
        why = refusal_now(d, self.declared, self.declaration, self.ruleset)
        if why is not None:
            raise IllegalAction(Reason.BAD_DECLARATION, why)
        s = self._target(inplace)
        s.declared = (*self.declared, d)
        standing = self.declaration
        s.declaration = standing_after(standing, d, self.ruleset)
        if self.rights and s.declaration is d:  # 亮牌权: played at the declarer's level
            s.level = self.seat_levels[seat]
        overturn = standing is not None and s.declaration is d and standing.seat != seat
        if self.declarer_first is None:
            s.declarer_first = seat
        if hidden:
            # Stake and overturns are settled when trump is revealed (see _fix_trump); the
            # window counts a hidden declaration as that seat's turn, like a pass.
            events: list[Event] = [Declared(seat, seat, d.cards, d.trump, False, False)]
            if ph is Phase.DECLARING:
                events.append(WindowTurn(None, seat))
                s.turn = _next(seat, self.players)
                s.passes = self.passes + 1
                if s.passes >= self.players:
                    events.extend(s._fix_trump())
            return s, events
        if overturn:
            s.stake = self.stake * 2
        if ph is Phase.DECLARING:
            s.passes = 0
            s.turn = _next(seat, self.players)
        return s, [Declared(None, seat, d.cards, d.trump, overturn, False, s.dealer_to_be)]

    def own_declaration(self, seat: int) -> Declaration | None:
        """The last declaration ``seat`` made in this deal."""
        for d in reversed(self.declared):
            if d.seat == seat:
                return d
        return None

    def _pass(self, action: Pass, inplace: bool) -> tuple[DealState, list[Event]]:
        ph = self.phase
        if ph is Phase.BIDDING:
            return self._bid(action, inplace)
        if ph not in (Phase.DECLARING, Phase.REBURY):
            raise IllegalAction(Reason.WRONG_PHASE, f"nothing to pass during {ph.value}")
        self._check_seat(action.seat)
        s = self._target(inplace)
        s.passes = self.passes + 1
        if ph is Phase.DECLARING and self.ruleset.declaration == "hidden":
            # Others must not tell a hidden declaration from a pass.
            events: list[Event] = [
                Passed(action.seat, action.seat),
                WindowTurn(None, action.seat),
            ]
        else:
            events = [Passed(None, action.seat)]
        if ph is Phase.DECLARING:
            s.turn = _next(action.seat, self.players)
            if s.passes >= self.players:
                events.extend(s._fix_trump())
        else:
            nxt = _next(action.seat, self.players)
            if nxt == self.kitty_holder:
                nxt = _next(nxt, self.players)
            s.turn = nxt
            if s.passes >= self.players - 1:
                s._start_play()
        return s, events

    def _fix_trump(self) -> list[Event]:
        """Mutates a fresh copy: settle trump and dealer, hand the kitty over."""
        rs = self.ruleset
        d = self.declaration
        turned: int | None = None
        if d is not None:
            trump = d.trump
        else:
            trump, turned = fallback_trump(rs, self.kitty)
        if self.dealer is None:
            if self.rights:  # 亮牌权: the declarer (nobody: the first right holder) deals
                self.dealer = d.seat if d is not None else self.start
                self.level = self.seat_levels[self.dealer]
            else:
                first = first_deal_dealer(self.declared, d, rs)
                self.dealer = self.start if first is None else first
        dealer = self.dealer
        if rs.declaration == "hidden":
            self.stake = self.stake * 2 ** _hidden_overturns(self.declared, rs)
        self.trump = trump
        self.ctx = context_for(rs, self.level, trump)
        self.defenders = self._dealer_side(dealer)
        self.rebury_decl = d
        events: list[Event] = [
            TrumpFixed(None, self.ctx.trump, dealer, d.seat if d else None, turned)
        ]
        if rs.kitty_size:
            events.extend(self._give_kitty(dealer))
        else:
            self._start_play()
        return events

    def _dealer_side(self, dealer: int) -> tuple[int, ...]:
        """The dealer's side: the dealer alone (竞标; 找朋友 until the friend is revealed),
        else the seats of its parity."""
        if self.auction is not None or self.ruleset.partnership == "find-friend":
            return (dealer,)
        return tuple(p for p in range(self.players) if p % 2 == dealer % 2)

    # ------------------------------------------------------------------ 竞标 (bidding)

    def _bid(self, action: Bid | Pass, inplace: bool) -> tuple[DealState, list[Event]]:
        """A bid or a pass in the auction; the last one hands the kitty to the winner."""
        auction = self.auction
        if self.phase is not Phase.BIDDING or auction is None:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot bid during {self.phase.value}")
        if isinstance(action, Bid):
            after = auction.bid(action.seat, action.target, self.ruleset)
            events: list[Event] = [BidMade(None, action.seat, action.target)]
        else:
            after = auction.pass_(action.seat)
            events = [Passed(None, action.seat)]
        s = self._target(inplace)
        s.auction = after
        if after.is_over:
            dealer, target = after.result(self.ruleset)
            s.dealer = dealer
            s.target = target
            s.level = self.seat_levels[dealer]
            s.defenders = (dealer,)
            events.append(AuctionWon(None, dealer, target, s.level))
            events.extend(s._give_kitty(dealer))
            s.phase = Phase.NAMING
        return s, events

    def _name_trump(self, action: NameTrump, inplace: bool) -> tuple[DealState, list[Event]]:
        """The auction's winner names a suit (seed 002: "由庄家指定一种花色为主花色")."""
        if self.phase is not Phase.NAMING:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot name trump during {self.phase.value}")
        self._check_seat(action.seat)
        if not 0 <= action.trump < 4:
            raise IllegalAction(Reason.BAD_DECLARATION, "name one of the suits S, H, D, C")
        s = self._target(inplace)
        s.trump = action.trump
        s.ctx = context_for(self.ruleset, self.level, action.trump)
        s.phase = Phase.BURYING
        return s, [TrumpFixed(None, action.trump, action.seat, None, None)]

    def _swap_kitty(self, seat: int) -> list[Event]:
        """竞标 反牌: ``seat`` takes ``rebury_swap`` random kitty cards (seeded by the deal) and
        will bury as many; the rest stays in place, unseen by it."""
        kitty = list(self.kitty)
        rng = random.Random(f"{self.seed}/swap/{seat}/{','.join(map(str, kitty))}")
        taken = sorted(rng.sample(range(len(kitty)), self.ruleset.rebury_swap))
        drawn = tuple(kitty[i] for i in taken)
        self.kitty_kept = tuple(c for i, c in enumerate(kitty) if i not in taken)
        self.kitty = drawn
        events = self._give_kitty(seat)
        return events

    def _give_kitty(self, seat: int) -> list[Event]:
        h = self._hand_to_change(self, seat)
        for c in self.kitty:
            h[c] += 1
        sizes = list(self.hand_sizes)
        sizes[seat] += len(self.kitty)
        self.hand_sizes = tuple(sizes)
        self.kitty_holder = seat
        self.phase = Phase.BURYING
        return [KittyTaken(seat, seat, self.kitty)]

    def _start_play(self) -> None:
        if self.ruleset.partnership == "find-friend" and self.friend_call is None:
            self.phase = Phase.CALLING
            return
        self.phase = Phase.PLAYING
        self.leader = self.dealer if self.dealer is not None else 0
        self.trick = ()

    def _bury(self, action: Bury, inplace: bool) -> tuple[DealState, list[Event]]:
        if self.phase is not Phase.BURYING:
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot bury during {self.phase.value}")
        self._check_seat(action.seat)
        k = self.ruleset.kitty_size - len(self.kitty_kept)
        if len(action.cards) != k:
            raise IllegalAction(Reason.BAD_KITTY, f"bury exactly {k} cards")
        self._check_holds(action.seat, action.cards)
        s = self._target(inplace)
        h = self._hand_to_change(s, action.seat)
        for c in action.cards:
            h[c] -= 1
        sizes = list(self.hand_sizes)
        sizes[action.seat] -= k
        s.hand_sizes = tuple(sizes)
        s.kitty = (*self.kitty_kept, *action.cards)
        events: list[Event] = [
            KittyBuried(action.seat, action.seat, tuple(action.cards), k),
            KittyBuried(None, action.seat, (), k),
        ]
        if self.ruleset.rebury:
            s.phase = Phase.REBURY
            s.passes = 0
            s.turn = _next(action.seat, self.players)
        else:
            s._start_play()
        return s, events

    def _rebury(self, d: Declaration, inplace: bool) -> tuple[DealState, list[Event]]:
        if not beats_rebury(d, self.rebury_decl):
            raise IllegalAction(
                Reason.BAD_DECLARATION, "反底 needs a stronger set: a pair or more, ranked by suit"
            )
        s = self._target(inplace)
        s.rebury_decl = d
        s.stake = self.stake * 2
        s.trump = d.trump
        s.ctx = context_for(self.ruleset, self.level, d.trump)
        events: list[Event] = [Declared(None, d.seat, d.cards, d.trump, True, True)]
        if self.ruleset.rebury_swap:
            events.extend(s._swap_kitty(d.seat))
        else:
            events.extend(s._give_kitty(d.seat))
        return s, events

    # ------------------------------------------------------------------ 找朋友 (find a friend)

    def _call_friend(self, action: CallFriend, inplace: bool) -> tuple[DealState, list[Event]]:
        """The dealer names its friend's card (RULES.md §8); play starts."""
        if self.phase is not Phase.CALLING:
            raise IllegalAction(
                Reason.WRONG_PHASE, f"cannot call a friend during {self.phase.value}"
            )
        self._check_seat(action.seat)
        if not 0 <= action.card < 54:
            raise IllegalAction(Reason.BAD_CALL, f"no card kind {action.card}")
        nearest = self.ruleset.friend_rule == "nearest-holder"
        if nearest and action.nth != 1:
            raise IllegalAction(
                Reason.BAD_CALL,
                "call a card, not a copy: its holder nearest the dealer is the friend "
                f"(call {action.seat} 1 {card_str(action.card)})",
            )
        if not 1 <= action.nth <= self.ruleset.decks:
            raise IllegalAction(
                Reason.BAD_CALL, f"call copy 1..{self.ruleset.decks} of a card, not {action.nth}"
            )
        assert self.dealer is not None
        s = self._target(inplace)
        s.friend_call = FriendCall(action.card, action.nth)
        s.friend_seat = nearest_holder(action.card, self.dealer, self.hands) if nearest else None
        s.friend_seen = 0
        s._start_play()
        return s, [FriendCalled(None, action.seat, action.card, action.nth)]

    def _reveal_friend(self, seat: int) -> None:
        """Mutates a fresh copy: ``seat`` joins the dealer; its tricks' points move over."""
        assert self.dealer is not None
        self.friend = seat
        self.defenders = tuple(sorted((self.dealer, seat)))
        moved = sum(t.points for t in self.tricks if t.winner == seat)
        self.attacker_points -= moved
        self.defender_points += moved

    # ------------------------------------------------------------------ tricks

    def _play(self, action: Play, inplace: bool) -> tuple[DealState, list[Event]]:
        seat, cards = action.seat, action.cards
        book = self._vouched
        # An action this position's LegalActions generated is legal: skip the re-checks.
        # Everything else (clients, bots' own objects) is checked in full.
        vouched = book is not None and book.get(id(action)) is action
        if not vouched:
            self._check_seat(seat)
            if not cards:
                raise IllegalAction(Reason.EMPTY_PLAY, "play at least one card")
            self._check_holds(seat, cards)
        ctx = self.ctx
        assert ctx is not None
        rs = self.ruleset
        events: list[Event] = []
        penalty_delta = 0
        failed = 0
        if not self.trick:
            if not vouched and suit_of_play(cards, ctx) is None:
                raise IllegalAction(Reason.MIXED_LEAD, "a lead is cards of one suit")
            lead = analyse_lead(cards, ctx, rs)
            if len(lead.units) > 1:  # a throw: vouched or not, the others' hands decide it
                others = [self.hands[p] for p in range(self.players) if p != seat]
                res = check_throw(cards, others, ctx, rs)
                if not res.valid:
                    if not res.play:
                        raise IllegalAction(Reason.THROW_NOT_ALLOWED, res.reason or "no throw")
                    pen = rs.failed_throw_penalty
                    events.append(ThrowFailed(None, seat, tuple(cards), res.play, pen))
                    penalty_delta = pen if seat in self.defenders else -pen
                    failed = 1
                    cards = res.play
                    lead = analyse_lead(cards, ctx, rs)
        else:
            assert self.lead is not None
            lead = self.lead
            if not vouched:
                refusal = follow_refusal(lead, self.hands[seat], cards, ctx)
                if refusal is not None:
                    raise IllegalAction(*refusal)
        s = self._target(inplace)
        h = self._hand_to_change(s, seat)
        for c in cards:
            h[c] -= 1
        sizes = list(self.hand_sizes)
        sizes[seat] -= len(cards)
        s.hand_sizes = tuple(sizes)
        s.attacker_points = self.attacker_points + penalty_delta
        s.failed_throws = self.failed_throws + failed
        if failed:
            s.failed_seats = (*self.failed_seats, seat)
        s.lead = lead
        s.trick = (*self.trick, (seat, tuple(cards)))
        events.append(Played(None, seat, tuple(cards)))
        call = self.friend_call
        if call is not None and self.friend is None and self.dealer is not None:
            if rs.friend_rule == "nearest-holder":
                if seat != self.dealer and call.card in cards:
                    if seat == self.friend_seat:
                        s._reveal_friend(seat)
                        events.append(FriendRevealed(None, seat, call.card))
                    else:
                        events.append(NotFriend(None, seat, call.card))
            else:
                s.friend_seen, hit = friend_after_play(
                    call, self.dealer, self.friend_seen, seat, cards
                )
                if hit:
                    s._reveal_friend(seat)
                    events.append(FriendRevealed(None, seat, call.card))
        if len(s.trick) == self.players:
            events.extend(s._finish_trick())
        return s, events

    def _finish_trick(self) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        plays = [c for _, c in self.trick]
        wi = trick_winner(plays, ctx, self.ruleset)
        winner = self.trick[wi][0]
        pts = points_of([c for p in plays for c in p])
        if winner in self.defenders:
            self.defender_points += pts
        else:
            self.attacker_points += pts
        rec = TrickRecord(self.leader, self.trick, winner, pts)
        self.tricks = (*self.tricks, rec)
        events: list[Event] = [
            TrickWon(None, len(self.tricks), winner, pts, self.attacker_points)
        ]
        self.leader = winner
        last_trick = self.trick
        self.trick = ()
        self.lead = None
        if not any(self.hand_sizes):
            events.extend(self._end(winner, last_trick[0][1], last_trick[wi][1]))
        return events

    def _end(
        self, winner: int, lead: tuple[int, ...], winning: tuple[int, ...]
    ) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        rs = self.ruleset
        kitty_points = points_of(self.kitty)
        captured = winner not in self.defenders
        mult = kitty_multiplier(lead, winning, ctx, rs)
        transfer = rs.kitty_formula == "last-trick-transfer"
        if transfer:
            if captured:
                gain = self.defender_points * mult
                self.defender_points -= gain
            else:
                gain = -self.attacker_points * mult
                self.defender_points -= gain
        else:
            gain = kitty_points * mult if captured else 0
            if not captured:
                self.defender_points += kitty_points
        self.attacker_points += gain
        if self.target is not None:
            change = target_level_change(self.attacker_points, self.target)
        else:
            change = level_change(self.attacker_points, rs)
        self.result = DealResult(
            attacker_points=self.attacker_points,
            kitty_points=kitty_points,
            kitty_multiplier=mult if captured or transfer else 0,
            kitty_gain=gain,
            last_winner=winner,
            last_winning_cards=winning,
            change=change,
            defenders=self.defenders,
            stake=self.stake,
            failed_throws=self.failed_throws,
            failed_seats=self.failed_seats,
            target=self.target,
            friend=self.friend,
        )
        self.phase = Phase.DONE
        return [
            KittyRevealed(
                None, self.kitty, kitty_points, mult if captured or transfer else 0, gain
            ),
            DealEnded(
                None,
                self.attacker_points,
                change.defender_levels,
                change.attacker_levels,
                change.attackers_take_over,
                self.stake,
            ),
        ]

    # ------------------------------------------------------------------ declarations

    def declare_level(self, seat: int) -> int:
        """The level ``seat`` declares with: its own on a 亮牌权 deal, else the deal's."""
        return self.seat_levels[seat] if self.rights and self.dealer is None else self.level

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

