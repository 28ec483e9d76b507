"""What a table shows one seat beyond its view: every mark and number a client would
otherwise have to work out from the rules (docs/protocol.md, "GameView").

``table_facts(state, seat)`` answers, for ``seat`` (None: a spectator): which card kinds are
trump (before trump is fixed: under the standing declaration, or the level cards and jokers
alone), the seat's hand in display order, the actions other than cards it may take now
(declarations, pass, bids, trump suits, friend calls), how many cards a burial holds, each
seat's role, the fixed teams, the attackers' goal, their point cards (after a friend's reveal
too) and the points that are not on cards (failed-throw penalties), how the hand falls into
suits (``hand_groups``, so a client may reorder whole groups), and the cards played so far per
suit with how many of that suit this seat has not seen yet (``played``, a 记牌器; empty where
the ruleset offers no player aids, ``player_aids``: "不许查牌"). A browser computes none of
this; it renders it.

>>> from shengji.core.cards import cards_str
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> s = DealState.new(PRESETS["two-color"], seed=1, level=0, dealer=0)
>>> f = table_facts(s, 0)                     # nothing declared: jokers and the 2s
>>> cards_str(f.trumps)
'BJ LJ S2 H2 D2 C2'
>>> f.roles, f.teams, f.goal, f.bury_count
(('dealer', 'attacker', 'partner', 'attacker'), (0, 1, 0, 1), 40, 6)
>>> [(SUIT_NAMES[g.suit], g.cards, g.unseen) for g in f.played]  # ♣ count as ♠, ♦ as ♥
[('T', (), 6), ('S', (), 24), ('H', (), 24)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, NamedTuple

from shengji.core.actions import Action, Deal, Play
from shengji.core.cards import NO_TRUMP, points
from shengji.core.legal import legal_actions
from shengji.core.match import team_of
from shengji.core.order import TrumpContext, context_for
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealState, TrickRecord, display_order

_CARD_ACTIONS: Final = (Deal, Play)
"""Actions that are not options (a choice of cards, or the dealer's next card)."""

SuitName = Literal["S", "H", "D", "C", "T"]
SUIT_NAMES: Final[tuple[SuitName, ...]] = ("S", "H", "D", "C", "T")
"""An effective suit's letter on the wire: the four suits, ``T`` for trump."""


class PlayedSuit(NamedTuple):
    """One effective suit in the played-cards panel (记牌器): the cards of it played so far
    in this deal, in display order, and how many of it the seat has not seen yet (neither
    played nor in its own hand, nor in a kitty it buried).

    >>> SUIT_NAMES[PlayedSuit(4, (53, 53), 10).suit]                  # two big jokers out
    'T'
    """

    suit: int
    """Effective suit: 0..3 (♠ ♥ ♦ ♣) or 4, ``order.TRUMP``."""
    cards: tuple[int, ...]
    unseen: int


Role = Literal["dealer", "partner", "friend", "attacker"]
"""A seat's side as everyone may know it: the dealer (庄家), its fixed partner, its revealed
friend (找朋友), or an attacker (闲家). None: not known yet (before the dealer is settled;
找朋友 until the friend is revealed)."""


@dataclass(frozen=True, slots=True)
class TableFacts:
    """Display facts for one seat (or a spectator) in one state."""

    trumps: tuple[int, ...]
    """Every trump kind, highest first (two-colour: the partner suit too; 常主: the 2s).
    Before trump is fixed: as if the standing declaration this seat sees were trump."""
    hand: tuple[int, ...]
    """The seat's cards in display order (trumps first, then ♠ ♥ ♣ ♦, high to low)."""
    options: tuple[Action, ...]
    """Legal actions of the seat now that are not a choice of cards from the hand:
    declarations, pass, bids, trump suits, friend calls (empty for a spectator)."""
    bury_count: int
    """Cards the kitty's holder buries (the kitty less what a 反底 swap left in place)."""
    roles: tuple[Role | None, ...]
    """Per seat, its side as far as everyone knows it."""
    teams: tuple[int, ...]
    """Fixed partners: each seat's team (seat parity); empty for other partnerships."""
    goal: int | None
    """Attacker points that win the deal for them (上台; 竞标: the bid target); None while
    the auction has not set it."""
    point_cards: tuple[int, ...]
    """The 5s, 10s and Ks in the tricks the attackers won (a revealed friend's tricks are
    the dealer side's, as its points moved over with it), sorted."""
    penalty_points: int
    """Attacker points not on those cards nor from the kitty: failed-throw penalties
    (signed). ``attacker_points == sum(points) + penalty_points (+ the kitty's gain)``."""
    hand_groups: tuple[int, ...] = ()
    """How many cards of ``hand`` each effective suit holds, in display order (trumps first):
    a client may show the groups in another order without knowing which card is which suit."""
    played: tuple[PlayedSuit, ...] = ()
    """Per effective suit (trumps first, then ♠ ♥ ♣ ♦): the cards played so far this deal."""

    def __init__(
        self,
        trumps: tuple[int, ...],
        hand: tuple[int, ...],
        options: tuple[Action, ...],
        bury_count: int,
        roles: tuple[Role | None, ...],
        teams: tuple[int, ...],
        goal: int | None,
        point_cards: tuple[int, ...],
        penalty_points: int,
        hand_groups: tuple[int, ...] = (),
        played: tuple[PlayedSuit, ...] = (),
    ) -> None:
        object.__setattr__(self, "trumps", trumps)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "bury_count", bury_count)
        object.__setattr__(self, "roles", roles)
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "goal", goal)
        object.__setattr__(self, "point_cards", point_cards)
        object.__setattr__(self, "penalty_points", penalty_points)
        object.__setattr__(self, "hand_groups", hand_groups)
        object.__setattr__(self, "played", played)


