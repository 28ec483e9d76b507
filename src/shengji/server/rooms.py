"""A room: one asyncio task owns its match, its seats and its message log.

Everything that changes a room goes through the room's inbox and is handled one at a time
by ``Room.run``: client messages, the dealing timer, bot moves, joins and departures. Every
sequenced message (game actions among them) is written to the database before it is sent,
so a killed server resumes the table from its log (``Room.restore`` replays the actions).

Each client gets only what its seat may see: ``view_for`` / ``public_view`` snapshots, and
with each update the events ``visible`` to it and its whole view after them
(``table_view.game_view``). Messages that nobody else may know of (a hidden declaration
while dealing) take no new sequence number, so their very existence stays private.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass
from typing import Any

import msgspec

from shengji.bots.base import Bot
from shengji.bots.registry import make_bot
from shengji.core.actions import (
    SYSTEM,
    Action,
    Deal,
    MatchAction,
    Redeal,
    parse_action,
    parse_match_action,
)
from shengji.core.cards import LEVELS
from shengji.core.display import fixed_teams
from shengji.core.dry_run import dry_run
from shengji.core.errors import NotationError, ShengjiError
from shengji.core.events import CardDealt, DealEnded, Event
from shengji.core.match import MatchState
from shengji.core.record import GameRecord, record_result
from shengji.core.ruleset import Ruleset
from shengji.core.state import Phase
from shengji.server import metrics, wire
from shengji.server.bots_runner import BotRunner, fallback
from shengji.server.owners import NOT_OWNER, may_manage, refusal
from shengji.server.presence import PresenceBoard
from shengji.server.quarantine import describe, is_storage_error, quarantine
from shengji.server.seeds import match_seed, new_match_seed
from shengji.server.settings import Settings
from shengji.server.stakes import (
    PLAIN,
    StakeRules,
    fix_roster,
    rosters_from_state,
    settle_deals,
    settle_unsettled,
    stakes_info,
)
from shengji.server.storage import Player, Store
from shengji.server.table_view import deal_summary, finished_deal, game_view
from shengji.server.validate import server_bot
from shengji.server.votes import DealVote
from shengji.server.wire import action_text
from shengji.server.write_faults import DurableWrites, WritesStopped

__all__ = ["Conn", "Room", "action_text", "client_action"]

log = logging.getLogger("shengji.server.rooms")


# --------------------------------------------------------------------------- clients

HINT_BOTS = ("random", "heuristic")
"""Bots a client may ask for a hint (cheap ones: a hint never holds up the bot pool)."""


class Conn:
    """One connected client: a player and its outgoing queue (drained by its socket)."""

    def __init__(self, player: Player, queue_size: int = 4096) -> None:
        self.player = player
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        self.open = True
        self.seat: int | None = None
        self.last_nudge = -1e9
        self.hinting = False
        self.presence_delta = False
        """Wants ``presence_delta`` messages (said so in ``hello``)."""
        self.presence_synced = False
        """Has had the whole presence list once."""
        self.close_code = 1000
        """The WebSocket close code its writer closes with."""

    @property
    def player_id(self) -> str:
        """The connected player's id."""
        return self.player.id

    @property
    def name(self) -> str:
        """The connected player's name."""
        return self.player.name

    def send(self, data: bytes) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if not self.open:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("client %s too slow: disconnecting", self.player.id)
            self.close()

    def close(self, code: int = 1000) -> None:
        """Ask the socket's writer to close the connection (with ``code``)."""
        if not self.open:
            return
        self.open = False
        self.close_code = code
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


CLIENT_FORMS = {
    "declare": "declare CARDS",
    "pass": "pass",
    "bury": "bury CARDS",
    "play": "play CARDS",
    "call": "call NTH CARD",
    "bid": "bid TARGET",
    "trump": "trump SUIT",
}
"""The action forms a client may send, by verb: the engine's, less ``deal`` and the seat."""


def client_action(text: str, seat: int) -> Action:
    """Parse a client's action for ``seat`` (the seat comes from the session, never the
    message): ``client_action("play SA SA", 2)`` is ``Play(2, (12, 12))``; the text is the
    engine's action text without the seat (``parse_action("play 2 SA SA")``)."""
    parts = text.strip().split(None, 1)
    if not parts:
        raise NotationError("empty action")
    verb = parts[0].lower()
    rest = parts[1] if len(parts) > 1 else ""
    usage = "use " + ", ".join(f"'{f}'" for f in CLIENT_FORMS.values())
    form = CLIENT_FORMS.get(verb)
    if form is None or (form != verb and not rest):
        raise NotationError(f"bad action {text!r}: {usage}")
    try:
        return parse_action(f"{verb} {seat} {rest}".strip())
    except NotationError as e:
        why = f"{e.message}; " if not e.message.startswith("bad action") else ""
        raise NotationError(f"bad action {text!r}: {why}{usage}") from e


# --------------------------------------------------------------------------- the log


VIEW_KEEP = 64
"""The newest log entries that keep their match state, to render each seat's ``game`` for
a client resuming that recently; older ``update``s are resent without it (the client then
asks for a snapshot)."""


class Entry:
    """One sequenced message. An ``update`` is rendered per viewer (its visible events and,
    while ``match`` is kept, that viewer's whole view); other messages once for all."""

    __slots__ = ("audience", "events", "match", "msg", "seq", "shared")

    def __init__(
        self,
        seq: int,
        msg: wire.ServerMsg,
        events: list[tuple[int | None, dict[str, Any]]] | None = None,
        audience: int | None = None,
        match: MatchState | None = None,
    ) -> None:
        self.seq = seq
        self.msg = msg
        self.events = events
        self.audience = audience
        self.match = match
        self.shared: bytes | None = None

    @property
    def per_seat(self) -> bool:
        """Whether viewers in different seats get different bytes."""
        return self.events is not None

    def data_for(self, seat: int | None) -> bytes:
        """The message as ``seat`` (None: a spectator) may see it."""
        msg = self.msg
        if not self.per_seat or not isinstance(msg, wire.Update):
            if self.shared is None:
                self.shared = wire.encode(msg)
            return self.shared
        assert self.events is not None
        evs = [e for aud, e in self.events if aud is None or aud == seat]
        game = None if self.match is None else game_view(self.match, seat)
        return wire.encode(msgspec.structs.replace(msg, events=evs, game=game))


