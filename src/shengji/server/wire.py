"""Wire messages (protocol version 2): msgspec Structs, JSON text frames, kept apart from
core types. Every message is an object with ``t`` (its type) and ``v`` (the version);
every server message also carries ``seq``, the room's sequence number (docs/protocol.md).

Version 2 only adds: fields with defaults in server messages (per-seat levels, the friend
card, bids) and new action verbs inside ``act``; a client speaking version 1 is still served.

Cards travel in the project's notation, several cards as one string: ``"SA SA SK"``.

>>> decode_client(b'{"t":"act","v":1,"action":"play SA SA"}')
Act(action='play SA SA', v=1)
>>> encode(Pong(seq=3))
b'{"t":"pong","v":2,"seq":3}'
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import msgspec

from shengji.core.actions import Action
from shengji.core.bidding import Declaration
from shengji.core.cards import LEVELS, card_str, cards_str, points, trump_str
from shengji.core.display import SUIT_NAMES, TableFacts
from shengji.core.events import Event
from shengji.core.state import DealResult
from shengji.core.views import DealView

VERSION = 2
OLDEST = 1
"""Client messages of versions ``OLDEST..VERSION`` are accepted (version 2 added nothing a
version 1 client must send)."""

# --------------------------------------------------------------------------- client → server


class ClientMsg(msgspec.Struct, tag_field="t", forbid_unknown_fields=True, kw_only=True):
    """Base of the messages a client sends."""

    v: int = VERSION


class Hello(ClientMsg, tag="hello"):
    """First message on a socket: who I am and the last ``seq`` I saw (to resume)."""

    token: str
    last_seq: int | None = None
    presence: Literal["full", "delta"] = "full"
    """v2: ``delta``: after one full ``presence``, send only ``presence_delta`` changes."""


class Sit(ClientMsg, tag="sit"):
    """Take an empty seat (or a seat a bot holds for nobody)."""

    seat: int


class Stand(ClientMsg, tag="stand"):
    """Leave my seat and watch (between matches only)."""


class AddBot(ClientMsg, tag="add_bot"):
    """Seat a bot (registry name) in an empty seat."""

    seat: int
    bot: str = "random"


class RemoveBot(ClientMsg, tag="remove_bot"):
    """Take a bot out of its seat (between matches only)."""

    seat: int


class Unseat(ClientMsg, tag="unseat"):
    """v2, the room's owner: move the human in ``seat`` out of it (between matches)."""

    seat: int


class Ready(ClientMsg, tag="ready"):
    """Ready (or not) for the next match; it starts when every seat is taken and ready."""

    ready: bool = True


class Act(ClientMsg, tag="act"):
    """A game action for my own seat, without the seat: ``"play SA SA"``, ``"declare H2"``,
    ``"pass"``, ``"bury S3 S4 ..."``."""

    action: str


class Hint(ClientMsg, tag="hint"):
    """Ask for one legal action for my seat (提示); ``bot`` (a registry name) picks it,
    otherwise any legal action."""

    bot: str | None = None


class Check(ClientMsg, tag="check"):
    """Dry run: would these actions for my seat be accepted now? Nothing changes; the
    answer is ``checked``. At most 16 actions."""

    actions: list[str]


class Sync(ClientMsg, tag="sync"):
    """Ask for a fresh snapshot."""


class Chat(ClientMsg, tag="chat"):
    """A chat line to the room."""

    text: str


class Nudge(ClientMsg, tag="nudge"):
    """Remind the seat whose turn it is."""


class Ping(ClientMsg, tag="ping"):
    """Keep-alive; answered with ``pong``."""


class Leave(ClientMsg, tag="leave"):
    """Leave the room (a seat in a running match is played by a bot until retaken)."""


class ResetDeal(ClientMsg, tag="reset_deal"):
    """v2, issue 14, the room's owner: propose to deal the current deal again; the seated
    players vote (``vote``) and it is dealt again when all agree (server/votes.py)."""


class Vote(ClientMsg, tag="vote"):
    """v2, issue 14: my seat's answer to the open proposal (``reset_deal``)."""

    yes: bool


class EndMatch(ClientMsg, tag="end_match"):
    """v2, issue 14, the room's owner: end the match now; its record is kept as it stands
    (the deals finished so far, the current one unfinished)."""


ClientMessage = (
    Hello
    | Sit
    | Stand
    | AddBot
    | RemoveBot
    | Unseat
    | Ready
    | Act
    | Hint
    | Check
    | Sync
    | Chat
    | Nudge
    | Ping
    | Leave
    | ResetDeal
    | Vote
    | EndMatch
)

_client_decoder = msgspec.json.Decoder(ClientMessage)


