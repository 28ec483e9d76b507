"""Wire views (protocol version 2): a room and a seat's view of the game as clients get
them, typed (msgspec Structs). Cards are in the project's notation, several cards as one
string: ``"SA SA SK"``. Their rendering from the core's views is in wire/render.py (plain
functions, which the opt-in mypyc build compiles: msgspec's classes it cannot), the events
and server messages in wire/events.py and wire/server.py.

>>> DeclarationInfo(seat=0, cards="S2", trump="S").trump
'S'
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec


class StakesInfo(msgspec.Struct, kw_only=True):
    """What a room plays for (``StakeRules.to_dict``; docs/protocol.md "Stakes")."""

    kind: Literal["plain", "rating", "coins", "beans"]
    coefficient: int = 1
    house: int = 0
    slam_points: int | None = None
    overturn_doubling: bool = False


class DeclarationInfo(msgspec.Struct, kw_only=True):
    """A declaration: who showed which cards for which trump."""

    seat: int
    cards: str
    trump: str


class TrickInfo(msgspec.Struct, kw_only=True):
    """A finished trick: its plays in order, who won it and its points."""

    leader: int
    plays: list[tuple[int, str]]
    winner: int
    points: int


class DealResultInfo(msgspec.Struct, kw_only=True):
    """A finished deal's score and what it does to the levels."""

    attacker_points: int
    kitty_points: int
    kitty_multiplier: int
    kitty_gain: int
    last_winner: int
    defender_levels: int
    attacker_levels: int
    attackers_take_over: bool
    stake: int


class FriendCallInfo(msgspec.Struct, kw_only=True):
    """找朋友: the dealer's call: whoever else plays the ``nth`` copy of ``card``."""

    card: str
    nth: int


class SeatInfo(msgspec.Struct, kw_only=True):
    """Who sits in one seat."""

    seat: int
    kind: str
    """``empty``, ``human`` or ``bot``."""
    name: str | None = None
    player: str | None = None
    bot: str | None = None
    ready: bool = False
    connected: bool = False
    substitute: bool = False
    """A bot is playing for the absent human."""
    away: bool = False
    """v2: a human holds the seat but no connection plays it (shown "away" on its plate)."""
    auto: bool = False
    """v2: the seat is on 托管: the auto-play bot moves for its player until they act or
    take back."""


class RoomInfo(msgspec.Struct, kw_only=True):
    """A room as the lobby and its members see it."""

    code: str
    preset: str
    ruleset: dict[str, Any]
    """The room's whole ruleset as records keep it (``Ruleset.to_dict``: every rules option
    of docs/rules.md by name; the engine owns its fields)."""
    status: str
    """``waiting`` (between matches) or ``playing``."""
    match_no: int
    max_deals: int | None
    private: bool
    seats: list[SeatInfo]
    spectators: int
    stakes: StakesInfo | None = None
    """v2: what the room plays for, as over HTTP (null from an old server: plain)."""
    teams: list[int] = msgspec.field(default_factory=list)
    """v2: fixed partners: each seat's team (empty for other partnerships)."""
    owner: str | None = None
    """v2: the id of the player who created the room and alone may add, remove and unseat
    (null: a room from before owners, open to everyone)."""
    options: dict[str, float] = msgspec.field(default_factory=dict)
    """v2: the room's pace: ``{"turn_s", "long_turn_s", "next_deal_s"}`` (0: off) and
    ``bot_pace`` (bots' delay factor with one human: 2 slow, 1 normal, 0.25 fast)."""


