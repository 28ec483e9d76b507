"""The owner's side of routing: clients of this process's rooms whose sockets are
on other processes.

While a room runs here, ``Host.hold`` listens to its channel. An edge's ``Open`` starts a
*guest*: the same session a local socket gets (``sockets.serve_client``: hello, sign-in,
rate and size limits, the room's messages), fed from the channel, whose ``Conn`` is a
``RemoteConn``: what the room sends it is published to the edge's channel (``Out``), a
close is a ``Shut``. A guest ends when its edge says ``Left``, when its edge's channel has
no listener any more (the edge process died: checked every ``SWEEP_S``, and whenever a
``PUBLISH`` reaches nobody), when the room stops here, or when the Redis link is lost.
The table sees an ordinary connection coming and going: seats, presence, away marks and
chat work as for a local socket.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import msgspec

from shengji.server import metrics
from shengji.server.cluster import route_wire as rw
from shengji.server.cluster.bus import Bus
from shengji.server.live.conn import Conn
from shengji.server.live.rooms import Room
from shengji.server.live.sockets import serve_client
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.store.storage import Store
from shengji.server.tasks import cancel_and_wait
from shengji.server.wire import messages as wire

log = logging.getLogger("shengji.server.route")

SWEEP_S = 2.0
"""How often the edges of this process's guests are checked for a listener."""

Answerer = Callable[[Room | None, str, str | None], tuple[int, bytes]]
"""Answers an ``Ask`` from the live room: ``(room, op, player id) -> (status, JSON body)``."""
Loader = Callable[[str], Awaitable[Room | None]]
"""The room of a code, reloaded if it was unloaded while idle (``Lobby.load``)."""


class RemoteConn(Conn):
    """A client on another process: sends are published to its edge."""

    def __init__(self, player: Player, bus: Bus, edge: str, key: bytes, guest: Guest) -> None:
        super().__init__(player, 16)  # its buffer is not used: sends are published
        self.bus = bus
        self.channel = bus.edge_channel(edge)
        self.key = key
        self.guest = guest

    def send(self, data: bytes) -> None:
        """Publish ``data`` to the client's edge."""
        if self.open:
            self.bus.publish(self.channel, rw.Out(self.key, data), self.guest.edge_gone)

    def close(self, code: int = 1000) -> None:
        """Tell the edge to close the client's socket; the guest's session ends."""
        if not self.open:
            return
        self.open = False
        self.close_code = code
        self.bus.publish(self.channel, rw.Shut(self.key, code))
        self.guest.end()


class Guest:
    """One remote client's session (a task), fed by its edge's frames."""

    def __init__(self, host: Host, code: str, edge: str, key: bytes) -> None:
        self.host = host
        self.code = code
        self.edge = edge
        self.key = key
        self.frames: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.conn: RemoteConn | None = None
        self.task: asyncio.Task[None] | None = None

    # the session's Link

    async def refuse(self, msg: wire.ServerMsg, code: int) -> None:
        channel = self.host.bus.edge_channel(self.edge)
        self.host.bus.publish(channel, rw.Out(self.key, wire.encode(msg)))
        self.host.bus.publish(channel, rw.Shut(self.key, code))

    def connect(self, player: Player, batch: bool) -> Conn:
        self.conn = RemoteConn(player, self.host.bus, self.edge, self.key, self)
        return self.conn

    # its life

    async def run(self, first: bytes) -> None:
        h = self.host
        try:
            room = await h.load(self.code)
            if room is None:
                gone = wire.Error(seq=0, code="no-room", message="no such room")
                await self.refuse(gone, 4404)
                return
            await serve_client(
                self, first, self.frames.get, room, h.store, h.settings, h.auth_gate,
                lambda: h.load(self.code),
            )
        except Exception:
            log.exception("routed client of room %s failed", self.code[:6])
            if self.conn is not None:
                self.conn.close(1011)
        finally:
            h.guests.pop((self.edge, self.key), None)
            metrics.routed(owner=-1)

    def end(self) -> None:
        """The session ends (the room forgets the connection)."""
        self.frames.put_nowait(None)

    def edge_gone(self) -> None:
        """Nobody listens on the edge's channel: its process is gone."""
        if self.conn is not None:
            self.conn.open = False
        self.end()


