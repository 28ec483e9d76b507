"""Server → client messages (protocol version 3): one typed struct per message, tagged by
``t``; every one carries ``v`` and ``seq`` (docs/protocol.md "Server → client").

>>> encode(Pong(seq=3))
b'{"t":"pong","v":3,"seq":3}'
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shengji.server.wire.events import WireEvent
from shengji.server.wire.views import GameDelta, GameView, RoomInfo

VERSION = 3
OLDEST = 1
"""Client messages of versions ``OLDEST..VERSION`` are accepted (version 2 added nothing a
version 1 client must send; a client that says ``hello`` with version 3 gets ``delta``
messages instead of ``update`` and may send typed actions)."""


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


class ChatEntry(msgspec.Struct, kw_only=True):
    """A kept chat line, in a snapshot."""

    seq: int
    name: str
    seat: int | None
    text: str


class ClockInfo(msgspec.Struct, kw_only=True):
    """v2: the turn clock: ``seat`` must act within ``ms_left`` of ``total_ms``, or its seat
    goes on 托管."""

    seat: int
    ms_left: int
    total_ms: int


class HoldInfo(msgspec.Struct, kw_only=True):
    """v2: between deals: the summary of ``deal_no`` stays until the seats in ``waiting``
    pressed "next deal" (``next_deal``) or ``ms_left`` passes."""

    deal_no: int
    waiting: list[int]
    ms_left: int


class Snapshot(ServerMsg, tag="snapshot"):
    """The whole room and game as this client may see it."""

    room: RoomInfo
    game: GameView | None
    chat: list[ChatEntry]
    clock: ClockInfo | None = None
    """v2: the turn clock, if one runs."""
    hold: HoldInfo | None = None
    """v2: the summary hold between deals, if one is on."""


class Update(ServerMsg, tag="update"):
    """An accepted game action: the events this client may see, and who moves next."""

    events: list[WireEvent]
    phase: str
    to_act: int | None
    deal_no: int
    match_no: int
    team_levels: list[str]
    seat_levels: list[str] = msgspec.field(default_factory=list)
    """v2: each seat's level after this action."""
    game: GameView | None = None
    """v2: this client's whole view after the action (null on a message resent
    to a resuming client: then ask for a ``sync``)."""


class Delta(ServerMsg, tag="delta"):
    """v3, instead of ``update`` for a client that said ``hello`` with ``v`` 3: an accepted
    game action's events this client may see and only the fields of its view that the
    action changed (``game``: set each field present, keep the others; a new deal or
    match sends every field). A whole view comes again in a ``snapshot`` (on ``sync``, on
    reconnecting)."""

    events: list[WireEvent]
    game: GameDelta  # type: ignore[valid-type]


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


class PresenceEntry(msgspec.Struct, kw_only=True):
    """One connected player and the seat it plays (null: watching)."""

    player: str
    name: str
    seat: int | None


class Presence(ServerMsg, tag="presence"):
    """Who is connected now (not logged: ``seq`` is the current one)."""

    players: list[PresenceEntry]
    away: list[int] = msgspec.field(default_factory=list)
    """v2: seats a human holds with no connection now (their plates say "away")."""


class PresenceDelta(ServerMsg, tag="presence_delta"):
    """v2, to a client that said ``hello`` with ``presence: "delta"``: who came or changed
    seat (``joined``, entries as in ``presence``) and who left (``left``, player ids) since
    the last presence message."""

    joined: list[PresenceEntry]
    left: list[str]
    away: list[int] = msgspec.field(default_factory=list)
    """The seats away now (the whole list, as in ``presence``)."""


class HintMsg(ServerMsg, tag="hint"):
    """A legal action for your seat (null if you have none)."""

    action: str | None


class CheckResult(msgspec.Struct, kw_only=True):
    """One action of a ``check``: ``code`` and ``message`` say why not, as an ``error``
    would (null when ``ok``)."""

    action: str
    ok: bool
    code: str | None = None
    message: str | None = None
    note: str | None = None
    """``"throw"``: a throw the seat cannot know the fate of (checked when played)."""


class Checked(ServerMsg, tag="checked"):
    """Answer to ``check``: one result per action."""

    results: list[CheckResult]


class ClockMsg(ServerMsg, tag="clock"):
    """v2: the turn clock started, or stopped (``clock`` null)."""

    clock: ClockInfo | None


class HoldMsg(ServerMsg, tag="next_deal"):
    """v2: the summary hold between deals began, changed (someone pressed "next deal") or
    ended (``hold`` null: the next deal is being dealt)."""

    hold: HoldInfo | None


class Paused(ServerMsg, tag="paused"):
    """v2: the table waits because the server cannot write its log now (``reason``
    ``"storage"``); it retries by itself and sends ``resumed``. Nothing is lost: whatever
    was sent before stays, and actions sent meanwhile are handled in order after it."""

    reason: str


class Resumed(ServerMsg, tag="resumed"):
    """v2: writes succeed again and the table goes on (after a ``paused``)."""


class MatchResult(msgspec.Struct, kw_only=True):
    """A match's outcome as its record holds it (``core.record.record_result``)."""

    deals: int
    team_levels: list[str]
    levels: list[str]
    winner: int | None
    """The winning team (fixed partners) or seat; null while the match goes on."""
    winners: list[int]
    attacker_points: list[int]
    """Per deal, the attackers' points."""


class MatchOver(ServerMsg, tag="match_over"):
    """A match ended; its record is ``GET /api/games/{game}``."""

    game: int
    result: MatchResult
    winners: list[int] = msgspec.field(default_factory=list)
    """v2: the seats that won the match (fixed partners: both of the team); a match cut short
    by ``max_deals``: the seats on the highest level (empty: all level, a draw)."""
    names: list[str] = msgspec.field(default_factory=list)
    """v2: their names, in the same order."""
    early: bool = False
    """v2: the owner ended it before a side won (``end_match``)."""


class VoteMsg(ServerMsg, tag="vote"):
    """v2: a proposal and its answers so far (not logged: ``seq`` is the current
    one); sent when it opens, at each answer and when it closes, and to a client that joins
    while it is open. ``status``: ``open``, ``passed`` (the deal is dealt again), ``refused``
    or ``void`` (that deal is over)."""

    what: Literal["reset_deal"]
    match_no: int
    deal_no: int
    by: str
    """The proposer's name (the room's owner)."""
    voters: list[int]
    votes: list[bool | None]
    """Per voter seat: agreed, refused, or not answered yet."""
    status: Literal["open", "passed", "refused", "void"]


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


class Error(ServerMsg, tag="error"):
    """A refused message: nothing changed."""

    code: str
    message: str


class Pong(ServerMsg, tag="pong"):
    """Answer to ``ping``."""


ServerMessage = (
    Welcome
    | Snapshot
    | Update
    | Delta
    | RoomUpdate
    | ChatLine
    | NudgeMsg
    | Presence
    | PresenceDelta
    | HintMsg
    | Checked
    | ClockMsg
    | HoldMsg
    | Paused
    | Resumed
    | MatchOver
    | VoteMsg
    | Settled
    | Error
    | Pong
)
"""Every message the server sends (the protocol's JSON Schema lists these)."""

_encoder = msgspec.json.Encoder()


def encode(msg: ServerMsg) -> bytes:
    """A server message as JSON bytes."""
    return _encoder.encode(msg)
