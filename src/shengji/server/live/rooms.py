"""A room: the asyncio shell around one ``Table`` (server/table/).

Everything that happens to a room becomes a typed command in its inbox; ``Room.run``
hands them to ``handle`` one at a time and carries out the effects in order: writes go to
the store's group commit (one at a time; the answer is the next command, and the room's
task never waits for the database), sends are encoded once per audience and the same bytes
go into each connection's buffer (the table releases a send only once the write before it
is durable; server/live/conn.py coalesces them into frames), public sequenced messages are kept
for resuming clients (server/live/backlog.py), wake-ups
become one loop timer, bot questions go to the bot pool. The table decides everything;
this file does only I/O.

It is a little over 400 lines for a reason: the shell's whole I/O surface (the inbox and
its task, the effects carried out, the resume buffer, presence flushes, quarantine on a
bug) and the read-only facade the lobby and HTTP API use stay in one class, so what the
table asks for and how it is done are read together.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import msgspec

from shengji.core.ruleset import Ruleset
from shengji.core.stakes import PLAIN, StakeRules
from shengji.server import metrics
from shengji.server.live.backlog import Backlog
from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.conn import Conn
from shengji.server.live.presence import PresenceBoard
from shengji.server.live.quarantine import describe, quarantine
from shengji.server.live.room_jobs import Crash, Jobs
from shengji.server.settings import Settings
from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.storage import Store
from shengji.server.table import Limits, Table, TableConfig, TableOptions, handle, restored
from shengji.server.table.client_actions import CLIENT_FORMS, action_text, client_action
from shengji.server.table.commands import (
    ClientSaid,
    Closed,
    Command,
    Opened,
    SeatBot,
    SeedDrawn,
    StorageBack,
    Tick,
)
from shengji.server.table.effects import (
    AskBot,
    AskHint,
    CloseRoom,
    Disconnect,
    DrawSeed,
    Effect,
    Message,
    Note,
    PresenceChanged,
    Replay,
    Send,
    TrimChat,
    WakeAt,
    Write,
)
from shengji.server.table.model import Seat
from shengji.server.table.render import Audience, UpdateEntry, encoded_for
from shengji.server.table.seeds import new_match_seed
from shengji.server.table.views import room_info
from shengji.server.wire import messages as wire

__all__ = ["CLIENT_FORMS", "Conn", "Room", "Seat", "action_text", "client_action"]

log = logging.getLogger("shengji.server.rooms")

_conn_ids = itertools.count(1)

MOVED = 4409
"""Close code of a connection whose room moved to another process (its lease was lost):
reconnect, to the room's owner (``GET /api/rooms/{code}/owner``) or through the router."""


class _Stop:
    """The inbox's last item."""


Inbox = Command | _Stop | Crash