@dataclass(frozen=True, slots=True)
class SharedFacts:
    """What ``table_facts`` works out once for every seat of one state: the spectator's
    facts, their trump context and how many of each card kind has been played. A server
    renders one state for several seats from one ``SharedFacts`` (``shared_facts``)."""

    public: TableFacts
    ctx: TrumpContext
    played_counts: tuple[int, ...]
    played: tuple[PlayedSuit, ...]
    """The spectator's ``played_by_suit``, also where the table offers no card counter
    (``public.played`` is empty then): each seat's counts are worked out from it."""

    def __init__(
        self,
        public: TableFacts,
        ctx: TrumpContext,
        played_counts: tuple[int, ...],
        played: tuple[PlayedSuit, ...],
    ) -> None:
        object.__setattr__(self, "public", public)
        object.__setattr__(self, "ctx", ctx)
        object.__setattr__(self, "played_counts", played_counts)
        object.__setattr__(self, "played", played)


def shared_facts(state: DealState) -> SharedFacts:
    """The seat-independent part of ``table_facts(state, ...)``, computed once.

    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
    >>> shared_facts(s).public == table_facts(s, None)
    True
    """
    rs = state.ruleset
    ctx = _trump_context(state, None)
    counts = played_counts(state)
    won = _attackers_point_cards(state.tricks, state.defenders)
    gain = state.result.kitty_gain if state.result is not None else 0
    played = played_by_suit(state, None, ctx, counts)
    public = TableFacts(
        hand_groups=(),
        played=played if rs.player_aids else (),
        trumps=trump_kinds(ctx),
        hand=(),
        options=(),
        bury_count=rs.kitty_size - len(state.kitty_kept),
        roles=seat_roles(state),
        teams=fixed_teams(rs),
        goal=attacker_goal(state),
        point_cards=won,
        penalty_points=state.attacker_points - sum(points(c) for c in won) - gain,
    )
    return SharedFacts(public, ctx, counts, played)


def table_facts(
    state: DealState,
    seat: int | None,
    shared: SharedFacts | None = None,
    *,
    options: bool = True,
) -> TableFacts:
    """The display facts of ``state`` for ``seat`` (None: a spectator); ``shared``: this
    state's ``shared_facts``, when several seats are rendered (computed here otherwise);
    ``options=False`` leaves ``options`` empty (not worked out: a delta that sends none).

    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=None)
    >>> table_facts(s, None).roles
    (None, None, None, None)
    """
    if shared is None:
        shared = shared_facts(state)
    if seat is None:
        return shared.public
    ctx = _trump_context(state, seat)
    choices: tuple[Action, ...] = ()
    legal = legal_actions(state, seat) if options else None
    if legal is not None and legal.kind == "list":
        choices = tuple(a for a in legal.small if not isinstance(a, _CARD_ACTIONS))
    pub = shared.public
    same = ctx is shared.ctx
    hand, groups, played = _seat_cards(
        state,
        seat,
        ctx,
        shared.played if same else played_by_suit(state, None, ctx, shared.played_counts),
    )
    return TableFacts(
        hand_groups=groups,
        played=played if state.ruleset.player_aids else (),
        trumps=pub.trumps if same else trump_kinds(ctx),
        hand=hand,
        options=choices,
        bury_count=pub.bury_count,
        roles=pub.roles,
        teams=pub.teams,
        goal=pub.goal,
        point_cards=pub.point_cards,
        penalty_points=pub.penalty_points,
    )


