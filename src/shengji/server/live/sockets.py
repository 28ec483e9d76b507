"""The WebSocket endpoint of a room (``/ws/{code}``): hello first, then every frame is
checked (size, rate, shape) and handed to the room as a typed client message; the room's
messages for this client go out through its queue (docs/protocol.md, "WebSocket").

``serve_client`` is that session without the socket (a ``Link``), so a client whose socket
is on another process is served the same way through Redis (server/cluster/route_owner.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

import msgspec
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from shengji.server.live.conn import Conn
from shengji.server.live.lobby import Lobby
from shengji.server.live.rooms import MOVED, Room
from shengji.server.live.ws_protocol import send_now_of
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import STORAGE_DOWN, is_storage_fault
from shengji.server.wire import messages as wire
from shengji.server.wire.strict import why_malformed


class Router(Protocol):
    """Serves a socket whose room another process runs (server/cluster/router.py)."""

    async def serve(self, ws: WebSocket, code: str) -> bool:
        """Serve ``ws`` for room ``code`` through its owner; False: no process runs it."""
        ...


class TokenBucket:
    """Per-connection rate limit: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _send_now(ws: WebSocket, msg: wire.ServerMsg) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(wire.encode(msg).decode())


async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    """Open ``ws`` only to say why it is refused (``error`` ``code``), then close it."""
    await ws.accept()
    await _send_now(ws, wire.Error(seq=0, code=code, message=message))
    await ws.close(close_code)


async def write_socket(ws: WebSocket, conn: Conn) -> None:
    """Send the connection's messages as they gather, several at once as one frame
    (``Conn.take_frame``); close the socket after the last once the room says so (also
    for a routed socket: server/cluster/route_edge.py). With ``conn.direct`` it sends only what
    the socket did not take at once (``Conn.flush``), waiting for the socket."""
    try:
        while True:
            await conn.ready.wait()
            frame = conn.take_frame()
            if frame is None:
                if conn.closing:
                    break
                continue
            await ws.send_text(frame.decode())
    except Exception:
        conn.open = False
    finally:
        with contextlib.suppress(Exception):
            if ws.application_state is WebSocketState.CONNECTED:
                await ws.close(conn.close_code)


def _frame(message: Any) -> str | bytes | None:
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return None if data is None else bytes(data)


async def _owner_elsewhere(lobby: Lobby, code: str) -> str | None:
    """The address of the live process that runs room ``code``, if not this one."""
    try:
        holder = await lobby.leases.owner_of(code)
    except Exception as e:
        if not is_storage_fault(e):
            raise
        return None
    if holder is None or not holder.live or holder.instance == lobby.leases.instance:
        return None
    return holder.address or holder.instance


async def _load(
    ws: WebSocket, lobby: Lobby, store: Store, code: str
) -> Room | Literal[False] | None:
    """The room (reloaded if it was unloaded: server/live/idle_rooms.py), None if there is none;
    False if the database could not be read (the client was told, the socket closed)."""
    try:
        return await lobby.load(code)
    except Exception as e:
        if not is_storage_fault(e):
            raise
        store.health.failed(e)
        await _send_now(ws, wire.Error(seq=0, code="storage", message=STORAGE_DOWN))
        await ws.close(1013)  # try again later
        return False


class Link(Protocol):
    """Where a client's messages go: its own socket here, or a socket on another process
    reached through Redis (server/cluster/route_owner.py)."""

    async def refuse(self, msg: wire.ServerMsg, code: int) -> None:
        """Tell the client ``msg`` and close with ``code`` (before it has a ``Conn``)."""

    def connect(self, player: Player, batch: bool) -> Conn:
        """The connection of a signed-in client: what the room sends it reaches it."""


Receive = Callable[[], Awaitable[str | bytes | None]]
"""The client's next frame; None once it is gone."""
Reload = Callable[[], Awaitable["Room | None"]]
"""The room again (reloaded if it was unloaded meanwhile: server/live/idle_rooms.py)."""


class _Socket:
    """A client whose socket is here."""

    def __init__(self, ws: WebSocket, settings: Settings) -> None:
        self.ws = ws
        self.settings = settings
        self.writer: asyncio.Task[None] | None = None

    async def refuse(self, msg: wire.ServerMsg, code: int) -> None:
        await _send_now(self.ws, msg)
        await self.ws.close(code)

    def connect(self, player: Player, batch: bool) -> Conn:
        s = self.settings
        conn = Conn(player, s.send_queue, s.send_buffer_bytes, batch)
        conn.send_now_with(send_now_of(self.ws.scope))  # our server: frames leave at once
        self.writer = asyncio.create_task(write_socket(self.ws, conn))
        return conn

    async def receive(self) -> str | bytes | None:
        while True:
            try:
                message = await self.ws.receive()
            except WebSocketDisconnect:
                return None
            if message["type"] == "websocket.disconnect":
                return None
            raw = _frame(message)
            if raw is not None:
                return raw