def decode_client(data: bytes | str) -> ClientMessage:
    """Parse one client message; ``msgspec.ValidationError``/``DecodeError`` if malformed."""
    msg: ClientMessage = _client_decoder.decode(data)
    if not OLDEST <= msg.v <= VERSION:
        raise msgspec.ValidationError(
            f"unsupported protocol version {msg.v}; this server speaks {OLDEST}..{VERSION}"
        )
    return msg


# --------------------------------------------------------------------------- server → client


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


class RoomInfo(msgspec.Struct, kw_only=True):
    """A room as the lobby and its members see it."""

    code: str
    preset: str
    ruleset: dict[str, Any]
    status: str
    """``waiting`` (between matches) or ``playing``."""
    match_no: int
    max_deals: int | None
    private: bool
    seats: list[SeatInfo]
    spectators: int
    stakes: dict[str, Any] | None = None
    """v2: what the room plays for, as over HTTP: ``{"kind": "plain" | "rating" | "coins" |
    "beans", "coefficient": N, "house": A, "slam_points": S}``."""
    teams: list[int] = msgspec.field(default_factory=list)
    """v2, issue 13: fixed partners: each seat's team (empty for other partnerships)."""
    owner: str | None = None
    """v2: the id of the player who created the room and alone may add, remove and unseat
    (null: a room from before owners, open to everyone)."""


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
    declaration: dict[str, Any] | None
    own_declaration: dict[str, Any] | None
    kitty: str | None
    kitty_holder: int | None
    leader: int
    trick: list[list[Any]]
    tricks_done: int
    last_trick: dict[str, Any] | None
    attacker_points: int
    stake: int
    cards_dealt: int
    result: dict[str, Any] | None
    team_levels: list[str]
    match_over: bool
    winner: int | None
    point_cards: str = ""
    """Point cards (5, 10, K) in the tricks the attackers won so far."""
    seat_levels: list[str] = msgspec.field(default_factory=list)
    """v2: each seat's level (fixed partners hold their team's)."""
    auction: list[list[Any]] = msgspec.field(default_factory=list)
    """v2, 竞标: the bids so far, ``[[seat, target], ...]`` (target null: a pass)."""
    bid_ceiling: int | None = None
    """v2, 竞标: the highest target the seat to speak may bid now (null: no auction now)."""
    target: int | None = None
    """v2, 竞标: the attackers' target once the auction is over."""
    shown: str = ""
    """v2, 竞标: the kitty cards turned up for everyone."""
    friend_call: dict[str, Any] | None = None
    """v2, 找朋友: the dealer's call ``{"card": "SA", "nth": 1}`` once made."""
    friend: int | None = None
    """v2, 找朋友: the dealer's friend once revealed (until then nobody is told)."""
    dealer_to_be: int | None = None
    """v2, a first deal before trump is fixed: the seat that deals if the declarations end now
    (rules.md Decision 100); null otherwise."""
    # v2, issue 13: the display facts (``core.display.table_facts``); a client computes none.
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
    # issue 14: how the hand falls into suits, and the played-cards panel (记牌器)
    hand_groups: list[int] = msgspec.field(default_factory=list)
    """The sizes of ``hand``'s runs of one effective suit, in order (trumps first): a client
    may reorder whole groups (trumps on the right) without knowing any card's suit."""
    played: list[dict[str, Any]] = msgspec.field(default_factory=list)
    """Per effective suit, trumps first: ``{"suit": "T"|"S"|"H"|"D"|"C", "cards": "BJ SA SA",
    "unseen": 10}``: the cards of it played so far this deal, in display order, and how many
    of it this seat has not seen (neither played nor in its hand, nor in a kitty it buried)."""

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


class DealSummary(msgspec.Struct, kw_only=True):
    """v2, issue 13: the deal-end summary, as the ``summary`` of the ``deal_ended`` event
    (in the same ``update`` the next deal's view replaces this deal's). Everything in it is
    public once the deal is over."""

    deal_no: int
    dealer: int | None
    level: str
    trump: str | None
    roles: list[str | None]
    """Per seat, its side at the end (a friend found late is on the dealer's side)."""
    friend: int | None
    friend_call: dict[str, Any] | None
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


class ServerMsg(msgspec.Struct, tag_field="t", kw_only=True):
    """Base of the messages the server sends."""

    v: int = VERSION
    seq: int


class Welcome(ServerMsg, tag="welcome"):
    """Answer to ``hello``; ``resume`` true: the missed messages follow, else a snapshot."""

    room: str
    player: str
    name: str
    seat: int | None
    resume: bool


class Snapshot(ServerMsg, tag="snapshot"):
    """The whole room and game as this client may see it."""

    room: RoomInfo
    game: GameView | None
    chat: list[dict[str, Any]]