# --------------------------------------------------------------------------- seats


@dataclass
class Seat:
    """Who holds a seat: nobody, a human player or a bot (by registry name)."""

    kind: str = "empty"
    player: str | None = None
    name: str | None = None
    bot: str | None = None
    ready: bool = False


Command = tuple[Any, ...]


class Room:
    """One table: ``Room(...)``, then ``restore(...)`` after a restart, then ``start()``."""

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
    ) -> None:
        self.rid = rid
        self.code = code
        self.preset = preset
        self.ruleset = ruleset
        self.seed = seed
        self.private = private
        self.max_deals = max_deals
        self.settings = settings
        self.store = store
        self.bots = bots
        self.seats = [Seat() for _ in range(ruleset.players)]
        self.status = "waiting"
        self.match_no = 0
        self.drawn_seed: str | None = None
        """The current match's secret seed (server/seeds.py); None between matches."""
        self.match: MatchState | None = None
        self.actions: list[str] = []
        self.version = 0
        self.seq = 0
        self.log: deque[Entry] = deque()
        self.log_floor = 0
        self.chat: deque[dict[str, Any]] = deque(maxlen=settings.chat_keep)
        self.chat_untrimmed = 0
        """Chat lines logged since the database's old lines were last deleted."""
        self.conns: set[Conn] = set()
        self.absent_since: dict[int, float] = {}
        self.bot_objs: dict[int, Bot] = {}
        self.bot_version = -1
        self.next_deal_at = 0.0
        self.pause_until = 0.0
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.rng = random.Random()
        self.task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._tick_posted = False
        self._finish_pending = False
        self.applied = 0
        self.stakes: StakeRules = PLAIN
        """What the room plays for (server/stakes.py); the lobby sets it."""
        self.rosters: dict[int, list[str | None]] = {}
        """Per deal of the match, who is settled for it: the players seated when its first
        card was dealt (server/stakes.py ``fix_roster``)."""
        self.writes = DurableWrites(
            f"room {code[:6]}",
            self._storage_paused,
            self._storage_resumed,
            settings.storage_retry_first_s,
            settings.storage_retry_max_s,
        )
        """Every write of the room: retried until durable (server/write_faults.py)."""
        self._joined_in_pause: set[Conn] = set()
        self.sent_seq = 0
        """The ``seq`` of the last sequenced message sent (``seq`` may be one ahead of it
        while that message waits for its write)."""
        self.owner: str | None = None
        """The player who created the room (server/owners.py); the lobby sets it."""
        self.presence = PresenceBoard()
        self._presence_timer: asyncio.TimerHandle | None = None
        self.unattended_since: float | None = None
        """Since when nobody is connected (server/expiry.py closes a room left so)."""
        self.closed = False
        self.failed: str | None = None
        """Why the room was stopped and quarantined (server/quarantine.py); None: running."""
        self.on_failure: Callable[[Room], None] | None = None
        """Called once when the room fails (the lobby forgets it)."""
        self.vote: DealVote | None = None
        """The open proposal to deal the current deal again (issue 14; server/votes.py)."""

    # ------------------------------------------------------------------ state in the DB

    def room_state(self) -> dict[str, Any]:
        """What the ``rooms`` row keeps: seating, status, match number."""
        state: dict[str, Any] = {
            "seats": [asdict(s) for s in self.seats],
            "status": self.status,
            "match_no": self.match_no,
        }
        if self.drawn_seed is not None:
            state["match_seed"] = self.drawn_seed  # the row is never sent to clients
        if self.rosters:
            state["rosters"] = {str(k): v for k, v in self.rosters.items()}
        return state

    def restore(self, state: dict[str, Any], last_seq: int, actions: list[str]) -> None:
        """Put a new room back as it was: seating from its row, the match replayed from its
        logged actions (the engine is deterministic: ruleset + seed + actions)."""
        room = self  # (reads as the room being put back)
        room.seats = [Seat(**s) for s in state.get("seats", [])] or room.seats
        room.status = str(state.get("status", "waiting"))
        room.match_no = int(state.get("match_no", 0))
        drawn = state.get("match_seed")
        room.drawn_seed = str(drawn) if drawn is not None and room.status == "playing" else None
        room.rosters = rosters_from_state(state) if room.status == "playing" else {}
        room.seq = room.sent_seq = last_seq
        room.log_floor = last_seq + 1  # the log is gone: clients from before get a snapshot
        if room.status == "playing":
            m = MatchState.new(room.ruleset, room.match_seed())
            for text in actions:
                m, _ = m.apply_in_place(parse_match_action(text))  # nobody else holds it yet
            room.match = m
            room.actions = list(actions)
            room.version = len(actions)
            now = asyncio.get_running_loop().time()
            for i, s in enumerate(room.seats):
                if s.kind == "human":
                    room.absent_since[i] = now
            room._finish_pending = room._match_done()

    def match_seed(self) -> str:
        """The seed of the current match (secret until the match is over)."""
        return match_seed(self.seed, self.match_no, self.drawn_seed)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the room's task."""
        self.unattended_since = self._now()  # until someone connects
        self.task = asyncio.create_task(self.run(), name=f"room-{self.code[:6]}")

    async def stop(self) -> None:
        """Stop the task, timers and bot moves in flight; whoever is still joining is told
        the room has closed."""
        if self.task is None:
            return
        self.writes.stop()  # a write failing now is given up (it was never sent)
        self.inbox.put_nowait(("stop",))
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        self.task = None
        self.closed = True
        while not self.inbox.empty():
            cmd = self.inbox.get_nowait()
            if cmd[0] == "join":
                self._refuse_closed(cmd[1])
                cmd[3].set_result(None)
            elif cmd[0] == "expire":
                cmd[1].set_result(False)
        for handle in (self._timer, self._presence_timer):
            if handle is not None:
                handle.cancel()
        for t in list(self._tasks):
            t.cancel()
        while not self.inbox.empty():  # joins the room will not answer now: let them go
            cmd = self.inbox.get_nowait()
            if cmd[0] == "join" and not cmd[3].done():
                cmd[1].close()
                cmd[3].set_result(None)
        for c in [*self.conns, *self._joined_in_pause]:
            c.close()

    async def run(self) -> None:
        """Handle the inbox one command at a time. A command that raises anything but a
        storage error is a bug: the room is stopped and quarantined after one logged error
        (``_fail``), never retried in a loop; the other rooms go on."""
        try:
            await settle_deals(self)  # stakes of deals a crash left unsettled (idempotent)
            if self._finish_pending:
                self._finish_pending = False
                await self._finish_match()
            self._schedule()
        except Exception as exc:
            if not is_storage_error(exc):
                await self._fail(exc, "start")
                return
            log.exception("room %s: could not settle or finish on start", self.code[:6])
        while True:
            cmd = await self.inbox.get()
            if cmd[0] == "stop":
                return
            if cmd[0] == "expire":  # server/expiry.py: close if still nobody is here
                if self.conns:
                    cmd[1].set_result(False)
                    continue
                self.closed = True
                cmd[1].set_result(True)
                return
            try:
                await self._handle(cmd)
                self._schedule()
            except WritesStopped:
                return
            except Exception as exc:
                if cmd[0] == "join" and not cmd[3].done():
                    cmd[3].set_result(None)
                if not is_storage_error(exc):
                    await self._fail(exc, str(cmd[0]))
                    return
                log.exception("room %s: command %s failed", self.code[:6], cmd[0])
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
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for t in list(self._tasks):
            t.cancel()
        for c in list(self.conns):
            self._error(c, "room-failed", "this room stopped after an internal error")
            c.close()
        self.conns.clear()
        while not self.inbox.empty():  # nobody waits on a join that is never handled
            cmd = self.inbox.get_nowait()
            if cmd[0] == "join":
                cmd[1].close()
                cmd[3].set_result(None)
        await quarantine(self.store, self.rid, self.code, why)
        if self.on_failure is not None:
            self.on_failure(self)

    # entry points for other tasks (the socket handlers)

    async def join(self, conn: Conn, last_seq: int | None) -> None:
        """Register a connection; it gets a welcome, then missed messages or a snapshot."""
        if self.closed:
            self._refuse_closed(conn)
            return
        if self.failed is not None:
            self._error(conn, "room-failed", "this room stopped after an internal error")
            conn.close()
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.writes.paused:  # the room answers once its writes succeed again
            self._joined_in_pause.add(conn)
            conn.send(wire.encode(wire.Paused(seq=self.sent_seq, reason="storage")))
        self.inbox.put_nowait(("join", conn, last_seq, fut))
        await fut

    async def expire(self) -> bool:
        """Close the room if nobody is connected when its task gets to it (True: closed;
        the lobby then stops it)."""
        if self.closed or self.task is None or self.task.done():
            return False
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(("expire", fut))
        return await fut

    def _refuse_closed(self, conn: Conn) -> None:
        self._error(conn, "no-room", "the room has closed")
        conn.close(4404)

    def submit(self, conn: Conn, msg: wire.ClientMessage) -> None:
        """A message from a client."""
        self.inbox.put_nowait(("msg", conn, msg))

    def add_bot(self, seat: int, name: str) -> None:
        """Seat a bot in an empty seat (the HTTP API's ``bots`` when creating a room)."""
        self.inbox.put_nowait(("add_bot", seat, name))

    def gone(self, conn: Conn) -> None:
        """A connection closed."""
        self.inbox.put_nowait(("gone", conn))

    # ------------------------------------------------------------------ timers and bots

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        t = asyncio.create_task(self._guarded(coro))
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    async def _guarded(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a helper task (a bot's turn, a hint); what it raises fails the room through
        the inbox, like a failing command."""
        try:
            await coro
        except Exception as exc:
            self.inbox.put_nowait(("crash", exc))

    def _post_tick(self) -> None:
        if not self._tick_posted:
            self._tick_posted = True
            self.inbox.put_nowait(("tick",))

    def _on_timer(self) -> None:
        self._timer = None
        self._post_tick()

    def _wake_at(self, t: float) -> None:
        if self._timer is not None:
            if self._timer_at <= t:
                return
            self._timer.cancel()
        self._timer_at = t
        self._timer = asyncio.get_running_loop().call_at(t, self._on_timer)

    def bot_controls(self, seat: int, now: float | None = None) -> bool:
        """Whether a bot moves for ``seat`` now (a bot seat, a vacated seat, or a human
        gone longer than the grace time)."""
        s = self.seats[seat]
        if s.kind != "human":
            return True
        gone = self.absent_since.get(seat)
        if gone is None:
            return False
        return (self._now() if now is None else now) - gone >= self.settings.seat_grace_s

    def _schedule(self) -> None:
        m = self.match
        if m is None or self.status != "playing" or m.is_over:
            return
        now = self._now()
        if self.pause_until > now:
            self._wake_at(self.pause_until)
            return
        actor = m.to_act
        if actor is None:
            return
        if actor == SYSTEM:
            if self.next_deal_at <= now:
                self._post_tick()
            else:
                self._wake_at(self.next_deal_at)
            return
        if self.bot_controls(actor, now):
            if self.bot_version != self.version:
                self.bot_version = self.version
                self._spawn(self._bot_turn(self.version, actor, m))
        else:
            gone = self.absent_since.get(actor)
            if gone is not None:
                self._wake_at(gone + self.settings.seat_grace_s)

    def _bot_for(self, seat: int) -> Bot:
        bot = self.bot_objs.get(seat)
        if bot is None:
            s = self.seats[seat]
            name = s.bot if s.kind == "bot" and s.bot else self.settings.substitute_bot
            bot = make_bot(name, f"{self.match_seed()}/{seat}")
            self.bot_objs[seat] = bot
        return bot

    async def _bot_turn(self, version: int, seat: int, m: MatchState) -> None:
        start = self._now()
        match_no = self.match_no
        action, bot = await self.bots.choose(self._bot_for(seat), m.deal, seat)
        if match_no == self.match_no:
            self.bot_objs[seat] = bot
        wait = self.settings.bot_delay_s - (self._now() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        self.inbox.put_nowait(("bot", version, seat, action))

    async def _bot_declare(self, seat: int, m: MatchState) -> None:
        match_no = self.match_no
        action, bot = await self.bots.choose(self._bot_for(seat), m.deal, seat)
        if match_no == self.match_no:
            self.bot_objs[seat] = bot
        if action is not None:
            self.inbox.put_nowait(("botdecl", match_no, seat, action))

    # ------------------------------------------------------------------ commands

    async def _handle(self, cmd: Command) -> None:
        kind = cmd[0]
        if kind == "tick":
            self._tick_posted = False
            await self._on_tick()
        elif kind == "msg":
            await self._on_msg(cmd[1], cmd[2])
        elif kind == "bot":
            await self._on_bot(cmd[1], cmd[2], cmd[3])
        elif kind == "botdecl":
            m = self.match
            if (
                m is not None
                and cmd[1] == self.match_no
                and m.deal.phase is Phase.DEALING
                and self.bot_controls(cmd[2])
                and m.deal.is_legal(cmd[3])
            ):
                await self._apply(cmd[3], None)
        elif kind == "join":
            self._on_join(cmd[1], cmd[2])
            cmd[3].set_result(None)
        elif kind == "gone":
            self._on_gone(cmd[1])
        elif kind == "add_bot":
            await self._on_add_bot(None, cmd[1], cmd[2])
        elif kind == "presence":
            self._presence_timer = None
            self.presence.flush(self.conns, self.seq)
        elif kind == "crash":
            raise cmd[1]

    async def _on_tick(self) -> None:
        m = self.match
        now = self._now()
        if m is None or self.status != "playing" or m.is_over:
            return
        if self.pause_until > now or m.to_act != SYSTEM or self.next_deal_at > now:
            return
        ok, events = await self._apply(Deal(), None)
        self.next_deal_at = self._now() + self.settings.deal_pacing_s
        if not ok or not events or not isinstance(events[0], CardDealt):
            return
        dealt = events[0]
        m = self.match
        if m is None or m.deal.phase is not Phase.DEALING:
            return
        if dealt.card < 52 and dealt.card % 13 != m.deal.level:
            return
        if self.bot_controls(dealt.seat, now) and m.deal.declarations_for(dealt.seat):
            self._spawn(self._bot_declare(dealt.seat, m))

    async def _on_bot(self, version: int, seat: int, action: Action | None) -> None:
        m = self.match
        if m is None or version != self.version or m.to_act != seat:
            return
        if not self.bot_controls(seat):
            self.bot_version = -1  # the player came back while the bot was thinking
            return
        if action is None or not m.deal.is_legal(action):
            if action is not None:
                log.warning("room %s: bot move %s refused", self.code[:6], action)
            action = fallback(m.deal, seat, self.rng)
            if action is None:
                return
        await self._apply(action, None)

    def _on_join(self, conn: Conn, last_seq: int | None) -> None:
        self._joined_in_pause.discard(conn)
        conn.seat = self._seat_of(conn.player.id)
        if conn.seat is None and conn.player.id != self.owner:  # players and the owner get in
            watching = sum(1 for c in self.conns if c.seat is None)
            if watching >= self.settings.max_spectators:
                self._error(
                    conn,
                    "room-full",
                    f"this room has {watching} spectators, the most it takes; try again later",
                )
                conn.close(4429)
                return
        self.conns.add(conn)
        self.unattended_since = None
        if conn.seat is not None:
            self.absent_since.pop(conn.seat, None)
        resume = last_seq is not None and self._can_resume(last_seq, conn.seat)
        conn.send(
            wire.encode(
                wire.Welcome(
                    seq=self.seq,
                    room=self.code,
                    player=conn.player.id,
                    name=conn.player.name,
                    seat=conn.seat,
                    resume=resume,
                )
            )
        )
        if resume:
            assert last_seq is not None
            for e in self.log:
                if e.seq > last_seq and e.audience is None:
                    conn.send(e.data_for(conn.seat))
        else:
            conn.send(self._snapshot(conn.seat))
        if self.vote is not None and self.vote.status == "open":
            conn.send(self._vote_msg(self.vote))
        self._presence()

    def _on_gone(self, conn: Conn) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        if not self.conns:
            self.unattended_since = self._now()
        seat = conn.seat
        if seat is not None and not any(c.seat == seat for c in self.conns):
            self.absent_since[seat] = self._now()
        self._presence()

    def _can_resume(self, last_seq: int, seat: int | None) -> bool:
        if last_seq < self.log_floor or last_seq > self.seq:
            return False
        return not any(
            e.audience is not None and e.audience == seat and e.seq >= last_seq for e in self.log
        )

    # ------------------------------------------------------------------ client messages

    def _error(self, conn: Conn, code: str, message: str) -> None:
        conn.send(wire.encode(wire.Error(seq=self.seq, code=code, message=message)))

    async def _on_msg(self, conn: Conn, msg: wire.ClientMessage) -> None:
        if conn not in self.conns:
            return
        if isinstance(msg, wire.Act):
            await self._on_act(conn, msg.action)
        elif isinstance(msg, wire.Ping):
            conn.send(wire.encode(wire.Pong(seq=self.seq)))
        elif isinstance(msg, wire.Hint):
            self._on_hint(conn, msg.bot)
        elif isinstance(msg, wire.Check):
            self._on_check(conn, msg.actions)
        elif isinstance(msg, wire.Sync):
            conn.send(self._snapshot(conn.seat))
        elif isinstance(msg, wire.Sit):
            await self._on_sit(conn, msg.seat)
        elif isinstance(msg, wire.Stand):
            await self._on_stand(conn)
        elif isinstance(msg, wire.AddBot):
            await self._on_add_bot(conn, msg.seat, msg.bot)
        elif isinstance(msg, wire.RemoveBot):
            await self._on_remove_bot(conn, msg.seat)
        elif isinstance(msg, wire.Unseat):
            await self._on_unseat(conn, msg.seat)
        elif isinstance(msg, wire.Ready):
            await self._on_ready(conn, msg.ready)
        elif isinstance(msg, wire.Chat):
            await self._on_chat(conn, msg.text)
        elif isinstance(msg, wire.Nudge):
            await self._on_nudge(conn)
        elif isinstance(msg, wire.Leave):
            await self._on_leave(conn)
        elif isinstance(msg, wire.ResetDeal):
            await self._on_reset_deal(conn)
        elif isinstance(msg, wire.Vote):
            await self._on_vote(conn, msg.yes)
        elif isinstance(msg, wire.EndMatch):
            await self._on_end_match(conn)
        else:
            self._error(conn, "bad-message", f"{type(msg).__name__.lower()} is not expected now")

    async def _on_act(self, conn: Conn, text: str) -> None:
        seat = conn.seat
        if seat is None:
            self._error(conn, "not-seated", "spectators cannot act")
            return
        if self.match is None or self.status != "playing":
            self._error(conn, "wrong-phase", "no match is being played")
            return
        try:
            action = client_action(text, seat)
        except ShengjiError as e:
            self._error(conn, e.reason.value, e.message)
            return
        await self._apply(action, conn)

    def _on_hint(self, conn: Conn, bot: str | None = None) -> None:
        seat, m = conn.seat, self.match
        action: Action | None = None
        if seat is not None and m is not None and not m.is_over:
            legal = m.legal_actions(seat)
            if legal:
                if m.deal.phase is Phase.DEALING:
                    action = legal.small[0] if legal.small else None
                elif bot:
                    if bot not in HINT_BOTS:
                        self._error(conn, "unknown-bot", f"hints come from {', '.join(HINT_BOTS)}")
                        return
                    if not conn.hinting:  # one at a time per connection
                        conn.hinting = True
                        adviser = make_bot(bot, f"{self.match_seed()}/hint/{seat}")
                        self._spawn(self._bot_hint(conn, adviser, m, seat))
                    return
                else:
                    action = legal.sample(self.rng)
        self._send_hint(conn, action)

    def _send_hint(self, conn: Conn, action: Action | None) -> None:
        text = None if action is None else action_text(action)
        conn.send(wire.encode(wire.HintMsg(seq=self.seq, action=text)))

    async def _bot_hint(self, conn: Conn, adviser: Bot, m: MatchState, seat: int) -> None:
        """A bot's suggestion for ``seat`` (thought off the loop, within the bot budget)."""
        try:
            action, _ = await self.bots.choose(adviser, m.deal, seat)
        finally:
            conn.hinting = False
        self._send_hint(conn, action)

    def _on_check(self, conn: Conn, actions: list[str]) -> None:
        """Dry-run ``actions`` for the connection's seat; nothing changes. The answer comes
        from what the seat may know (``core.dry_run``): a throw is ``ok`` with the note
        ``"throw"`` (checked against the other hands only when played), never its fate."""
        seat, m = conn.seat, self.match
        results: list[dict[str, Any]] = []
        for text in actions[:16]:
            code: str | None = None
            message: str | None = None
            note: str | None = None
            if seat is None:
                code, message = "not-seated", "spectators cannot act"
            elif m is None or self.status != "playing":
                code, message = "wrong-phase", "no match is being played"
            else:
                try:
                    note = dry_run(m.deal, client_action(text, seat))
                except ShengjiError as e:
                    code, message = e.reason.value, e.message
            results.append(
                {"action": text, "ok": code is None, "code": code, "message": message, "note": note}
            )
        conn.send(wire.encode(wire.Checked(seq=self.seq, results=results)))

    def _check_seat_no(self, conn: Conn, seat: int) -> bool:
        if not 0 <= seat < len(self.seats):
            self._error(conn, "bad-seat", f"seats are 0..{len(self.seats) - 1}")
            return False
        return True

    async def _on_sit(self, conn: Conn, seat: int) -> None:
        if not self._check_seat_no(conn, seat):
            return
        if conn.seat == seat:
            return
        if conn.seat is not None and self.status == "playing":
            self._error(conn, "wrong-phase", "you cannot change seats during a match")
            return
        if self.seats[seat].kind != "empty":
            self._error(conn, "seat-taken", f"seat {seat} is taken")
            return
        if conn.seat is not None:
            self.seats[conn.seat] = Seat()
        self.seats[seat] = Seat("human", conn.player.id, conn.player.name)
        self.absent_since.pop(seat, None)
        self.bot_objs.pop(seat, None)
        self._reseat()
        await self._emit_room()

    async def _on_stand(self, conn: Conn) -> None:
        if conn.seat is None:
            return
        if self.status == "playing":
            self._error(conn, "wrong-phase", "a match is running: use leave")
            return
        self.seats[conn.seat] = Seat()
        self._reseat()
        await self._emit_room()

    def _owner_only(self, conn: Conn, what: str) -> bool:
        """True if ``conn`` has the owner's rights; otherwise it is told why not."""
        if may_manage(self.owner, conn.player.id):
            return True
        self._error(conn, NOT_OWNER, refusal(what))
        return False

    async def _on_add_bot(self, conn: Conn | None, seat: int, name: str) -> None:
        if conn is not None and not self._owner_only(conn, "add bots"):
            return
        if not 0 <= seat < len(self.seats):
            if conn is not None:
                self._error(conn, "bad-seat", f"seats are 0..{len(self.seats) - 1}")
            return
        try:
            name = server_bot(name, self.settings.bot_budget_s)  # known, finite, bounded
        except ValueError as e:
            if conn is not None:
                self._error(conn, "unknown-bot", str(e))
            return
        if self.seats[seat].kind != "empty":
            if conn is not None:
                self._error(conn, "seat-taken", f"seat {seat} is taken")
            return
        self.seats[seat] = Seat("bot", None, name, name, True)
        self.bot_objs.pop(seat, None)
        await self._emit_room()
        await self._maybe_start()

    async def _on_remove_bot(self, conn: Conn, seat: int) -> None:
        if not self._owner_only(conn, "remove bots") or not self._check_seat_no(conn, seat):
            return
        if self.seats[seat].kind != "bot":
            self._error(conn, "bad-seat", f"no bot in seat {seat}")
            return
        if self.status == "playing":
            self._error(conn, "wrong-phase", "bots stay until the match ends")
            return
        self.seats[seat] = Seat()
        await self._emit_room()

    async def _on_unseat(self, conn: Conn, seat: int) -> None:
        """The owner moves a human out of a seat (between matches); they stay to watch."""
        if not self._owner_only(conn, "move players out of seats"):
            return
        if not self._check_seat_no(conn, seat):
            return
        if self.seats[seat].kind != "human":
            self._error(conn, "bad-seat", f"no player in seat {seat}")
            return
        if self.status == "playing":
            self._error(conn, "wrong-phase", "players keep their seats until the match ends")
            return
        self.seats[seat] = Seat()
        self.absent_since.pop(seat, None)
        self._reseat()
        await self._emit_room()

    async def _on_ready(self, conn: Conn, ready: bool) -> None:
        if conn.seat is None:
            self._error(conn, "not-seated", "take a seat first")
            return
        self.seats[conn.seat].ready = ready
        await self._emit_room()
        await self._maybe_start()

    async def _on_chat(self, conn: Conn, text: str) -> None:
        text = text.strip()
        most = self.settings.chat_max_chars
        if not text or len(text) > most:
            self._error(conn, "bad-chat", f"chat lines are 1..{most} characters")
            return
        self.seq += 1
        msg = wire.ChatLine(
            seq=self.seq, player=conn.player.id, name=conn.player.name, seat=conn.seat, text=text
        )
        self.chat.append(
            {"seq": self.seq, "name": conn.player.name, "seat": conn.seat, "text": text}
        )
        await self._emit(msg, "chat", json.dumps({"player": conn.player.id, "text": text}))
        self.chat_untrimmed += 1
        keep = self.settings.chat_keep
        if len(self.chat) == keep and self.chat_untrimmed >= max(1, keep // 2):
            self.chat_untrimmed = 0
            self._spawn(self._trim_chat(int(self.chat[0]["seq"])))

    async def _trim_chat(self, before_seq: int) -> None:
        """Delete the chat lines the room no longer keeps from the database too."""
        try:
            await self.store.trim_chat(self.rid, before_seq)
        except Exception:
            log.warning("room %s: could not delete old chat lines", self.code[:6], exc_info=True)

    async def _on_nudge(self, conn: Conn) -> None:
        m = self.match
        now = self._now()
        actor = None if m is None else m.to_act
        if actor is None or actor < 0 or self.seats[actor].kind != "human":
            self._error(conn, "wrong-phase", "nobody to nudge")
            return
        if now - conn.last_nudge < 5.0:
            self._error(conn, "rate-limited", "one nudge every 5 seconds")
            return
        conn.last_nudge = now
        self.seq += 1
        await self._emit(wire.NudgeMsg(seq=self.seq, by=conn.player.name, to=actor), "nudge", "")

    async def _on_leave(self, conn: Conn) -> None:
        if conn.seat is not None:
            self.seats[conn.seat] = Seat()  # a bot plays it if a match is running
            self.bot_objs.pop(conn.seat, None)
            self._reseat()
            await self._emit_room()
        conn.close()

    # ------------------------------------------------------------------ the owner's table
    # Issue 14: the owner may have the current deal dealt again by vote, or end the match
    # early. Three small handlers on top of ``_apply`` and ``_finish_match``.

    def _vote_msg(self, vote: DealVote) -> bytes:
        return wire.encode(wire.VoteMsg(seq=self.seq, **vote.wire()))

    def _send_vote(self, vote: DealVote) -> None:
        data = self._vote_msg(vote)
        for c in list(self.conns):
            c.send(data)

    def _current_vote(self) -> DealVote | None:
        """The open vote, made void if its deal (or match) is over."""
        vote, m = self.vote, self.match
        if vote is None or vote.status != "open":
            return None
        if m is None or vote.match_no != self.match_no or vote.deal_no != m.deal.deal_no:
            vote.void()
            self._send_vote(vote)
            self.vote = None
            return None
        return vote

    async def _on_reset_deal(self, conn: Conn) -> None:
        """The owner proposes to deal the current deal again; the seated players vote."""
        if not self._owner_only(conn, "reset a deal"):
            return
        m = self.match
        if m is None or self.status != "playing" or m.is_over:
            self._error(conn, "wrong-phase", "no deal is being played")
            return
        if self._current_vote() is not None:
            self._error(conn, "wrong-phase", "a vote on resetting this deal is already open")
            return
        now = self._now()
        voters = tuple(
            i
            for i, s in enumerate(self.seats)
            if s.kind == "human" and not self.bot_controls(i, now)
        )
        vote = DealVote.open(self.match_no, m.deal.deal_no, conn.player.name, conn.seat, voters)
        self.vote = vote
        self._send_vote(vote)
        if vote.status == "passed":
            await self._redeal()

    async def _on_vote(self, conn: Conn, yes: bool) -> None:
        """A seated player's answer to the open proposal."""
        vote = self._current_vote()
        if vote is None:
            self._error(conn, "wrong-phase", "there is no open vote")
            return
        if conn.seat is None or conn.seat not in vote.voters:
            self._error(conn, "not-seated", "only the seated players vote")
            return
        status = vote.answer(conn.seat, yes)
        self._send_vote(vote)
        if status == "passed":
            await self._redeal()
        elif status != "open":
            self.vote = None

    async def _redeal(self) -> None:
        """Deal the current deal again (the vote passed): a logged ``redeal`` action."""
        self.vote = None
        ok, _ = await self._apply(Redeal(), None)
        if ok:
            self.bot_objs = {}  # bots forget the old cards
            self.next_deal_at = self._now()
            self.pause_until = 0.0

    async def _on_end_match(self, conn: Conn) -> None:
        """The owner ends the match now; the record keeps what was played."""
        if not self._owner_only(conn, "end the match"):
            return
        if self.match is None or self.status != "playing":
            self._error(conn, "wrong-phase", "no match is being played")
            return
        if self.vote is not None:
            self.vote.void()
            self._send_vote(self.vote)
            self.vote = None
        await self._finish_match(early=True)

    # ------------------------------------------------------------------ seats and matches

    def _seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.player == player_id:
                return i
        return None

    def _reseat(self) -> None:
        for c in self.conns:
            c.seat = self._seat_of(c.player.id)
        self._presence()

    async def _maybe_start(self) -> None:
        if self.status != "waiting":
            return
        if any(s.kind == "empty" or (s.kind == "human" and not s.ready) for s in self.seats):
            return
        self.match_no += 1
        self.status = "playing"
        self.drawn_seed = new_match_seed()  # durable with the room row before any card
        self.rosters = {}
        self.match = MatchState.new(self.ruleset, self.match_seed())
        self.actions = []
        self.version += 1
        self.bot_objs = {}
        now = self._now()
        self.next_deal_at = now
        self.pause_until = 0.0
        for i, s in enumerate(self.seats):
            if s.kind == "human" and not any(c.seat == i for c in self.conns):
                self.absent_since[i] = now
        await self._emit_room()
        self.seq += 1
        started = self.match.deal.started_event()
        await self._emit(
            self._update_msg(self.seq),
            "deal",
            "",
            events=[(None, wire.render_event(started))],
            match=self.match,
        )

    def _match_done(self) -> bool:
        m = self.match
        if m is None:
            return False
        return m.is_over or (self.max_deals is not None and len(m.history) >= self.max_deals)

    async def _finish_match(self, early: bool = False) -> None:
        m = self.match
        assert m is not None
        result = record_result(m)
        rec = GameRecord(
            self.ruleset.to_dict(),
            self.match_seed(),
            None,
            list(self.actions),
            result,
            [s.name or s.kind for s in self.seats],
        )
        humans = [(i, s.player) for i, s in enumerate(self.seats) if s.kind == "human"]
        players = [(i, p) for i, p in humans if p]
        gid = await self.writes.write(
            lambda: self.store.save_game(self.rid, self.match_no, rec.to_json(), players)
        )
        self.status = "waiting"
        self.match = None
        self.drawn_seed = None  # revealed in the record; the next match draws its own
        self.rosters = {}
        self.version += 1
        for s in self.seats:
            if s.kind == "human":
                s.ready = False
        self.absent_since.clear()
        self.seq += 1
        await self._emit(
            wire.MatchOver(seq=self.seq, game=gid, result=result, early=early),
            "match_over",
            json.dumps({"game": gid}),
            persist=True,
        )
        await self._emit_room()

    # ------------------------------------------------------------------ applying actions

    def _team_levels(self) -> list[str]:
        m = self.match
        if m is None:
            return []
        return [LEVELS[self.ruleset.level_sequence[i]] for i in m.team_levels]

    def _seat_levels(self) -> list[str]:
        m = self.match
        if m is None:
            return []
        return [LEVELS[self.ruleset.level_sequence[i]] for i in m.levels]

    def _update_msg(self, seq: int) -> wire.Update:
        m = self.match
        assert m is not None
        return wire.Update(
            seq=seq,
            events=[],
            phase=m.deal.phase.value,
            to_act=m.to_act,
            deal_no=m.deal.deal_no,
            match_no=self.match_no,
            team_levels=self._team_levels(),
            seat_levels=self._seat_levels(),
        )

    async def _apply(self, action: MatchAction, conn: Conn | None) -> tuple[bool, list[Event]]:
        """Check, log (before anyone hears of it), then broadcast one game action."""
        started = time.perf_counter()
        m = self.match
        assert m is not None
        try:
            new, events = m.apply(action)
        except ShengjiError as e:
            if conn is not None:
                self._error(conn, e.reason.value, e.message)
            return False, []
        public = any(e.audience is None for e in events)
        seq = self.seq + 1 if public else self.seq
        text = str(action)
        first_card = isinstance(action, Deal) and m.deal.n_dealt == 0
        if first_card:  # who is settled for this deal: the seats now (decision 130)
            fix_roster(self, m.deal.deal_no)
        state = self.room_state() if first_card else None
        try:  # a storage fault is retried until durable: nothing is sent before
            await self.writes.write(
                lambda: self.store.log(self.rid, seq, self.match_no, "action", text, state)
            )
        except WritesStopped:
            raise
        except Exception:
            log.exception("room %s: could not log %s", self.code[:6], text)
            if conn is not None:
                self._error(conn, "storage", "the server could not record that; try again")
            return False, []
        self.seq = seq
        self.match = new
        self.version += 1
        self.applied += 1
        self.actions.append(text)
        rendered = [(e.audience, wire.render_event(e)) for e in events]
        if any(isinstance(e, DealEnded) for e in events) and not isinstance(action, Redeal):
            summary = deal_summary(finished_deal(m, action, new), new)
            for _, ev in rendered:
                if ev["type"] == "deal_ended":
                    ev["summary"] = summary
        audience = None if public else (events[0].audience if events else None)
        self._publish(Entry(seq, self._update_msg(seq), rendered, audience, new))
        metrics.action_applied(time.perf_counter() - started)
        if any(isinstance(e, DealEnded) for e in events):
            self.pause_until = self._now() + self.settings.deal_end_pause_s
            if new.history:
                await self._settle(new.history[-1].deal_no)  # ratings / coins, once
        if self._match_done():
            await self._finish_match()
        return True, events

    async def _settle(self, deal_no: int) -> None:
        """Settle the deal that just ended (and any earlier one left over) and tell the
        room what the deal ``deal_no`` did to each seat (a ``settled`` message)."""
        try:  # settling twice changes nothing: a storage fault is retried
            deals = await self.writes.write(lambda: settle_unsettled(self))
        except WritesStopped:
            raise
        except Exception:
            log.exception("room %s: stakes not settled (retried on restart)", self.code[:6])
            deals = []
        for d in deals:
            if d.deal_no != deal_no:
                continue
            s = d.settlement
            self.seq += 1
            msg = wire.Settled(
                seq=self.seq,
                match_no=self.match_no,
                deal_no=d.deal_no,
                kind=self.stakes.kind,
                settled=s is not None,
                deltas=d.wire_deltas(),
                players=list(d.players),
                reason="" if s is None else s.reason,
                base=0 if s is None else s.base,
                multiplier=1 if s is None else s.multiplier,
            )
            await self._emit(msg, "settled", msgspec.json.encode(msg).decode())

    async def _emit(
        self,
        msg: wire.ServerMsg,
        kind: str,
        data: str,
        events: list[tuple[int | None, dict[str, Any]]] | None = None,
        persist: bool = False,
        match: MatchState | None = None,
    ) -> None:
        """Log one sequenced message (``self.seq`` already advanced), then send it."""
        seq, state = self.seq, self.room_state() if persist else None
        await self.writes.write(
            lambda: self.store.log(self.rid, seq, self.match_no, kind, data, state)
        )
        self._publish(Entry(self.seq, msg, events, match=match))

    async def _emit_room(self) -> None:
        self.seq += 1
        await self._emit(wire.RoomUpdate(seq=self.seq, room=self.info()), "room", "", persist=True)

    def _storage_paused(self, reason: str) -> None:
        """A write failed: tell every client the table waits (nothing was lost)."""
        data = wire.encode(wire.Paused(seq=self.sent_seq, reason=reason))
        for c in list(self.conns):
            c.send(data)

    def _storage_resumed(self, _took_s: float) -> None:
        """Writes succeed again: the table goes on (the held message follows at once)."""
        data = wire.encode(wire.Resumed(seq=self.sent_seq))
        for c in [*self.conns, *self._joined_in_pause]:
            c.send(data)
        self._joined_in_pause.clear()

    def _publish(self, entry: Entry) -> None:
        self.sent_seq = entry.seq
        self.log.append(entry)
        while len(self.log) > self.settings.log_size:
            self.log_floor = self.log.popleft().seq
        if len(self.log) > VIEW_KEEP:
            self.log[-VIEW_KEEP - 1].match = None
        rendered: dict[int | None, bytes] = {}
        for c in list(self.conns):
            if entry.audience is None or c.seat == entry.audience:
                data = rendered.get(c.seat)
                if data is None:
                    data = rendered[c.seat] = entry.data_for(c.seat)
                c.send(data)

    # ------------------------------------------------------------------ views

    def info(self) -> wire.RoomInfo:
        """The room as the lobby shows it."""
        connected = {c.seat for c in self.conns if c.seat is not None}
        now = self._now()
        playing = self.status == "playing"
        return wire.RoomInfo(
            code=self.code,
            preset=self.preset,
            ruleset=self.ruleset.to_dict(),
            status=self.status,
            match_no=self.match_no,
            max_deals=self.max_deals,
            private=self.private,
            seats=[
                wire.SeatInfo(
                    seat=i,
                    kind=s.kind,
                    name=s.name,
                    player=s.player,
                    bot=s.bot,
                    ready=s.ready,
                    connected=i in connected,
                    substitute=playing and s.kind != "bot" and self.bot_controls(i, now),
                )
                for i, s in enumerate(self.seats)
            ],
            spectators=sum(1 for c in self.conns if c.seat is None),
            stakes=stakes_info(self.stakes),
            teams=list(fixed_teams(self.ruleset)),
            owner=self.owner,
        )

    def _snapshot(self, seat: int | None) -> bytes:
        m = self.match
        game = None if m is None else game_view(m, seat)
        return wire.encode(
            wire.Snapshot(seq=self.seq, room=self.info(), game=game, chat=list(self.chat))
        )

    def _presence(self) -> None:
        """Presence changed: flush it soon, once for every change until then."""
        if self._presence_timer is None:
            self._presence_timer = asyncio.get_running_loop().call_later(
                self.settings.presence_interval_s, self.inbox.put_nowait, ("presence",)
            )