async def serve_socket(
    ws: WebSocket,
    code: str,
    lobby: Lobby,
    store: Store,
    settings: Settings,
    auth_gate: asyncio.Semaphore,
    router: Router | None = None,
) -> None:
    """A client's socket: to the room here, or routed to the process that runs it."""
    await ws.accept()
    room = await _load(ws, lobby, store, code)  # an unloaded idle room comes back
    if room is False:
        return
    if room is None:
        if code not in lobby.failed and router is not None and await router.serve(ws, code):
            return  # routed to its owner through Redis (server/cluster/router.py)
        holder = None  # no router: a room another process runs is answered ``moved``
        if code not in lobby.failed and router is None:
            holder = await _owner_elsewhere(lobby, code)
        if code in lobby.failed:
            why = "this room stopped after an internal error"
            await _send_now(ws, wire.Error(seq=0, code="room-failed", message=why))
        elif holder is not None:  # another process runs it: go there (server/store/lease_keeper.py)
            why = f"this room runs at {holder}: reconnect there"
            await _send_now(ws, wire.Error(seq=0, code="moved", message=why))
            await ws.close(MOVED)
            return
        else:
            await _send_now(ws, wire.Error(seq=0, code="no-room", message="no such room"))
        await ws.close(4404)
        return
    try:
        first = await asyncio.wait_for(ws.receive(), 15)
    except (TimeoutError, WebSocketDisconnect):
        await ws.close(4408)
        return
    link = _Socket(ws, settings)
    try:
        await serve_client(
            link, _frame(first), link.receive, room, store, settings, auth_gate,
            lambda: lobby.load(code),
        )
    finally:
        if link.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(link.writer, 5)


async def serve_client(
    link: Link,
    first: str | bytes | None,
    receive: Receive,
    room: Room,
    store: Store,
    settings: Settings,
    auth_gate: asyncio.Semaphore,
    reload: Reload | None = None,
) -> None:
    """One client of ``room`` from its first frame (``hello``) to its last: signed in,
    joined, every frame checked (size, rate, shape) and handed to the room."""
    raw = first
    hello: wire.ClientMessage | None = None
    if raw is not None and len(raw) <= settings.max_message_bytes:
        with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
            hello = wire.decode_client(raw)
    if not isinstance(hello, wire.Hello):
        first_err = wire.Error(seq=room.seq, code="hello-first", message="send hello first")
        await link.refuse(first_err, 4400)
        return
    try:
        async with auth_gate:
            player = await store.players.by_token(hello.token)
        again = None if reload is None else await reload()  # unloaded during the hello?
    except Exception as e:
        if not is_storage_fault(e):
            raise
        store.health.failed(e)
        await link.refuse(wire.Error(seq=room.seq, code="storage", message=STORAGE_DOWN), 1013)
        return
    if player is None:
        await link.refuse(wire.Error(seq=room.seq, code="auth", message="unknown token"), 4401)
        return
    room = again or room  # None: closed meanwhile (the room tells the client)
    conn = link.connect(player, hello.batch)
    conn.presence_delta = hello.presence == "delta"
    conn.deltas = hello.v >= 3
    await room.join(conn, hello.last_seq)
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst)
    strikes = 0
    try:
        while conn.open:
            raw = await receive()
            if raw is None:
                break
            if not bucket.take():
                strikes += 1
                if strikes > 100:
                    break
                conn.send(
                    wire.encode(
                        wire.Error(
                            seq=room.seq,
                            code="rate-limited",
                            message="too many messages; slow down",
                        )
                    )
                )
                continue
            if len(raw) > settings.max_message_bytes:
                conn.send(
                    wire.encode(
                        wire.Error(
                            seq=room.seq,
                            code="too-big",
                            message=f"messages are at most {settings.max_message_bytes} bytes",
                        )
                    )
                )
                continue
            try:
                msg = wire.decode_client(raw)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                why = why_malformed(raw, e)[:200]  # the field: NaN, a wrong type, unknown key
                conn.send(wire.encode(wire.Error(seq=room.seq, code="bad-message", message=why)))
                continue
            if isinstance(msg, wire.Hello):
                conn.send(
                    wire.encode(
                        wire.Error(seq=room.seq, code="bad-message", message="already said hello")
                    )
                )
                continue
            room.submit(conn, msg)
    finally:
        room.gone(conn)
        conn.close()
