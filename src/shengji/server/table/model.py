"""The table's state: plain frozen values, nothing that does I/O.

A ``Table`` is what one room knows: who sits where, who is connected, the match, the turn
clock, the summary hold between deals, the bot move it waits for, its sequence numbers and
its outbox (what waits to be written, and what waits to be sent until it is). Changing it
means building a new one (``evolve``, a fast ``dataclasses.replace``); ``handle`` is the only
way a room changes it.

>>> t = Table.empty(TableConfig.for_tests())
>>> [s.kind for s in t.seats], t.status, t.seq
(['empty', 'empty', 'empty', 'empty'], 'waiting', 0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal, TypedDict, Unpack

from mypy_extensions import mypyc_attr

from shengji.core.actions import SYSTEM
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.stakes import PLAIN, StakeRules
from shengji.server.table.options import Limits, TableOptions
from shengji.server.table.outbox import Outbox
from shengji.server.table.seeds import match_seed
from shengji.server.table.votes import DealVote

SeatKind = Literal["empty", "human", "bot"]
Status = Literal["waiting", "playing"]


@dataclass(frozen=True, slots=True)
class Seat:
    """Who holds a seat: nobody, a human player or a bot (by registry name)."""

    kind: SeatKind = "empty"
    player: str | None = None
    name: str | None = None
    bot: str | None = None
    ready: bool = False

    def to_dict(self) -> dict[str, Any]:
        """As the room's stored state keeps it: every field by name.

        >>> Seat("bot", None, "heuristic", "heuristic", True).to_dict()
        {'kind': 'bot', 'player': None, 'name': 'heuristic', 'bot': 'heuristic', 'ready': True}
        """
        return asdict(self)


EMPTY = Seat()


@dataclass(frozen=True, slots=True)
class Viewer:
    """One open connection: its player, the seat it plays (None: watching) and its manners."""

    player: str
    name: str
    seat: int | None = None
    delta_presence: bool = False
    """Said ``hello`` with ``presence: "delta"`` (server/live/presence.py)."""
    deltas: bool = False  # said ``hello`` with protocol 3: sent ``delta`` messages
    last_nudge: float = -1e9
    hinting: bool = False
    """A bot is thinking of a hint for it (one at a time)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The turn timer: ``seat`` must act by ``deadline`` or its seat goes 托管."""

    seat: int
    version: int
    """The match version the turn belongs to (any action ends it)."""
    started: float
    deadline: float


@dataclass(frozen=True, slots=True)
class Hold:
    """Between deals: the summary of deal ``deal_no`` stays until every seat in ``waiting``
    pressed "next deal" or ``until`` passes; the next deal is not dealt before."""

    deal_no: int
    until: float
    waiting: frozenset[int]


BotPurpose = Literal["move", "declare"]


@dataclass(frozen=True, slots=True)
class BotAsk:
    """A bot was asked to move for ``seat`` at match version ``version``."""

    seat: int
    version: int
    purpose: BotPurpose = "move"


@dataclass(frozen=True, slots=True)
class ChatEntry:
    """One kept chat line."""

    seq: int
    player: str
    name: str
    seat: int | None
    text: str


LOG_FOLD: Final = 256
"""How long an ``ActionLog``'s tail grows before it is folded into the rest (a module
constant, not a class attribute: a compiled dataclass would take that for a field)."""


@dataclass(frozen=True, slots=True, eq=False)
class ActionLog:
    """A match's actions as logged, in order, grown one update at a time without copying
    the whole log: new texts join a short ``tail``, which is folded into ``done`` once it
    holds ``LOG_FOLD`` (so an action costs about ``LOG_FOLD / 2`` copied entries, not the length of
    the match). Equal to another log, or to a tuple, holding the same texts.

    >>> log = ActionLog().add(("deal", "deal")).add(("play 0 SA",))
    >>> len(log), list(log)[-1], log == ("deal", "deal", "play 0 SA")
    (3, 'play 0 SA', True)
    """

    done: tuple[str, ...] = ()
    tail: tuple[str, ...] = ()

    def __init__(self, done: tuple[str, ...] = (), tail: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "done", done)
        object.__setattr__(self, "tail", tail)

    def add(self, texts: tuple[str, ...]) -> ActionLog:
        """This log with ``texts`` after it."""
        tail = self.tail + texts
        if len(tail) >= LOG_FOLD:
            return ActionLog(self.done + tail)
        return ActionLog(self.done, tail)

    def __iter__(self) -> Iterator[str]:
        yield from self.done
        yield from self.tail

    def __len__(self) -> int:
        return len(self.done) + len(self.tail)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self.done + self.tail == other.done + other.tail
        if isinstance(other, tuple):
            return self.done + self.tail == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What a room is, fixed when it is created."""

    code: str
    preset: str
    ruleset: Ruleset
    room_seed: str
    private: bool = False
    max_deals: int | None = None
    stakes: StakeRules = PLAIN
    owner: str | None = None
    options: TableOptions = field(default_factory=TableOptions)
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def for_tests(cls, preset: str = "classic", **kw: Any) -> TableConfig:
        """A classic table with default limits (doctests, unit tests)."""
        return cls(code="t" * 16, preset=preset, ruleset=PRESETS[preset], room_seed="s", **kw)


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Table:
    """One room's state. Build it with ``Table.empty`` or ``restore.restored``. Not
    slotted: ``evolve`` copies its ``__dict__`` whole, which is several times faster than
    copying thirty slots one by one; for the same reason a plain Python class in the
    compiled build too (scripts/build_mypyc.sh), where a frozen dataclass's ``__init__``
    still sets each field through ``object.__setattr__``: 15 µs a change against 1."""

    config: TableConfig
    seats: tuple[Seat, ...]
    status: Status = "waiting"
    match_no: int = 0
    match: MatchState | None = None
    actions: ActionLog = field(default_factory=ActionLog)
    """The current match's actions, as logged (ruleset + seed + these replay it)."""
    drawn_seed: str | None = None
    """The current match's secret seed (None between matches, or an old room's match)."""
    spare_seed: str | None = None
    """A seed drawn ahead for the next match (the room's shell refills it: ``DrawSeed``)."""
    rosters: Mapping[int, tuple[str | None, ...]] = field(default_factory=dict)
    """Per deal of the match, the players settled for it (seated at its first card)."""
    finishing: bool = False
    """The match is over and its record is being saved; nothing moves until it is."""
    version: int = 0
    """Moves on with every applied action and every match start or end."""
    seq: int = 0
    """The room's sequence number: the last sequenced message's."""
    sent_seq: int = 0
    """The last sequenced message actually sent (``seq`` is ahead while one waits)."""
    log_pos: int = 0
    """The position of the room's last log row (``Record.pos``: 1, 2, 3 ... one per row,
    private updates included, unlike ``seq``)."""
    log_floor: int = 0
    """Clients that saw less than this get a snapshot (the shell's backlog starts after)."""
    last_private: Mapping[int, int] = field(default_factory=dict)
    """Per seat, the ``seq`` of the newest message only it got (never resent)."""
    shown: MatchState | None = None
    """The match as the last public update left it: the base of the next one's deltas."""
    shown_own: Mapping[int, MatchState] = field(default_factory=dict)  # a seat's private base
    conns: Mapping[int, Viewer] = field(default_factory=dict)
    away_since: Mapping[int, float] = field(default_factory=dict)
    """Seated humans with no connection, since when."""
    unattended_since: float | None = None
    """Since when nobody is connected (server/live/expiry.py closes rooms left so)."""
    auto: frozenset[int] = frozenset()
    """Seats on 托管: the auto-play bot moves for them until their player acts or takes back."""
    clock: Clock | None = None
    hold: Hold | None = None
    next_card_at: float = 0.0
    """When the next card may be dealt (deal pacing)."""
    bot_ask: BotAsk | None = None
    declare_asks: frozenset[int] = frozenset()
    """Bot-controlled seats asked whether to declare while cards are dealt."""
    chat: tuple[ChatEntry, ...] = ()
    chat_untrimmed: int = 0
    """Chat lines logged since old ones were last deleted from the database."""
    outbox: Outbox = field(default_factory=Outbox)
    wake: float | None = None
    """The wake-up the shell was last asked for."""
    closed: bool = False
    vote: DealVote | None = None
    """The open proposal to deal the current deal again (table/resets.py)."""
    ended_early: bool = False
    """The owner ended the running match (its ``match_over`` says so)."""

    @classmethod
    def empty(cls, config: TableConfig, spare_seed: str | None = None) -> Table:
        """A new room: every seat empty, nobody connected."""
        return cls(config, (EMPTY,) * config.ruleset.players, spare_seed=spare_seed)

    # ------------------------------------------------------------------ queries

    @property
    def playing(self) -> bool:
        """A match is running (and not being recorded)."""
        return self.status == "playing" and self.match is not None and not self.finishing

    def seat_of(self, player: str) -> int | None:
        """The seat ``player`` holds, if any."""
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.player == player:
                return i
        return None

    def connected(self, seat: int) -> bool:
        """Whether a connection plays ``seat`` now."""
        return any(v.seat == seat for v in self.conns.values())

    def grace(self) -> float:
        """How long a seated human may be away: during a match, before a stand-in bot
        plays; between matches, before the seat is freed."""
        lim = self.config.limits
        return lim.seat_grace_s if self.status == "playing" else lim.waiting_grace_s

    def gone_past_grace(self, seat: int, now: float) -> bool:
        """A seated human away longer than the grace time."""
        since = self.away_since.get(seat)
        return since is not None and now - since >= self.grace()

    def bot_controls(self, seat: int, now: float) -> bool:
        """Whether a bot moves for ``seat`` now: a bot seat, a seat left empty in a match,
        a seat on 托管, or a human away longer than the grace time."""
        s = self.seats[seat]
        if s.kind != "human":
            return True
        return seat in self.auto or self.gone_past_grace(seat, now)

    def bot_name(self, seat: int) -> str:
        """The bot that moves for ``seat``: its own, the 托管 bot, or the stand-in."""
        s = self.seats[seat]
        if s.kind == "bot" and s.bot:
            return s.bot
        if seat in self.auto:
            return self.config.limits.auto_bot
        return self.config.limits.substitute_bot

    def match_seed(self) -> str:
        """The seed the current match is dealt from (secret until its record is out)."""
        return match_seed(self.config.room_seed, self.match_no, self.drawn_seed)

    def seat_players(self) -> tuple[str | None, ...]:
        """The player id per seat; None for a bot or an empty seat."""
        return tuple(s.player if s.kind == "human" and s.player else None for s in self.seats)

    def humans(self) -> list[int]:
        """Seats a human holds."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def to_act(self) -> int | None:
        """Who moves in the running match (``SYSTEM``: the server deals), None otherwise."""
        m = self.match
        if m is None or self.status != "playing" or self.finishing:
            return None
        return m.to_act

    def dealing(self) -> bool:
        """The server deals the next card (when pacing and the summary hold allow)."""
        return self.to_act() == SYSTEM

    def stored_state(self) -> dict[str, Any]:
        """What the room's row keeps: seating, status, match number, the match's seed and
        rosters, the room's options (never sent to clients)."""
        state: dict[str, Any] = {
            "seats": [s.to_dict() for s in self.seats],
            "status": self.status,
            "match_no": self.match_no,
            "options": self.config.options.to_dict(),
        }
        if self.drawn_seed is not None:
            state["match_seed"] = self.drawn_seed
        if self.rosters:
            state["rosters"] = {str(k): list(v) for k, v in self.rosters.items()}
        return state