class GameView(msgspec.Struct, kw_only=True):
    """One seat's (or a spectator's, ``seat`` null) view of the current deal."""

    seat: int | None
    phase: str
    level: str
    deal_no: int
    dealer: int | None
    defenders: list[int]
    trump: str | None
    to_act: int | None
    hand: str
    hand_sizes: list[int]
    declaration: DeclarationInfo | None
    own_declaration: DeclarationInfo | None
    kitty: str | None
    kitty_holder: int | None
    leader: int
    trick: list[tuple[int, str]]
    """The trick being played: ``[[seat, "cards"], ...]``."""
    tricks_done: int
    last_trick: TrickInfo | None
    attacker_points: int
    stake: int
    cards_dealt: int
    result: DealResultInfo | None
    team_levels: list[str]
    match_over: bool
    winner: int | None
    point_cards: str = ""
    """Point cards (5, 10, K) in the tricks the attackers won so far."""
    seat_levels: list[str] = msgspec.field(default_factory=list)
    """v2: each seat's level (fixed partners hold their team's)."""
    auction: list[tuple[int, int | None]] = msgspec.field(default_factory=list)
    """v2, 竞标: the bids so far, ``[[seat, target], ...]`` (target null: a pass)."""
    bid_ceiling: int | None = None
    """v2, 竞标: the highest target the seat to speak may bid now (null: no auction now)."""
    target: int | None = None
    """v2, 竞标: the attackers' target once the auction is over."""
    shown: str = ""
    """v2, 竞标: the kitty cards turned up for everyone."""
    friend_call: FriendCallInfo | None = None
    """v2, 找朋友: the dealer's call once made."""
    friend: int | None = None
    """v2, 找朋友: the dealer's friend once revealed (until then nobody is told)."""
    dealer_to_be: int | None = None
    """v2, a first deal before trump is fixed: the seat that deals if the declarations end now
    (rules.md Decision 100); null otherwise."""
    # v2: the display facts (``core.display.table_facts``); a client computes none.
    trumps: str = ""
    """Every trump card kind, highest first (two-colour: the partner suit too); before trump
    is fixed, as if the standing declaration this seat sees were trump."""
    options: list[str] = msgspec.field(default_factory=list)
    """The ``act`` texts this seat may send now that are not cards from its hand:
    ``declare ...``, ``pass``, ``bid N``, ``trump S``, ``call N CARD``."""
    bury_count: int = 0
    """Cards the kitty's holder buries (the kitty less what a 反底 swap left in place)."""
    roles: list[str | None] = msgspec.field(default_factory=list)
    """Per seat: ``dealer``, ``partner``, ``friend``, ``attacker`` or null (not known yet)."""
    teams: list[int] = msgspec.field(default_factory=list)
    """Fixed partners: each seat's team; empty for other partnerships."""
    goal: int | None = None
    """Attacker points that win the deal for them (the bid target in 竞标; null until bid)."""
    penalty_points: int = 0
    """Attacker points not on ``point_cards`` nor from the kitty: failed-throw penalties."""

    rights: list[int] = msgspec.field(default_factory=list)
    """v2, 亮牌权: the seats contesting this deal by declaring, each at its own level (empty:
    everyone, at ``level``; five players after a takeover)."""
    declare_level: str | None = None
    """v2: the level this seat declares with (its own while a 亮牌权 deal is contested);
    null for a spectator."""
    friend_candidates: list[int] | None = None
    """v2, 找朋友: the seats that may still be the friend as this seat can tell, nearest the
    dealer first (``[friend]`` once revealed, ``[]``: the dealer is known to be alone, the
    viewer's own seat alone: it knows it is the friend); null before the call."""
    # how the hand falls into suits, and the played-cards panel (记牌器)
    hand_groups: list[int] = msgspec.field(default_factory=list)
    """The sizes of ``hand``'s runs of one effective suit, in order (trumps first): a client
    may reorder whole groups (trumps on the right) without knowing any card's suit."""
    played: list[PlayedGroup] = msgspec.field(default_factory=list)
    """Per effective suit, trumps first: the cards of it played so far this deal and how
    many of it this seat has not seen (``core.display.played_by_suit``)."""


