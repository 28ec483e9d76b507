"""What can happen to a table: typed commands, one per kind of news.

The room's shell turns every socket message, timer, bot answer and database answer into
one of these and hands it to ``handle`` (table/handle.py) with the loop's time.

>>> ClientSaid(3, wire.Ping())
ClientSaid(conn=3, msg=Ping(v=3))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from shengji.core.actions import Action
from shengji.server.table.settlement import DealSettled
from shengji.server.wire import messages as wire


@dataclass(frozen=True, slots=True)
class ClientSaid:
    """A connection sent a message (``hello`` was the shell's: see ``Opened``)."""

    conn: int
    msg: wire.ClientMessage


@dataclass(frozen=True, slots=True)
class Opened:
    """A connection said ``hello`` as ``player``; ``last_seq``: resume after it."""

    conn: int
    player: str
    name: str
    last_seq: int | None = None
    delta_presence: bool = False
    deltas: bool = False
    """Said ``hello`` with protocol version 3: gets ``delta`` messages, not ``update``."""


@dataclass(frozen=True, slots=True)
class Closed:
    """A connection closed."""

    conn: int


@dataclass(frozen=True, slots=True)
class Tick:
    """A wake-up the table asked for came due, perhaps a little early (or the shell just
    looks again); either way the shell now holds no timer for the table."""


@dataclass(frozen=True, slots=True)
class StorageBack:
    """The database took a write again after failing (``WriteHealth.on_back``): a failed
    write waiting out its backoff is handed out now, not at its ``retry_at``."""


@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot's choice for ``seat`` at ``version`` (None: it failed or ran out of time)."""

    seat: int
    version: int
    action: Action | None


@dataclass(frozen=True, slots=True)
class BotDeclared:
    """A bot's declaration while cards of match ``match_no`` are dealt (None: none)."""

    seat: int
    match_no: int
    action: Action | None


@dataclass(frozen=True, slots=True)
class HintReady:
    """A bot's hint for connection ``conn`` (None: no legal action)."""

    conn: int
    action: Action | None


@dataclass(frozen=True, slots=True)
class Written:
    """The write with ``ticket`` is durable."""

    ticket: int


@dataclass(frozen=True, slots=True)
class GameSaved:
    """The finished match of write ``ticket`` is stored as game ``game``."""

    ticket: int
    game: int


@dataclass(frozen=True, slots=True)
class DealsSettled:
    """The stakes write ``ticket`` is durable: what it did per deal."""

    ticket: int
    deals: tuple[DealSettled, ...]
    """Each deal settled now, or left unsettled (no human on a side); not those settled
    before."""


@dataclass(frozen=True, slots=True)
class WriteFailed:
    """The write ``ticket`` failed with a storage fault (``reason`` for the log)."""

    ticket: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeedDrawn:
    """A fresh secret seed for the next match (answer to ``DrawSeed``)."""

    seed: str


@dataclass(frozen=True, slots=True)
class SeatBot:
    """Seat a bot at once (the HTTP API's ``bots`` when creating a room)."""

    seat: int
    bot: str


Command: TypeAlias = (
    ClientSaid
    | Opened
    | Closed
    | Tick
    | StorageBack
    | BotMoved
    | BotDeclared
    | HintReady
    | Written
    | GameSaved
    | DealsSettled
    | WriteFailed
    | SeedDrawn
    | SeatBot
)