class Host:
    """This process's rooms, reachable from other processes through Redis."""

    def __init__(
        self,
        bus: Bus,
        store: Store,
        settings: Settings,
        auth_gate: asyncio.Semaphore,
        answer: Answerer,
        load: Loader,
    ) -> None:
        self.bus = bus
        self.store = store
        self.settings = settings
        self.auth_gate = auth_gate
        self.answer = answer
        self.load = load
        self.guests: dict[tuple[str, bytes], Guest] = {}
        self.held: set[str] = set()
        """The rooms this process runs (loaded or unloaded while idle), by code."""
        self._asks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start checking that guests' edges are alive."""
        self._sweeper = asyncio.create_task(self._sweep(), name="route-host-sweep")

    async def stop(self) -> None:
        """Stop listening; every guest ends."""
        await cancel_and_wait(self._sweeper)
        for code in list(self.held):
            await self.release(code)

    async def hold(self, code: str) -> None:
        """Listen to room ``code``'s channel (it runs here now)."""
        self.held.add(code)
        await self.bus.listen(self.bus.room_channel(code), lambda p: self._inbox(code, p))

    async def release(self, code: str) -> None:
        """Stop listening to room ``code``'s channel; its guests end."""
        if code in self.held:
            self.held.discard(code)
            await self.bus.unlisten(self.bus.room_channel(code))
        for guest in [g for g in self.guests.values() if g.code == code]:
            if guest.conn is not None:
                guest.conn.close(1012)  # the room moved or closed: reconnect
            guest.end()

    def lost(self, why: str) -> None:
        """The Redis link is down: every guest ends (its client reconnects)."""
        for guest in list(self.guests.values()):
            if guest.conn is not None:
                guest.conn.open = False
            guest.end()

    def _inbox(self, code: str, payload: bytes) -> None:
        try:
            msgs = rw.decode(payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            log.warning("room %s: a bad routed message: %s", code[:6], e)
            return
        for m in msgs:
            match m:
                case rw.Open(conn=key, edge=edge, first=first):
                    guest = Guest(self, code, edge, key)
                    self.guests[(edge, key)] = guest
                    metrics.routed(owner=1)
                    guest.task = asyncio.create_task(guest.run(first), name="route-guest")
                case rw.Frame(conn=key, edge=edge, data=data):
                    g = self.guests.get((edge, key))
                    if g is not None:
                        g.frames.put_nowait(data)
                case rw.Left(conn=key, edge=edge):
                    g = self.guests.get((edge, key))
                    if g is not None:
                        if g.conn is not None:
                            g.conn.open = False
                        g.end()
                case rw.Ask(id=qid, edge=edge, op=op, player=player):
                    task = asyncio.create_task(self._ask(code, qid, edge, op, player))
                    self._asks.add(task)
                    task.add_done_callback(self._asks.discard)
                case _:
                    pass

    async def _ask(self, code: str, qid: bytes, edge: str, op: str, player: str | None) -> None:
        try:
            status, body = self.answer(await self.load(code), op, player)
        except Exception as e:
            log.exception("room %s: a routed question failed", code[:6])
            status, body = 500, msgspec.json.encode({"detail": type(e).__name__})
        self.bus.publish(self.bus.edge_channel(edge), rw.Answer(qid, status, body))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            edges = sorted({self.bus.edge_channel(e) for e, _ in self.guests})
            if not edges or not self.bus.up:
                continue
            try:
                heard = await self.bus.listeners(edges)
            except Exception:
                continue  # the link is down: ``lost`` ends the guests
            for guest in list(self.guests.values()):  # (one that came meanwhile: next time)
                if heard.get(self.bus.edge_channel(guest.edge)) == 0:
                    guest.edge_gone()