class Update(ServerMsg, tag="update"):
    """An accepted game action: the events this client may see, and who moves next."""

    events: list[dict[str, Any]]
    phase: str
    to_act: int | None
    deal_no: int
    match_no: int
    team_levels: list[str]
    seat_levels: list[str] = msgspec.field(default_factory=list)
    """v2: each seat's level after this action."""
    game: GameView | None = None
    """v2, issue 13: this client's whole view after the action (null on an old message
    resent to a resuming client: then ask for a ``sync``)."""


class RoomUpdate(ServerMsg, tag="room"):
    """Seats, bots, readiness or status changed."""

    room: RoomInfo


class ChatLine(ServerMsg, tag="chat"):
    """A chat line (``seat`` null: a spectator)."""

    player: str
    name: str
    seat: int | None
    text: str


class NudgeMsg(ServerMsg, tag="nudge"):
    """``by`` reminds seat ``to`` that it is their turn."""

    by: str
    to: int


class Presence(ServerMsg, tag="presence"):
    """Who is connected now (not logged: ``seq`` is the current one)."""

    players: list[dict[str, Any]]


class PresenceDelta(ServerMsg, tag="presence_delta"):
    """v2, to a client that said ``hello`` with ``presence: "delta"``: who came or changed
    seat (``joined``, entries as in ``presence``) and who left (``left``, player ids) since
    the last presence message."""

    joined: list[dict[str, Any]]
    left: list[str]


class HintMsg(ServerMsg, tag="hint"):
    """A legal action for your seat (null if you have none)."""

    action: str | None


class Checked(ServerMsg, tag="checked"):
    """Answer to ``check``: per action ``{"action", "ok", "code", "message"}`` (``code``
    and ``message`` say why not, as an ``error`` would)."""

    results: list[dict[str, Any]]


class MatchOver(ServerMsg, tag="match_over"):
    """A match ended; its record is ``GET /api/games/{game}``."""

    game: int
    result: dict[str, Any]
    early: bool = False
    """v2, issue 14: the owner ended it before a side won (``end_match``)."""


class VoteMsg(ServerMsg, tag="vote"):
    """v2, issue 14: a proposal and its answers so far (not logged: ``seq`` is the current
    one); sent when it opens, at each answer and when it closes, and to a client that joins
    while it is open. ``status``: ``open``, ``passed`` (the deal is dealt again), ``refused``
    or ``void`` (that deal is over)."""

    what: str
    match_no: int
    deal_no: int
    by: str
    voters: list[int]
    votes: list[bool | None]
    status: str


class Settled(ServerMsg, tag="settled"):
    """v2, rating and coin rooms: what a finished deal did to each seat, as the server
    settled it (sent after the ``update`` holding ``deal_ended``)."""

    match_no: int
    deal_no: int
    kind: str
    """``rating``, ``coins`` or ``beans`` (the room's stakes kind)."""
    settled: bool
    """False: a side had no human, so nothing changed (every delta null)."""
    deltas: list[int | None]
    """Per seat, the signed change of rating, coins or 欢乐豆; null for an unrated seat (a
    bot or an empty seat)."""
    reason: str = ""
    """The ledger's English words: ``"dealer side +2, X 3, N 1000"``."""
    base: int = 0
    """Rating points per player (after the bracket) or X (coins, 欢乐豆)."""
    multiplier: int = 1
    """The rating bracket's ×1/×2/×3."""
    players: list[str | None] = msgspec.field(default_factory=list)
    """Per seat, the player settled for the deal: who sat there when its first card was dealt
    (a player who left since still pays; one who took the seat since is not charged); null
    for a bot or an empty seat."""


class Paused(ServerMsg, tag="paused"):
    """v2: the table waits because the server cannot write its log now (``reason``
    ``"storage"``); it retries by itself and sends ``resumed``. Nothing is lost: whatever
    was sent before stays, and actions sent meanwhile are handled in order after it."""

    reason: str


class Resumed(ServerMsg, tag="resumed"):
    """v2: writes succeed again and the table goes on (after a ``paused``)."""


class Error(ServerMsg, tag="error"):
    """A refused message: nothing changed."""

    code: str
    message: str


class Pong(ServerMsg, tag="pong"):
    """Answer to ``ping``."""


_encoder = msgspec.json.Encoder()


def encode(msg: ServerMsg) -> bytes:
    """A server message as JSON bytes."""
    return _encoder.encode(msg)


# --------------------------------------------------------------------------- core → wire

_CARD_LISTS = frozenset({"cards", "attempted", "forced", "last_winning_cards"})
_CARDS = frozenset({"card", "turned"})


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _value(name: str, v: Any) -> Any:
    if name in _CARD_LISTS:
        return cards_str(v)
    if name in _CARDS:
        return None if v is None else card_str(v)
    if name == "trump":
        return None if v is None else trump_str(v)
    if name == "level":
        return LEVELS[v]
    return v


