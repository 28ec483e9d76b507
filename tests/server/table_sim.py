"""A synchronous stand-in for the room's shell, to drive a ``Table`` in tests.

It carries out the table's effects the way ``server/live/rooms.py`` does, without I/O: writes go
to an in-memory store (which can be told to fail), sends are collected per connection, bots
answer with a seeded random legal move (or fail, when told to), and time only moves when
the test says so.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from shengji.core.actions import Action
from shengji.core.stakes import deal_outcome, settle
from shengji.server.table import Table, TableConfig, handle
from shengji.server.table.commands import (
    BotDeclared,
    BotMoved,
    Command,
    DealsSettled,
    GameSaved,
    HintReady,
    SeedDrawn,
    Tick,
    WriteFailed,
    Written,
)
from shengji.server.table.effects import (
    AskBot,
    AskHint,
    Disconnect,
    DrawSeed,
    LogRecords,
    Note,
    Record,
    Replay,
    SaveGame,
    Send,
    SettleDeals,
    WakeAt,
    Write,
)
from shengji.server.table.render import Audience, UpdateEntry
from shengji.server.table.settlement import DealSettled, human_on_each_side
from shengji.server.wire import messages as wire
from shengji.server.wire.actions import read_logged


@dataclass
class Store:
    """The database: log rows, the room's row, saved games, settled deals."""

    rows: list[Record] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    games: dict[int, str] = field(default_factory=dict)
    """match_no → record JSON."""
    settled: set[tuple[int, int]] = field(default_factory=set)

    def last_seq(self) -> int:
        return max((r.seq for r in self.rows), default=0)

    def last_pos(self) -> int:
        return max((r.pos for r in self.rows), default=0)

    def actions(self) -> list[str]:
        """The logged actions of the stored current match, as texts."""
        return [str(read_logged(d)) for d in self.action_rows()]

    def action_rows(self) -> list[str]:
        """The stored current match's action rows as logged (typed JSON)."""
        m = int(self.state.get("match_no", 0))
        return [r.data for r in self.rows if r.kind == "action" and r.match_no == m]


@dataclass
class Got:
    """One message a connection received."""

    seat: Audience
    msg: wire.ServerMsg