class Room:
    """One table's shell: ``Room(...)``, then ``restore(...)`` after a restart, then
    ``start()``."""

    def __init__(
        self,
        *,
        rid: int,
        code: str,
        preset: str,
        ruleset: Ruleset,
        seed: str,
        private: bool,
        max_deals: int | None,
        settings: Settings,
        store: Store,
        bots: BotRunner,
        stakes: StakeRules = PLAIN,
        owner: str | None = None,
        options: TableOptions | None = None,
    ) -> None:
        self._rid = rid
        self.settings = settings
        self.store = store
        self.bots = bots
        config = TableConfig(
            code=code,
            preset=preset,
            ruleset=ruleset,
            room_seed=seed,
            private=private,
            max_deals=max_deals,
            stakes=stakes,
            owner=owner,
            options=options or TableOptions.defaults(private, TableOptions.from_settings(settings)),
            limits=Limits.from_settings(settings),
        )
        self.table = Table.empty(config, spare_seed=new_match_seed())
        self.conns: dict[int, Conn] = {}
        self.backlog = Backlog(settings.replay_bytes, settings.log_size)
        """Public sequenced messages kept for clients that resume (bounded in bytes)."""
        self.inbox: asyncio.Queue[Inbox] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.on_close: Callable[[Room], None] | None = None
        """Told when the table closes the room for good (the owner closed it): the lobby
        then stops the room and closes its row, from a task of its own (a job of the room's
        would be cancelled by the stop it asks for)."""
        """Called when the table closes the room (the lobby forgets it)."""
        self._timer: asyncio.TimerHandle | None = None
        self._presence_timer: asyncio.TimerHandle | None = None
        self.jobs = Jobs(rid, code, store, bots, settings.bot_delay_s, self.inbox.put_nowait)
        self.presence = PresenceBoard()
        self.closed = False
        self.failed: str | None = None
        """Why the room was stopped and quarantined (server/live/quarantine.py); None: running."""
        self.on_failure: Callable[[Room], None] | None = None
        """Called once when the room fails (the lobby forgets it)."""
        self.last_active = 0.0
        """Loop time of the last command handled (server/live/idle_rooms.py unloads idle rooms)."""
        self.on_lost: Callable[[Room], None] | None = None
        """Called once when the room's lease is lost (the lobby forgets it)."""

    # ------------------------------------------------------------------ the room as others see it

    @property
    def rid(self) -> int:
        """The room's id in the database (the lobby sets it once the row exists)."""
        return self._rid

    @rid.setter
    def rid(self, rid: int) -> None:
        self._rid = self.jobs.rid = rid

    @property
    def code(self) -> str:
        return self.table.config.code

    @property
    def private(self) -> bool:
        return self.table.config.private

    @property
    def status(self) -> str:
        """``waiting`` or ``playing``."""
        return self.table.status

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def seq(self) -> int:
        """The room's current sequence number (for unsequenced answers)."""
        return self.table.seq

    @property
    def stakes(self) -> StakeRules:
        return self.table.config.stakes

    @property
    def owner(self) -> str | None:
        return self.table.config.owner

    @property
    def unattended_since(self) -> float | None:
        return self.table.unattended_since

    def info(self) -> wire.RoomInfo:
        """The room as the lobby shows it."""
        return room_info(self.table, self._now())

    def room_state(self) -> dict[str, Any]:
        """What the ``rooms`` row keeps."""
        return self.table.stored_state()

    def restore(
        self, state: Mapping[str, Any], last_seq: int, actions: Sequence[str], last_pos: int
    ) -> None:
        """Put the room back as its row and log describe it (before ``start``)."""
        self.table = restored(
            self.table.config, state, last_seq, actions, self._now(), self.table.spare_seed,
            last_pos=last_pos,
        )

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the room's task (it first looks at what is due: ``Tick``)."""
        if not self.table.conns and self.table.unattended_since is None:
            self.table = replace(self.table, unattended_since=self._now())  # nobody came yet
        self.inbox.put_nowait(Tick())
        self.last_active = self._now()
        self.task = asyncio.create_task(self.run(), name=f"room-{self.code[:6]}")

    async def stop(self) -> None:
        """Stop the task, timers and bot moves in flight; everyone still connected or
        joining is told the room has closed."""
        self.closed = True
        if self.task is None:
            return
        self.inbox.put_nowait(_Stop())
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        self.task = None
        for handle_ in (self._timer, self._presence_timer):
            if handle_ is not None:
                handle_.cancel()
        self.jobs.cancel()
        welcomed = set(self.table.conns)
        for c in list(self.conns.values()):
            if c.id not in welcomed:
                self._refuse_closed(c)
            c.close()

    async def expire(self) -> bool:
        """Close the room if nobody is connected or joining (server/live/expiry.py); True: it is
        closed now (the lobby then stops it)."""
        if self.closed or self.task is None or self.task.done() or self.conns:
            return False
        self.closed = True
        return True

    def _refuse_closed(self, conn: Conn) -> None:
        msg = wire.Error(seq=self.table.seq, code="no-room", message="the room has closed")
        conn.send(wire.encode(msg))
        conn.close(4404)

    async def run(self) -> None:
        """Handle the inbox one command at a time. Anything raised but a storage fault is a
        bug: the room is stopped and quarantined after one logged error (``_fail``), never
        retried in a loop; the other rooms go on."""
        while True:
            cmd = await self.inbox.get()
            if isinstance(cmd, _Stop):
                return
            if isinstance(cmd, Crash):
                if isinstance(cmd.exc, LeaseLost):
                    log.warning("room %s: a write was refused: %s (fenced); the room stops "
                                "here", self.code[:6], cmd.exc)
                    self._hand_over()
                else:
                    await self._fail(cmd.exc, cmd.what)
                return
            try:
                self.step(cmd)
            except Exception as exc:
                await self._fail(exc, type(cmd).__name__)
                return
            if not self.inbox.empty():
                await asyncio.sleep(0)  # a busy room never holds the event loop

    async def _fail(self, exc: BaseException, what: str) -> None:
        """Stop the room after an internal error: one log record, clients told and
        disconnected, the room quarantined in the database and dropped from the lobby."""
        why = f"{what}: {describe(exc)}"
        self.failed = why
        log.error(
            "room %s stopped and quarantined (see `shengji rooms quarantined`): %s",
            self.code[:6],
            why,
            exc_info=exc,
        )
        for handle_ in (self._timer, self._presence_timer):
            if handle_ is not None:
                handle_.cancel()
        self._timer = self._presence_timer = None
        self.jobs.cancel()
        for c in list(self.conns.values()):
            self._refuse_failed(c)
        self.conns.clear()
        await quarantine(self.store, self.rid, self.code, why)
        if self.on_failure is not None:
            self.on_failure(self)

    async def lose(self) -> None:
        """Stop at once: another process holds the room's lease now (its renewal was
        refused). Clients are told to reconnect (``moved``, close 4409): the room goes on
        at its new owner."""
        if self.closed:
            return
        if self.task is not None and self.task is not asyncio.current_task():
            self.inbox.put_nowait(_Stop())
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        self._hand_over()

    def _hand_over(self) -> None:
        """Stop touching the room: timers and jobs cancelled, every client sent ``moved``
        and closed with 4409, the lobby told (``on_lost``)."""
        if self.closed:
            return
        self.closed = True
        for handle_ in (self._timer, self._presence_timer):
            if handle_ is not None:
                handle_.cancel()
        self._timer = self._presence_timer = None
        self.jobs.cancel()
        why = "this room moved to another server: reconnect"
        moved = wire.encode(wire.Error(seq=self.table.seq, code="moved", message=why))
        for c in list(self.conns.values()):
            c.send(moved)
            c.close(MOVED)
        self.conns.clear()
        if self.on_lost is not None:
            self.on_lost(self)

    def _refuse_failed(self, conn: Conn) -> None:
        why = "this room stopped after an internal error"
        msg = wire.Error(seq=self.table.seq, code="room-failed", message=why)
        conn.send(wire.encode(msg))
        conn.close()

    def step(self, cmd: Command) -> None:
        """One command through the table; its effects carried out."""
        self.last_active = now = self._now()
        self.table, effects = handle(self.table, cmd, now)
        for e in effects:
            self._do(e)

    # entry points for the socket handlers and the HTTP API

    async def join(self, conn: Conn, last_seq: int | None) -> None:
        """Register a connection; it gets a welcome, then missed messages or a snapshot."""
        if self.failed is not None:
            self._refuse_failed(conn)
            return
        if self.closed:
            self._refuse_closed(conn)
            return
        self.conns[conn.id] = conn
        p = conn.player
        opened = Opened(conn.id, p.id, p.name, last_seq, conn.presence_delta, conn.deltas)
        self.inbox.put_nowait(opened)

    def submit(self, conn: Conn, msg: wire.ClientMessage) -> None:
        """A message from a client."""
        self.inbox.put_nowait(ClientSaid(conn.id, msg))

    def gone(self, conn: Conn) -> None:
        """A connection closed."""
        self.conns.pop(conn.id, None)
        self.inbox.put_nowait(Closed(conn.id))

    def add_bot(self, seat: int, name: str) -> None:
        """Seat a bot in an empty seat (the HTTP API's ``bots`` when creating a room)."""
        self.inbox.put_nowait(SeatBot(seat, name))

    # ------------------------------------------------------------------ effects

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _do(self, e: Effect) -> None:
        match e:
            case Send(to=to, msg=msg):
                frames = encoded_for(msg, {seat for _, seat in to})  # once per audience
                if e.backlog and e.seq is not None:
                    self._keep(e.seq, msg, frames)
                if isinstance(msg, UpdateEntry) and msg.made_at is not None and e.backlog:
                    # write included
                    metrics.action_applied(self._now() - msg.made_at, msg.actions)
                welcome = isinstance(msg, wire.Welcome)
                for conn_id, seat in to:
                    c = self.conns.get(conn_id)
                    if c is not None:
                        c.send(frames[seat])
                        if welcome:  # presence follows its welcome
                            c.welcomed = True
                            self._presence_soon()
            case Replay(conn=conn_id, seat=seat, after=after):
                c = self.conns.get(conn_id)
                if c is not None:
                    self._replay(c, seat, after, e.welcome, e.fallback)
            case Disconnect(conn=conn_id, code=code):
                c = self.conns.pop(conn_id, None)
                if c is not None:
                    c.close(code)
            case Write():
                self.jobs.start_write(e)
            case WakeAt(at=at):
                if self._timer is not None:
                    self._timer.cancel()
                self._timer = asyncio.get_running_loop().call_at(at, self._tick)
            case AskBot():
                self.jobs.spawn(self.jobs.ask_bot(e), "bot")
            case AskHint():
                self.jobs.spawn(self.jobs.ask_hint(e), "hint")
            case DrawSeed():
                self.inbox.put_nowait(SeedDrawn(new_match_seed()))
            case PresenceChanged():
                self._presence_soon()
            case TrimChat(before_seq=before):
                self.jobs.spawn(self.jobs.trim_chat(before), "trim chat")
            case CloseRoom():
                if self.on_close is not None:
                    self.on_close(self)
            case Note(level=level, text=text, topic=topic):
                logger = logging.getLogger(f"shengji.server.{topic}")
                logger.log(logging.getLevelName(level.upper()), "%s", text)

    def _keep(self, seq: int, msg: Message, frames: Mapping[Audience, bytes]) -> None:
        """Keep a public sequenced message for clients that resume, once with its audience
        (server/live/backlog.py): an update without ``game``, anything else as it was sent."""
        if isinstance(msg, UpdateEntry):
            data, own = msg.replay_forms()
            self.backlog.keep(seq, data, own)
        else:
            self.backlog.keep(seq, frames[None])

    def _replay(
        self,
        c: Conn,
        seat: int | None,
        after: int,
        welcome: wire.Welcome,
        fallback: wire.Snapshot,
    ) -> None:
        """Welcome a resuming client and resend what it missed, or, when the buffer no
        longer holds all of it, say so and send the snapshot made for this case."""
        missed = self.backlog.since(after, seat)
        if missed is None:
            c.send(wire.encode(msgspec.structs.replace(welcome, resume=False)))
            c.send(wire.encode(fallback))
        else:
            c.send(wire.encode(welcome))
            for data in missed:
                c.send(data)
        c.welcomed = True
        self._presence_soon()

    def _tick(self) -> None:
        self._timer = None
        self.inbox.put_nowait(Tick())

    def storage_back(self) -> None:
        """The database takes writes again: a write waiting out its retry goes now."""
        if self.table.outbox.retry_at is not None and not self.closed:
            self.inbox.put_nowait(StorageBack())

    def _presence_soon(self) -> None:
        """Presence changed: flush it soon, once for every change until then."""
        if self._presence_timer is None:
            self._presence_timer = asyncio.get_running_loop().call_later(
                self.settings.presence_interval_s, self._presence
            )

    def _presence(self) -> None:
        self._presence_timer = None
        viewers = []
        for conn_id, v in self.table.conns.items():
            c = self.conns.get(conn_id)
            if c is not None and c.welcomed:
                c.seat = v.seat
                viewers.append(c)
        t = self.table
        away = [i for i in t.humans() if not t.connected(i)]
        self.presence.flush(viewers, t.seq, away)


def wake_paused(rooms: Iterable[Room]) -> None:
    """The database takes writes again: paused rooms retry now, not after their backoff."""
    for room in list(rooms):
        room.storage_back()
