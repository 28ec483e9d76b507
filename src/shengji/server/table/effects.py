"""What a table asks its room's shell to do: typed effects, in the order they must happen.

Writes come first in spirit: a ``Write`` is durable before any ``Send`` the table released
after it (the table holds those sends in its outbox until the shell reports ``Written``).
Every other effect is done as it comes.

>>> Write(1, LogRecords((Record(1, 1, 0, "room", ""),)), retry=False).request.records[0].kind
'room'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from shengji.core.match import MatchState
from shengji.core.stakes import StakeRules
from shengji.core.state import DealResult
from shengji.server.table.render import Audience, UpdateEntry
from shengji.server.wire import messages as wire

# --------------------------------------------------------------------------- writes


@dataclass(frozen=True, slots=True)
class Record:
    """One row of the room's log; ``state``, when given, is written with it (the room's
    row), in the same transaction. ``pos`` numbers the room's rows 1, 2, 3 ... (the log's
    unique key): ``seq`` does not, since a message for one seat only (a hidden
    declaration) is logged under the ``seq`` of the public message before it."""

    pos: int
    seq: int
    match_no: int
    kind: str
    data: str
    state: Mapping[str, Any] | None = None

    def __init__(
        self,
        pos: int,
        seq: int,
        match_no: int,
        kind: str,
        data: str,
        state: Mapping[str, Any] | None = None,
    ) -> None:
        object.__setattr__(self, "pos", pos)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "match_no", match_no)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "state", state)


@dataclass(frozen=True, slots=True)
class LogRecords:
    """Append these rows (one transaction)."""

    records: tuple[Record, ...]

    def __init__(self, records: tuple[Record, ...]) -> None:
        object.__setattr__(self, "records", records)


@dataclass(frozen=True, slots=True)
class SaveGame:
    """Store a finished match's record; the answer is ``GameSaved`` with its id (saving
    the same match twice keeps one)."""

    match_no: int
    record: str
    players: tuple[tuple[int, str], ...]
    """``(seat, player id)`` of the humans."""


@dataclass(frozen=True, slots=True)
class DealToSettle:
    """One finished deal and the players settled for it (None: unrated)."""

    deal_no: int
    result: DealResult
    players: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class SettleDeals:
    """Settle these deals' stakes (each once: settling again changes nothing); the answer
    is ``DealsSettled``."""

    match_no: int
    rules: StakeRules
    deals: tuple[DealToSettle, ...]
    announce: int
    """The deal that just ended: the room tells its players what it did (``settled``)."""


WriteRequest: TypeAlias = LogRecords | SaveGame | SettleDeals
WRITE_CLASSES: Final = (LogRecords, SaveGame, SettleDeals)
"""``WriteRequest``'s classes, for ``isinstance`` on every command (``X | Y`` in a call
builds a union each time)."""


@dataclass(frozen=True, slots=True)
class Write:
    """Do ``request``; answer ``Written``/``GameSaved``/``DealsSettled`` or ``WriteFailed``
    with ``ticket``. ``retry``: an earlier attempt failed, maybe after it was committed: a
    row already there must not be written twice."""

    ticket: int
    request: WriteRequest
    retry: bool = False

    def __init__(self, ticket: int, request: WriteRequest, retry: bool = False) -> None:
        object.__setattr__(self, "ticket", ticket)
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "retry", retry)


# --------------------------------------------------------------------------- sending

Recipient: TypeAlias = tuple[int, Audience]
"""A connection id and the seat it sees the table from (None: watching)."""

Message: TypeAlias = wire.ServerMsg | UpdateEntry
"""A message for everyone alike, or an update rendered per seat."""


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``msg`` to each recipient. ``seq``: a sequenced message's number; ``backlog``:
    keep it for clients that resume (public sequenced messages)."""

    to: tuple[Recipient, ...]
    msg: Message
    seq: int | None = None
    backlog: bool = False

    def __init__(
        self,
        to: tuple[Recipient, ...],
        msg: Message,
        seq: int | None = None,
        backlog: bool = False,
    ) -> None:
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "msg", msg)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "backlog", backlog)


@dataclass(frozen=True, slots=True)
class Replay:
    """Welcome ``conn`` (seeing from ``seat``) back and send it every kept public message
    after ``after``; when the shell no longer keeps them all (its buffer is bounded in
    bytes), the welcome says ``resume: false`` and ``fallback`` goes instead (a snapshot
    made with the replay, so it holds nothing not yet durable when it leaves)."""

    conn: int
    seat: int | None
    after: int
    welcome: wire.Welcome
    fallback: wire.Snapshot


@dataclass(frozen=True, slots=True)
class Disconnect:
    """Close a connection (after what was sent to it), with a WebSocket close code."""

    conn: int
    code: int = 1000


Delivery: TypeAlias = Send | Replay | Disconnect
DELIVERY_CLASSES: Final = (Send, Replay, Disconnect)
"""``Delivery``'s classes, for ``isinstance``."""

# --------------------------------------------------------------------------- the rest


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Post a ``Tick`` at loop time ``at`` (replaces any earlier wake-up)."""

    at: float


@dataclass(frozen=True, slots=True)
class AskBot:
    """Let bot ``bot`` (seeded ``seed``) choose for ``seat`` in ``match``; answer
    ``BotMoved`` with ``version`` (purpose ``move``: the seat's turn) or ``BotDeclared``
    with the match number (``declare``: while cards are dealt)."""

    seat: int
    version: int
    match_no: int
    bot: str
    seed: str
    match: MatchState
    purpose: Literal["move", "declare"] = "move"
    delay_factor: float = 1.0
    """The share of the server's bot delay a move waits (the room's bot pace)."""


@dataclass(frozen=True, slots=True)
class AskHint:
    """Let bot ``bot`` suggest an action for ``seat``; answer ``HintReady`` for ``conn``."""

    conn: int
    seat: int
    bot: str
    seed: str
    match: MatchState


@dataclass(frozen=True, slots=True)
class DrawSeed:
    """Draw a fresh secret seed for the next match; answer ``SeedDrawn``."""


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Who is connected changed: tell the room soon (coalesced, server/live/presence.py)."""


@dataclass(frozen=True, slots=True)
class TrimChat:
    """Delete the room's chat lines before ``before_seq`` from the database."""

    before_seq: int


@dataclass(frozen=True, slots=True)
class CloseRoom:
    """The room is closed (its owner closed it): the lobby forgets it, its row is marked."""

    reason: str


@dataclass(frozen=True, slots=True)
class Note:
    """One line for the operator's log (``level``: ``info``, ``warning`` or ``error``)."""

    level: Literal["debug", "info", "warning", "error"]
    text: str
    topic: Literal["rooms", "storage"] = "rooms"
    """The logger: ``shengji.server.live.rooms`` or ``shengji.server.store.storage``."""


Effect: TypeAlias = (
    Write
    | Send
    | Replay
    | Disconnect
    | WakeAt
    | AskBot
    | AskHint
    | DrawSeed
    | PresenceChanged
    | TrimChat
    | CloseRoom
    | Note
)
