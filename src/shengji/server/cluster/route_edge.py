"""The edge's side of routing: a client's socket here for a room another process
runs.

The edge keeps the socket and is a pipe: it checks that some process listens to the room's
channel, waits for the first frame, then publishes ``Open`` (with that frame), each later
``Frame`` and ``Left`` when the socket closes. What the owner publishes to this process's
channel goes into the socket's queue (``Out``: the same bounded queue a local client has,
so a slow reader is disconnected here), or closes it (``Shut``). Everything else (hello,
sign-in, limits, the table) happens at the owner, exactly as for a local client.

The client is disconnected, and reconnects with its ``last_seq`` as after any drop, when
the owner's channel has no listener any more (the owner died or gave the room up: close
code 1012, checked every ``SWEEP_S`` and whenever a ``PUBLISH`` reaches nobody) and when
the Redis link is lost (1013).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import msgspec
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from shengji.server import metrics
from shengji.server.cluster import route_wire as rw
from shengji.server.cluster.bus import Bus
from shengji.server.live.conn import Conn
from shengji.server.live.sockets import write_socket
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.tasks import cancel_and_wait
from shengji.server.wire import messages as wire

log = logging.getLogger("shengji.server.route")

SWEEP_S = 2.0
"""How often the rooms of this process's routed sockets are checked for a listener."""
ASK_S = 5.0
"""How long an HTTP question waits for the owner's answer."""

MOVED = 1012
"""Close code: the room's owner is gone (reconnect: another process adopts it)."""
UNAVAILABLE = 1013
"""Close code: try again later (the Redis link is down, or the room is between owners)."""

REDIS_DOWN = "this room is on another server and the link to it (Redis) is down; try again"
MOVING = "this room is between servers right now; try again in a moment"


class RouteDown(ConnectionError):
    """The room is elsewhere and cannot be reached now."""


class _Link:
    """A routed socket: its room and the queue its writer drains."""

    def __init__(self, code: str, conn: Conn) -> None:
        self.code = code
        self.conn = conn