def _seat_cards(
    state: DealState, seat: int, ctx: TrumpContext, public: tuple[PlayedSuit, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[PlayedSuit, ...]]:
    """``seat``'s hand in display order, its ``hand_groups`` and its ``played_by_suit``, in
    one pass over the suits: ``public`` is the spectator's ``played_by_suit`` in ``ctx``,
    whose unseen counts less the seat's own cards of each suit (and of a kitty it buried)
    are the seat's. Equal to the three worked out apart (tests/core/test_display_played.py).
    """
    counts = state.hands[seat]
    kitty = _known_kitty(state, seat, ctx)
    hand: list[int] = []
    groups: list[int] = []
    played: list[PlayedSuit] = []
    for (suit, kinds), pub in zip(suit_kinds(ctx), public, strict=True):
        before = len(hand)
        for k in kinds:
            n = counts[k]
            if n:
                hand.extend((k,) * n)
        n = len(hand) - before
        if n:
            groups.append(n)
        played.append(PlayedSuit(suit, pub.cards, pub.unseen - n - kitty.count(suit)))
    return tuple(hand), tuple(groups), tuple(played)


def seat_played(
    state: DealState, seat: int, shared: SharedFacts, suits: frozenset[int]
) -> tuple[PlayedSuit, ...]:
    """``table_facts(state, seat, shared).played``, the effective suits ``suits`` alone: only
    the seat's cards of those suits are counted (what changed for a seat that saw cards
    played; tests/core/test_display_played.py checks it against ``table_facts``).

    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
    >>> seat_played(s, 1, shared_facts(s), frozenset({4}))  # jokers and 2s, two decks
    (PlayedSuit(suit=4, cards=(), unseen=12),)
    """
    if not state.ruleset.player_aids:
        return ()
    ctx = _trump_context(state, seat)
    public = (
        shared.played
        if ctx is shared.ctx
        else played_by_suit(state, None, ctx, shared.played_counts)
    )
    counts = state.hands[seat]
    kitty = _known_kitty(state, seat, ctx)
    out: list[PlayedSuit] = []
    for (suit, kinds), pub in zip(suit_kinds(ctx), public, strict=True):
        if suit in suits:
            n = sum([counts[k] for k in kinds])
            out.append(PlayedSuit(suit, pub.cards, pub.unseen - n - kitty.count(suit)))
    return tuple(out)


def _known_kitty(state: DealState, seat: int, ctx: TrumpContext) -> tuple[int, ...]:
    """The effective suits of a kitty ``seat`` buried and still knows (none otherwise)."""
    knows_kitty = seat == state.kitty_holder and not state.kitty_kept
    if knows_kitty and state.phase in (Phase.CALLING, Phase.PLAYING, Phase.DONE):
        return tuple(ctx.esuit[c] for c in state.kitty)
    return ()


def fixed_teams(ruleset: Ruleset) -> tuple[int, ...]:
    """Each seat's team when partners are fixed (seat parity), else empty.

    >>> from shengji.core.ruleset import PRESETS
    >>> fixed_teams(PRESETS["classic"]), fixed_teams(PRESETS["five-player"])
    ((0, 1, 0, 1), ())
    """
    if ruleset.partnership != "fixed":
        return ()
    return tuple(team_of(p) for p in range(ruleset.players))


def view_context(state: DealState, seat: int | None) -> TrumpContext:
    """The order tables a seat's (None: a spectator's) display facts use: those in force,
    or before trump is fixed those of the standing declaration it sees.

    >>> from shengji.core.ruleset import PRESETS
    >>> view_context(DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0), None).level
    0
    """
    return _trump_context(state, seat)


def _trump_context(state: DealState, seat: int | None) -> TrumpContext:
    """The order tables in force, or those of the standing declaration ``seat`` sees."""
    if state.ctx is not None:
        return state.ctx
    if state.ruleset.declaration == "hidden":
        standing = state.own_declaration(seat) if seat is not None else None
    else:
        standing = state.declaration
    trump = standing.trump if standing is not None else NO_TRUMP
    return context_for(state.ruleset, state.level, trump)


@lru_cache(maxsize=512)
def trump_kinds(ctx: TrumpContext) -> tuple[int, ...]:
    """Every trump kind of a context, highest first. Two-colour play (红黑): hearts trump
    makes the diamonds trump as well.

    >>> from shengji.core.cards import cards_str
    >>> from shengji.core.ruleset import PRESETS
    >>> from shengji.core.order import context_for
    >>> t = cards_str(trump_kinds(context_for(PRESETS["two-color"], 8, 1)))  # 10s, hearts
    >>> t.split()[:6], "DA" in t, "SA" in t
    (['BJ', 'LJ', 'H10', 'D10', 'S10', 'C10'], True, False)
    """
    return tuple(k for k in display_order(ctx) if ctx.is_trump(k))


def seat_roles(state: DealState) -> tuple[Role | None, ...]:
    """Each seat's side as the table knows it.

    Fixed partners: known once the dealer is; 竞标: the dealer against the rest once the
    auction is won; 找朋友: the dealer alone until the friend is revealed (or the deal is
    over without one).
    """
    rs = state.ruleset
    dealer = state.dealer
    n = rs.players
    if dealer is None:
        return (None,) * n
    if rs.partnership == "fixed":
        side = tuple(p for p in range(n) if team_of(p) == team_of(dealer))
        known = True
    else:
        side = state.defenders or (dealer,)
        known = (
            rs.partnership == "bidding"
            or state.friend is not None
            or state.phase is Phase.DONE
        )
    out: list[Role | None] = []
    for p in range(n):
        if p == dealer:
            out.append("dealer")
        elif p in side:
            out.append("friend" if p == state.friend else "partner")
        else:
            out.append("attacker" if known else None)
    return tuple(out)


def attacker_goal(state: DealState) -> int | None:
    """Attacker points that win the deal for them: the auction's target (竞标), else the
    fewest points at which the level table lets the attackers take over (classic: 80).

    >>> from shengji.core.ruleset import PRESETS
    >>> [attacker_goal(DealState.new(PRESETS[p], seed=1)) for p in ("one-deck", "five-player")]
    [40, 120]
    """
    if state.target is not None:
        return state.target
    if state.auction is not None:
        return None
    return min(r.min_points for r in state.ruleset.levels.rows if r.takeover)


def hand_groups(ctx: TrumpContext, hand: tuple[int, ...]) -> tuple[int, ...]:
    """The sizes of the runs of one effective suit in a hand in display order (the
    definition: ``table_facts`` works them out in its one pass, tested against this).

    >>> from shengji.core.cards import parse_cards
    >>> from shengji.core.ruleset import PRESETS
    >>> ctx = context_for(PRESETS["classic"], 0, 1)                 # level 2, hearts trump
    >>> hand_groups(ctx, tuple(ctx.sorted(parse_cards("BJ S2 HA SA SK D3 C4"))))
    (3, 2, 1, 1)
    """
    sizes: list[int] = []
    last = -1
    for c in hand:
        suit = ctx.esuit[c]
        if suit != last:
            sizes.append(0)
            last = suit
        sizes[-1] += 1
    return tuple(sizes)


def _runs(kinds: tuple[int, ...], counts: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Each of ``kinds`` as many times as ``counts`` says, in order."""
    out: list[int] = []
    for k in kinds:
        n = counts[k]
        if n:
            out.extend((k,) * n)
    return tuple(out)


class _Finished:
    """What a deal's finished tricks hold, worked out once: they stay the very same tuple
    until the next trick ends, so an update does not count them again."""

    __slots__ = ("counts", "tricks", "won")

    def __init__(self, tricks: tuple[TrickRecord, ...]) -> None:
        self.tricks = tricks
        out = bytearray(54)
        for t in tricks:
            for _, cards in t.plays:
                for c in cards:
                    out[c] += 1
        self.counts = bytes(out)
        """How many of each card kind they hold, one byte a kind."""
        self.won: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        """(the defenders, the point cards of the tricks the attackers won, sorted), for the
        last side asked (a friend's reveal changes it); one tuple, swapped whole."""


_FINISHED: Final[dict[int, _Finished]] = {}
"""``id(tricks)`` → its ``_Finished`` (which holds ``tricks``, so the id is not reused while
kept). Bounded, the oldest going first: a few hundred bytes an entry."""
_FINISHED_MAX: Final = 2048


def _finished(tricks: tuple[TrickRecord, ...]) -> _Finished:
    """The ``_Finished`` of ``tricks``, kept or worked out now."""
    hit = _FINISHED.get(id(tricks))
    if hit is not None and hit.tricks is tricks:
        return hit
    if len(_FINISHED) >= _FINISHED_MAX:
        del _FINISHED[next(iter(_FINISHED))]  # the oldest
    made = _FINISHED[id(tricks)] = _Finished(tricks)
    return made


def _attackers_point_cards(
    tricks: tuple[TrickRecord, ...], defenders: tuple[int, ...]
) -> tuple[int, ...]:
    """The point cards of the tricks the attackers won, sorted (once per trick and side)."""
    f = _finished(tricks)
    kept = f.won
    if kept is not None and kept[0] == defenders:
        return kept[1]
    won = tuple(
        sorted(
            c
            for t in tricks
            if t.winner not in defenders
            for _, cards in t.plays
            for c in cards
            if points(c)
        )
    )
    f.won = (defenders, won)
    return won


def played_counts(state: DealState) -> tuple[int, ...]:
    """How many of each card kind has been played in this deal (tricks and the table).

    >>> from shengji.core.ruleset import PRESETS
    >>> sum(played_counts(DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)))
    0
    """
    counts = _finished(state.tricks).counts
    if not state.trick:
        return tuple(counts)
    out = bytearray(counts)
    for _, cards in state.trick:
        for c in cards:
            out[c] += 1
    return tuple(out)


@lru_cache(maxsize=512)
def suit_kinds(ctx: TrumpContext) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The effective suits of a context in display order (trumps first), each with its card
    kinds in display order.

    >>> from shengji.core.ruleset import PRESETS
    >>> [(SUIT_NAMES[s], len(k)) for s, k in suit_kinds(context_for(PRESETS["classic"], 0, 1))]
    [('T', 18), ('S', 12), ('C', 12), ('D', 12)]
    """
    kinds: dict[int, list[int]] = {}
    for k in display_order(ctx):
        kinds.setdefault(ctx.esuit[k], []).append(k)
    return tuple((suit, tuple(ks)) for suit, ks in kinds.items())


def played_by_suit(
    state: DealState,
    seat: int | None,
    ctx: TrumpContext,
    counts: tuple[int, ...] | None = None,
) -> tuple[PlayedSuit, ...]:
    """The cards played so far per effective suit, and how many of each suit ``seat`` has not
    seen (a spectator: not played). Under the standing declaration before trump is fixed.
    ``counts``: the state's ``played_counts``, when known. (``table_facts`` works a seat's
    out in one pass from the spectator's; this is the definition it is tested against.)

    >>> from shengji.core.ruleset import PRESETS
    >>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
    >>> [g.unseen for g in played_by_suit(s, None, context_for(s.ruleset, 0, 1))]
    [36, 24, 24, 24]
    """
    decks = state.ruleset.decks
    out = played_counts(state) if counts is None else counts
    hand: tuple[int, ...] | list[int] | None = None
    kitty: tuple[int, ...] = ()
    if seat is not None:
        hand = state.hands[seat]
        knows_kitty = seat == state.kitty_holder and not state.kitty_kept
        if knows_kitty and state.phase in (Phase.CALLING, Phase.PLAYING, Phase.DONE):
            kitty = tuple(ctx.esuit[c] for c in state.kitty)
    groups = []
    for suit, kinds in suit_kinds(ctx):
        cards = _runs(kinds, out)
        unseen = decks * len(kinds) - len(cards)
        if hand is not None:
            unseen -= sum(map(hand.__getitem__, kinds)) + kitty.count(suit)
        groups.append(PlayedSuit(suit, cards, unseen))
    return tuple(groups)