class Sim:
    """A table and a fake shell around it."""

    def __init__(self, table: Table, now: float = 0.0) -> None:
        self.table = table
        self.now = now
        self.store = Store(state=table.stored_state())
        self.writes: list[Write] = []
        self.asks: list[AskBot] = []
        self.hints: list[AskHint] = []
        self.wake: float | None = None
        self.inbox: dict[int, list[Got]] = {}
        self.backlog: list[Send] = []
        self.closed: set[int] = set()
        self.seeds = 0
        self.rng = random.Random(7)
        self.sent_before_written: list[str] = []
        self.notes: list[Note] = []
        self.early = 0.0
        """Seconds before its time that a wake-up first fires (``tick``)."""
        self._early_at: float | None = None
        self.on_send: Any = None
        """Called with every ``Send`` as the shell carries it out (the tests' checks)."""
        self.on_handle: Any = None
        """Called with ``(table before, command, table after)`` for every command fed."""

    # ------------------------------------------------------------------ feeding

    def feed(self, cmd: Command) -> None:
        """Hand the table one command and carry out its effects."""
        before = self.table
        self.table, fx = handle(self.table, cmd, self.now)
        if self.on_handle is not None:
            self.on_handle(before, cmd, self.table)
        for e in fx:
            match e:
                case Write():
                    self.writes.append(e)
                case Send(to=to, msg=msg):
                    if e.backlog:
                        self.backlog.append(e)
                    self._check_durable(e)
                    if self.on_send is not None:
                        self.on_send(e)
                    for conn, seat in to:
                        self._got(conn, seat, msg)
                case Replay(conn=conn, seat=seat, after=after, welcome=welcome):
                    self._got(conn, seat, welcome)
                    for b in self.backlog:
                        if b.seq is not None and b.seq > after:
                            self._got(conn, seat, b.msg)
                case Disconnect(conn=conn):
                    self.closed.add(conn)
                case WakeAt(at=at):
                    self.wake = at
                case AskBot():
                    self.asks.append(e)
                case AskHint():
                    self.hints.append(e)
                case Note():
                    self.notes.append(e)
                case DrawSeed():
                    self.seeds += 1
                    self.feed(SeedDrawn(f"seed{self.seeds}"))
                case _:
                    pass

    def _check_durable(self, send: Send) -> None:
        if send.seq is not None and send.seq > self.store.last_seq():
            self.sent_before_written.append(f"seq {send.seq} sent before it was written")

    def _got(self, conn: int, seat: Audience, msg: wire.ServerMsg | UpdateEntry) -> None:
        out = msg.message_for(seat) if isinstance(msg, UpdateEntry) else msg
        self.inbox.setdefault(conn, []).append(Got(seat, out))

    # ------------------------------------------------------------------ the shell's jobs

    def complete_write(self, fail: bool = False) -> bool:
        """Answer the oldest write (or fail it); False if none is out."""
        if not self.writes:
            return False
        w = self.writes.pop(0)
        if fail:
            self.feed(WriteFailed(w.ticket, "OperationalError: disk I/O error"))
            return True
        req = w.request
        match req:
            case LogRecords(records=records):
                for r in records:
                    # the log's key: each row takes the next place (1, 2, 3 ...), private
                    # updates too, across restarts (what UNIQUE(room_id, pos) enforces)
                    assert r.pos == self.store.last_pos() + 1, (r, self.store.last_pos())
                    self.store.rows.append(r)
                    if r.state is not None:
                        self.store.state = dict(r.state)
                self.feed(Written(w.ticket))
            case SaveGame(match_no=match_no, record=record):
                self.store.games.setdefault(match_no, record)
                self.feed(GameSaved(w.ticket, 1000 + match_no))
            case SettleDeals():
                self.feed(DealsSettled(w.ticket, self._settle(req)))
        return True

    def _settle(self, req: SettleDeals) -> tuple[DealSettled, ...]:
        out = []
        for d in req.deals:
            key = (req.match_no, d.deal_no)
            if key in self.store.settled:
                continue
            players = list(d.players)
            if not human_on_each_side(deal_outcome(d.result, len(players)), players):
                out.append(DealSettled(d.deal_no, d.players, None))
                continue
            self.store.settled.add(key)
            st = settle(d.result, req.rules, [0 if p else None for p in players])
            out.append(DealSettled(d.deal_no, d.players, st))
        return tuple(out)

    def answer_bot(self, mode: str = "ok") -> bool:
        """Answer the oldest bot question: ``ok`` a legal move, ``none`` a failure,
        ``bad`` an illegal move. False if none is asked."""
        if not self.asks:
            return False
        a = self.asks.pop(0)
        action: Action | None = None
        legal = a.match.legal_actions(a.seat)
        if mode == "ok" and legal:
            action = legal.sample(self.rng)
        elif mode == "bad" and legal:
            action = legal.sample(self.rng)
            action = type(action)(a.seat ^ 1, *list(vars_of(action))[1:])  # wrong seat
        if a.purpose == "declare":
            self.feed(BotDeclared(a.seat, a.match_no, action))
        else:
            self.feed(BotMoved(a.seat, a.version, action))
        return True

    def answer_hint(self) -> bool:
        if not self.hints:
            return False
        h = self.hints.pop(0)
        legal = h.match.legal_actions(h.seat)
        self.feed(HintReady(h.conn, legal.sample(self.rng) if legal else None))
        return True

    def tick(self) -> bool:
        """Move time to the wake-up and tick; False if none is set. With ``early`` set, a
        wake-up's first tick comes that much before its time, as an event loop with a
        coarse clock fires timers (uvloop: whole milliseconds)."""
        if self.wake is None:
            return False
        at = self.wake
        if self.early and self._early_at != at:
            self._early_at = at
            at -= self.early
        self.now = max(self.now, at)
        self.wake = None
        self.feed(Tick())
        return True

    def run(self, steps: int = 100000, until: Any = None) -> int:
        """Let the table run by itself (writes succeed, bots answer, time moves)."""
        n = 0
        while n < steps:
            if until is not None and until(self):
                break
            if self.complete_write() or self.answer_bot() or self.answer_hint() or self.tick():
                n += 1
                continue
            break
        return n

    def messages(self, conn: int, t: str) -> list[wire.ServerMsg]:
        """What ``conn`` received of type ``t``."""
        return [g.msg for g in self.inbox.get(conn, []) if tag(g.msg) == t]

    def inbox_of(self, conn: int) -> list[Any]:
        """What ``conn`` received, as the JSON objects it read."""
        return [_Obj(json.loads(wire.encode(g.msg))) for g in self.inbox.get(conn, [])]


class _Obj:
    """A received message: ``.t`` its type, ``[key]`` its fields."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.t = data["t"]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


def tag(msg: wire.ServerMsg) -> str:
    """A server message's ``t``."""
    return str(json.loads(wire.encode(msg))["t"])


def vars_of(action: Action) -> list[Any]:
    return [getattr(action, f) for f in action.__dataclass_fields__]  # type: ignore[attr-defined]


def config(preset: str = "classic", **kw: Any) -> TableConfig:
    return TableConfig.for_tests(preset, **kw)