class PlayedGroup(msgspec.Struct, kw_only=True):
    """One line of the played-cards panel (记牌器): ``{"suit": "T", "cards": "BJ SA
    SA", "unseen": 10}``."""

    suit: Literal["T", "S", "H", "D", "C"]
    """An effective suit: ``T`` trump, else the suit's letter (two-colour: ♣ count as ♠)."""
    cards: str
    """The cards of it played so far this deal (tricks and the trick on the table), in
    display order."""
    unseen: int
    """How many of it this seat has not seen: neither played nor in its hand, nor in a kitty
    it buried (a spectator: not played)."""


class PointsPartInfo(msgspec.Struct, kw_only=True):
    """One line of the summary's sum (``core.point_parts``): ``{"kind": "kitty", "points":
    40, "base": 20, "multiplier": 2}``. The lines add up to the attackers' points."""

    kind: Literal["tricks", "penalty", "kitty", "kitty_kept", "transfer_won", "transfer_lost"]
    points: int
    """Points to the attackers (negative: taken off them)."""
    base: int | None = None
    """The kitty's points, or the side's points the multiplier applies to."""
    multiplier: int | None = None


class KittyPenaltyInfo(msgspec.Struct, kw_only=True):
    """找朋友: the kitty penalty the deal called for: ``jack`` (the dealer side loses
    ``levels``) or ``ace`` (the dealer back to J, the friend down ``levels``)."""

    kind: Literal["jack", "ace"]
    levels: int


class DealSummary(msgspec.Struct, kw_only=True):
    """v2: the deal-end summary, as the ``summary`` of the ``deal_ended`` event
    (in the same ``update`` the next deal's view replaces this deal's). Everything in it is
    public once the deal is over."""

    deal_no: int
    dealer: int | None
    level: str
    trump: str | None
    roles: list[str | None]
    """Per seat, its side at the end (a friend found late is on the dealer's side)."""
    friend: int | None
    friend_call: FriendCallInfo | None
    target: int | None
    point_cards: str
    """The attackers' point cards of the whole deal (the kitty's are in ``kitty_revealed``)."""
    penalty_points: int
    teams: list[int]
    seat_levels_before: list[str]
    seat_levels_after: list[str]
    seat_steps: list[int]
    """Per seat: levels gained (+) or lost (−) by this deal, as applied (must-play ranks and
    the J reset included)."""
    team_levels_before: list[str]
    team_levels_after: list[str]
    parts: list[PointsPartInfo] = []
    """The attackers' points taken apart: tricks, failed throws, the last trick's kitty or
    transfer; they add up to ``attacker_points`` of the ``deal_ended`` event."""
    kitty_penalty: KittyPenaltyInfo | None = None


def _delta_struct() -> type[msgspec.Struct]:
    """``GameDelta``: every ``GameView`` field, each left out unless it changed."""
    fields: list[tuple[str, Any, Any]] = [
        (f.encode_name, f.type | msgspec.UnsetType, msgspec.UNSET)
        for f in msgspec.structs.fields(GameView)
    ]
    fields.append(("played_suits", list[PlayedGroup] | msgspec.UnsetType, msgspec.UNSET))
    return msgspec.defstruct(
        "GameDelta",
        fields,
        kw_only=True,
        module=__name__,
        forbid_unknown_fields=True,
    )


GAME_FIELDS: tuple[str, ...] = tuple(f.name for f in msgspec.structs.fields(GameView))
"""The names of ``GameView``'s fields, in order."""

GameDelta = _delta_struct()
"""v3: the fields of a seat's ``GameView`` that an action changed, the others left out: a
client sets each field present (``null`` included) and keeps the rest. The same names and
types as ``GameView``, and ``played_suits``: groups of ``played`` that replace the group of
the same ``suit`` (the panel keeps its suits; only those whose cards moved are sent):
``{"to_act": 2, "trick": [[1, "SA"]], "hand_sizes": [25, 24, 25, 25], "played_suits":
[{"suit": "S", "cards": "SA", "unseen": 23}]}``."""