class Edge:
    """Sockets of this process whose rooms run elsewhere."""

    def __init__(self, bus: Bus, settings: Settings) -> None:
        self.bus = bus
        self.settings = settings
        self.links: dict[bytes, _Link] = {}
        self.asks: dict[bytes, asyncio.Future[tuple[int, bytes]]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._twice: set[str] = set()

    def start(self) -> None:
        """Start checking that the routed rooms' owners are alive."""
        self._sweeper = asyncio.create_task(self._sweep(), name="route-edge-sweep")

    async def stop(self) -> None:
        """Close every routed socket."""
        await cancel_and_wait(self._sweeper)
        for link in list(self.links.values()):
            link.conn.close(MOVED)

    async def owned(self, code: str) -> bool:
        """Does some process run room ``code`` now? (RouteDown: cannot tell.)"""
        try:
            heard = await self.bus.listeners([self.bus.room_channel(code)])
        except Exception as e:
            raise RouteDown(REDIS_DOWN) from e
        return heard.get(self.bus.room_channel(code), 0) > 0

    async def serve(self, ws: WebSocket, code: str, first: str | bytes | None) -> None:
        """Pipe an accepted socket (whose first frame is ``first``) to room ``code``'s
        owner until either side closes."""
        batch = False  # the client reads batch frames (said so in its hello)?
        with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
            hello = wire.decode_client(first) if first is not None else None
            batch = isinstance(hello, wire.Hello) and hello.batch
        s = self.settings
        conn = Conn(Player(id=f"routed:{code[:6]}", name=""), s.send_queue, s.send_buffer_bytes,
                    batch)
        link = _Link(code, conn)
        key = rw.new_key()  # unguessable: the owner acts on what comes under it
        self.links[key] = link
        metrics.routed(edge=1)
        writer = asyncio.create_task(write_socket(ws, conn))
        channel = self.bus.room_channel(code)
        gone = _Closer(conn, MOVED)
        cap = self.settings.max_message_bytes + 1  # longer: cut, the owner says too-big
        try:
            self.bus.publish(channel, rw.Open(key, self.bus.instance, _bytes(first)), gone)
            while conn.open:
                try:
                    message = await ws.receive()
                except WebSocketDisconnect:
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text, data = message.get("text"), message.get("bytes")
                raw = text.encode() if text is not None else data
                if raw is None:
                    continue
                self.bus.publish(channel, rw.Frame(key, self.bus.instance, raw[:cap]), gone)
        finally:
            self.links.pop(key, None)
            metrics.routed(edge=-1)
            if self.bus.up:
                self.bus.publish(channel, rw.Left(key, self.bus.instance))
            conn.close(conn.close_code)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)

    async def ask(self, code: str, op: str, player: str | None) -> tuple[int, bytes]:
        """An HTTP question to room ``code``'s owner: ``(status, JSON body)``; RouteDown when
        it cannot be asked or does not answer in time."""
        if not self.bus.up:
            raise RouteDown(REDIS_DOWN)
        qid = rw.new_key()
        done: asyncio.Future[tuple[int, bytes]] = asyncio.get_running_loop().create_future()
        self.asks[qid] = done

        def nobody() -> None:
            if not done.done():
                done.set_exception(RouteDown(MOVING))

        self.bus.publish(self.bus.room_channel(code), rw.Ask(qid, self.bus.instance, op, player),
                         nobody)
        try:
            return await asyncio.wait_for(done, ASK_S)
        except TimeoutError as e:
            raise RouteDown(f"the room's server did not answer within {ASK_S:g} s") from e
        finally:
            self.asks.pop(qid, None)

    def inbox(self, payload: bytes) -> None:
        """This process's channel: bytes for routed sockets, answers, its pings."""
        try:
            msgs = rw.decode(payload)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            log.warning("a bad routed message: %s", e)
            return
        for m in msgs:
            match m:
                case rw.Out(conn=key, data=data):
                    link = self.links.get(key)
                    if link is not None:
                        link.conn.send(data)  # a slow reader is disconnected here
                case rw.Shut(conn=key, code=code):
                    link = self.links.get(key)
                    if link is not None:
                        link.conn.close(code)
                case rw.Answer(id=qid, status=status, body=body):
                    done = self.asks.get(qid)
                    if done is not None and not done.done():
                        done.set_result((status, body))
                case rw.Ping():
                    self.bus.pong()
                case _:
                    pass

    def lost(self, why: str) -> None:
        """The Redis link is down: every routed socket is closed (its client reconnects and
        is told to wait while the link is down); questions in flight fail."""
        for link in list(self.links.values()):
            if link.conn.open:
                link.conn.send(wire.encode(wire.Error(seq=0, code="unavailable",
                                                      message=REDIS_DOWN)))
            link.conn.close(UNAVAILABLE)
        for done in self.asks.values():
            if not done.done():
                done.set_exception(RouteDown(REDIS_DOWN))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            rooms = sorted({self.bus.room_channel(link.code) for link in self.links.values()})
            if not rooms or not self.bus.up:
                continue
            try:
                heard = await self.bus.listeners(rooms)
            except Exception:
                continue
            for link in list(self.links.values()):
                n = heard.get(self.bus.room_channel(link.code))
                if n is None:  # a socket that came while we asked: next time
                    continue
                if n == 0:
                    link.conn.close(MOVED)
                elif n > 1 and link.code not in self._twice:
                    self._twice.add(link.code)
                    log.error("room %s is run by %d processes at once (no room leases?)",
                              link.code[:6], n)


class _Closer:
    """A ``missed`` callback: the owner did not hear us, so the client is disconnected."""

    def __init__(self, conn: Conn, code: int) -> None:
        self.conn = conn
        self.code = code

    def __call__(self) -> None:
        self.conn.close(self.code)


def _bytes(raw: str | bytes | None) -> bytes:
    if raw is None:
        return b""
    return raw.encode() if isinstance(raw, str) else raw
