"""The WebSocket endpoint of a room (``/ws/{code}``): hello first, then every frame is
checked (size, rate, shape) and handed to the room as a typed client message; the room's
messages for this client go out through its queue (docs/protocol.md, "WebSocket").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import msgspec
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from shengji.server import wire
from shengji.server.conn import Conn
from shengji.server.health import STORAGE_DOWN
from shengji.server.lobby import Lobby
from shengji.server.rooms import MOVED
from shengji.server.settings import Settings
from shengji.server.storage import Store
from shengji.server.write_faults import is_storage_fault


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


async def _writer(ws: WebSocket, conn: Conn) -> None:
    """Send the connection's messages as they gather, several at once as one frame
    (``Conn.next_frame``); close the socket after the last once the room says so."""
    try:
        while True:
            await conn.ready.wait()
            frame = conn.next_frame()
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


async def serve_socket(
    ws: WebSocket,
    code: str,
    lobby: Lobby,
    store: Store,
    settings: Settings,
    auth_gate: asyncio.Semaphore,
) -> None:
    await ws.accept()
    room = lobby.get(code)
    if room is None:
        holder = None if code in lobby.failed else await _owner_elsewhere(lobby, code)
        if code in lobby.failed:
            why = "this room stopped after an internal error"
            await _send_now(ws, wire.Error(seq=0, code="room-failed", message=why))
        elif holder is not None:  # another process runs it: go there (server/lease.py)
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
    raw = _frame(first)
    hello: wire.ClientMessage | None = None
    if raw is not None and len(raw) <= settings.max_message_bytes:
        with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
            hello = wire.decode_client(raw)
    if not isinstance(hello, wire.Hello):
        await _send_now(
            ws, wire.Error(seq=room.seq, code="hello-first", message="send hello first")
        )
        await ws.close(4400)
        return
    try:
        async with auth_gate:
            player = await store.player_by_token(hello.token)
    except Exception as e:
        if not is_storage_fault(e):
            raise
        store.health.failed(e)
        await _send_now(ws, wire.Error(seq=room.seq, code="storage", message=STORAGE_DOWN))
        await ws.close(1013)  # try again later
        return
    if player is None:
        await _send_now(ws, wire.Error(seq=room.seq, code="auth", message="unknown token"))
        await ws.close(4401)
        return
    conn = Conn(player, settings.send_queue, settings.send_buffer_bytes, hello.batch)
    conn.presence_delta = hello.presence == "delta"
    writer = asyncio.create_task(_writer(ws, conn))
    await room.join(conn, hello.last_seq)
    bucket = TokenBucket(settings.rate_per_s, settings.rate_burst)
    strikes = 0
    try:
        while conn.open:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = _frame(message)
            if raw is None:
                continue
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
                conn.send(
                    wire.encode(wire.Error(seq=room.seq, code="bad-message", message=str(e)[:200]))
                )
                continue
            if isinstance(msg, wire.Hello):
                conn.send(
                    wire.encode(
                        wire.Error(seq=room.seq, code="bad-message", message="already said hello")
                    )
                )
                continue
            room.submit(conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        room.gone(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