def render_event(event: Event) -> dict[str, Any]:
    """A core event as a wire object: ``{"type": "played", "seat": 2, "cards": "SA SA"}``."""
    out: dict[str, Any] = {"type": _snake(type(event).__name__)}
    for f in dataclasses.fields(event):
        if f.name != "audience":
            out[f.name] = _value(f.name, getattr(event, f.name))
    return out


def render_declaration(d: Declaration | None) -> dict[str, Any] | None:
    """A declaration as a wire object."""
    if d is None:
        return None
    return {"seat": d.seat, "cards": cards_str(d.cards), "trump": trump_str(d.trump)}


def render_result(r: DealResult | None) -> dict[str, Any] | None:
    """A finished deal's result as a wire object."""
    if r is None:
        return None
    return {
        "attacker_points": r.attacker_points,
        "kitty_points": r.kitty_points,
        "kitty_multiplier": r.kitty_multiplier,
        "kitty_gain": r.kitty_gain,
        "last_winner": r.last_winner,
        "defender_levels": r.change.defender_levels,
        "attacker_levels": r.change.attacker_levels,
        "attackers_take_over": r.change.attackers_take_over,
        "stake": r.stake,
    }


def action_text(action: Action) -> str:
    """An action as a client writes it, without the seat: ``"play SA SA"``."""
    parts = str(action).split(None, 2)
    return " ".join([parts[0], *parts[2:]])


def render_view(
    view: DealView,
    team_levels: list[str],
    match_over: bool,
    winner: int | None,
    seat_levels: list[str] | None = None,
    facts: TableFacts | None = None,
) -> GameView:
    """A core view as a wire ``GameView`` (never more than the view holds); ``facts`` (the
    same seat's ``table_facts``) fill the display fields and order the hand."""
    last = view.tricks[-1] if view.tricks else None
    if facts is not None:
        won: list[int] = list(facts.point_cards)
    else:
        won = sorted(
            c
            for t in view.tricks
            if t.winner not in view.defenders
            for _, cs in t.plays
            for c in cs
            if points(c)
        )
    out = GameView(
        seat=view.seat,
        phase=view.phase.value,
        level=LEVELS[view.level],
        deal_no=view.deal_no,
        dealer=view.dealer,
        defenders=list(view.defenders),
        trump=None if view.trump is None else trump_str(view.trump),
        to_act=view.to_act,
        hand=cards_str(view.hand if facts is None else facts.hand),
        hand_sizes=list(view.hand_sizes),
        declaration=render_declaration(view.declaration),
        own_declaration=render_declaration(view.own_declaration),
        kitty=None if view.kitty is None else cards_str(view.kitty),
        kitty_holder=view.kitty_holder,
        leader=view.leader,
        trick=[[seat, cards_str(cards)] for seat, cards in view.trick],
        tricks_done=len(view.tricks),
        last_trick=None
        if last is None
        else {
            "leader": last.leader,
            "plays": [[seat, cards_str(cards)] for seat, cards in last.plays],
            "winner": last.winner,
            "points": last.points,
        },
        attacker_points=view.attacker_points,
        stake=view.stake,
        cards_dealt=view.cards_dealt,
        result=render_result(view.result),
        team_levels=team_levels,
        match_over=match_over,
        winner=winner,
        point_cards=cards_str(won),
        seat_levels=list(seat_levels or []),
        auction=[[seat, target] for seat, target in view.auction.bids] if view.auction else [],
        bid_ceiling=_bid_ceiling(view),
        target=view.target,
        shown=cards_str(view.shown),
        friend_call=None
        if view.friend_call is None
        else {"card": card_str(view.friend_call.card), "nth": view.friend_call.nth},
        friend=view.friend,
        dealer_to_be=view.dealer_to_be,
        friend_candidates=None if view.friend_call is None else list(view.friend_candidates),
        rights=list(view.rights),
        declare_level=None if view.seat is None else LEVELS[view.declare_level],
    )
    if facts is not None:
        out.trumps = cards_str(facts.trumps)
        out.options = [action_text(a) for a in facts.options]
        out.bury_count = facts.bury_count
        out.roles = list(facts.roles)
        out.teams = list(facts.teams)
        out.goal = facts.goal
        out.penalty_points = facts.penalty_points
        out.hand_groups = list(facts.hand_groups)
        out.played = [
            {"suit": SUIT_NAMES[g.suit], "cards": cards_str(g.cards), "unseen": g.unseen}
            for g in facts.played
        ]
    return out


def _bid_ceiling(view: DealView) -> int | None:
    """The highest bid the auction allows now (None when no auction is running)."""
    a = view.auction
    if a is None or view.phase.value != "bidding" or a.is_over:
        return None
    return a.ceiling(view.ruleset)