class TableChanges(TypedDict, total=False):
    """The fields ``evolve`` may change (the same names and types as ``Table``'s)."""

    config: TableConfig
    seats: tuple[Seat, ...]
    status: Status
    match_no: int
    match: MatchState | None
    actions: ActionLog
    drawn_seed: str | None
    spare_seed: str | None
    rosters: Mapping[int, tuple[str | None, ...]]
    finishing: bool
    version: int
    seq: int
    sent_seq: int
    log_pos: int
    log_floor: int
    last_private: Mapping[int, int]
    shown: MatchState | None
    shown_own: Mapping[int, MatchState]
    conns: Mapping[int, Viewer]
    away_since: Mapping[int, float]
    unattended_since: float | None
    auto: frozenset[int]
    clock: Clock | None
    hold: Hold | None
    next_card_at: float
    bot_ask: BotAsk | None
    declare_asks: frozenset[int]
    chat: tuple[ChatEntry, ...]
    chat_untrimmed: int
    outbox: Outbox
    wake: float | None
    closed: bool
    vote: DealVote | None
    ended_early: bool


_new = object.__new__
_set = object.__setattr__


def evolve(t: Table, **changes: Unpack[TableChanges]) -> Table:
    """``dataclasses.replace`` for a ``Table``, many times faster (a table changes a few
    times per command; ``replace`` re-runs ``__init__`` over every field each time; this
    copies the field dict and writes the changes into it).

    >>> from dataclasses import replace
    >>> t = Table.empty(TableConfig.for_tests())
    >>> evolve(t, seq=3).seq, t.seq, evolve(t, seq=3) == replace(t, seq=3)
    (3, 0, True)
    """
    values = t.__dict__.copy()
    values.update(changes)
    new = _new(Table)
    _set(new, "__dict__", values)
    return new
