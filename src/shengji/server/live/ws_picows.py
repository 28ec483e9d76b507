"""A room's socket on picows (a WebSocket layer in Cython): picows's frames in, the ASGI
app's messages out, so the app runs on it as on uvicorn's protocol (``websocket.connect``,
``receive``, ``send``, ``close``), behind the same middleware and routes, and is offered
``send_now`` (live/ws_protocol.py): a frame built and written in C.
``ws_first_line.FirstLine`` hands a room's upgrade request here, on the HTTP's own port.

What the app sees is what uvicorn's protocol gives it, with two differences: the handshake
is answered (101) before the app runs (the room endpoint accepts every socket and says why
it refuses in a message, then closes), and there is no permessage-deflate
(``ws_compression`` keeps the room sockets on uvicorn). As on uvicorn's: reading stops while
``PAUSE_AT`` messages wait for the app; a message over ``ws_max_size`` is answered
``too-big`` and closed (1009), invalid UTF-8 closed (1007); keepalive pings go only to a
socket silent for a whole interval, and one still silent after the timeout is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, cast

from picows import (
    WSCloseCode,
    WSFrame,
    WSListener,
    WSMsgType,
    WSTransport,
    WSUpgradeRequest,
)
from uvicorn.config import Config
from uvicorn.server import ServerState

from shengji.server.live.ws_protocol import PAUSE_AT, Inbox, SendNow
from shengji.server.wire import messages as wire

log = logging.getLogger("shengji.server.ws_picows")

CLOSE_WAIT_S = 5.0
"""After our close frame, how long the client has to answer it before the socket is cut."""
_DATA = (WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.CONTINUATION)


SMALL_FRAME = 1000
"""Frames up to this size go through picows's own write buffer (1 KiB, kept per socket);
a larger one is framed in a buffer of its own, so that the socket's does not grow to the
largest frame it ever sent (a join's snapshot) and stay that large."""
HEADROOM = 14
"""The room picows needs before a message to write its frame header in place."""


def _send(transport: WSTransport, kind: WSMsgType, data: bytes) -> None:
    """Frame and write ``data``; see ``SMALL_FRAME``."""
    if len(data) <= SMALL_FRAME:
        transport.send(kind, data)
    else:
        transport.send_reuse_external_bytearray(kind, bytearray(HEADROOM) + data, HEADROOM)


def _close_code(code: int) -> WSCloseCode:
    """``code`` as picows's type (a C enum: any 16-bit code goes through)."""
    return cast(WSCloseCode, code)


class ClientGone(OSError):
    """The app sent to a socket that is closed."""


class PicowsSocket(WSListener):
    """One room socket: picows's frames in, the ASGI app's messages out."""

    __slots__ = (  # a table holds five: no __dict__ each
        "close_sent",
        "close_timer",
        "config",
        "drained",
        "gone",
        "heard_at",
        "inbox",
        "loop",
        "parts",
        "parts_text",
        "ping_timer",
        "read_paused",
        "scope",
        "server_state",
        "task",
        "transport",
        "writable",
    )

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        scope_of: Callable[[WSUpgradeRequest, SendNow], dict[str, Any]],
        request: WSUpgradeRequest,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.config = config
        self.server_state = server_state
        self.loop = loop
        self.scope = scope_of(request, self.send_now)
        self.inbox: Inbox[dict[str, Any]] = Inbox()
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.transport: WSTransport | None = None
        self.parts: list[bytes] = []
        """A fragmented message's frames so far."""
        self.parts_text = True
        self.writable = True
        self.drained: asyncio.Future[None] | None = None
        self.close_sent = False
        self.gone = False
        self.read_paused = False
        self.heard_at = self.loop.time()
        self.ping_timer: asyncio.TimerHandle | None = None
        self.close_timer: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- picows's callbacks

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport
        transport.request.headers.clear()  # in the scope; picows keeps the request for good
        self.server_state.connections.add(self)  # type: ignore[arg-type]
        self._schedule_ping(self.config.ws_ping_interval or 0.0)
        self.task = self.loop.create_task(self._run())
        self.server_state.tasks.add(self.task)
        self.task.add_done_callback(self.server_state.tasks.discard)

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        self.heard_at = self.loop.time()
        kind = frame.msg_type
        if frame.payload_size > self.config.ws_max_size and kind in _DATA:
            self._too_big()
            return
        if kind is WSMsgType.TEXT or kind is WSMsgType.BINARY:
            if self.parts:
                self._fail(1002)
                return
            if frame.fin:
                self._deliver(frame.get_payload_as_bytes(), kind is WSMsgType.TEXT)
                return
            self.parts_text = kind is WSMsgType.TEXT
            self.parts.append(frame.get_payload_as_bytes())
        elif kind is WSMsgType.CONTINUATION:
            if not self.parts:
                self._fail(1002)
                return
            self.parts.append(frame.get_payload_as_bytes())
            if sum(map(len, self.parts)) > self.config.ws_max_size:
                self._too_big()
            elif frame.fin:
                data, self.parts = b"".join(self.parts), []
                self._deliver(data, self.parts_text)
        elif kind is WSMsgType.CLOSE:
            head = frame.get_payload_as_bytes()[:2]  # any code, not only picows's enum's
            code = int.from_bytes(head, "big") if len(head) == 2 else 1005
            self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})
            if not self.close_sent:
                self.close_sent = True
                transport.send_close(_close_code(code if len(head) == 2 else 1000))
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.gone = True
        self.server_state.connections.discard(self)
        for timer in (self.ping_timer, self.close_timer):
            if timer is not None:
                timer.cancel()
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})
        self.resume_writing()

    def pause_writing(self) -> None:
        self.writable = False

    def resume_writing(self) -> None:
        self.writable = True
        drained, self.drained = self.drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    # ---------------------------------------------------------------- reading

    def _deliver(self, data: bytes, text: bool) -> None:
        message: dict[str, Any]
        if text:
            try:
                message = {"type": "websocket.receive", "text": data.decode()}
            except UnicodeDecodeError:
                self._fail(1007)
                return
        else:
            message = {"type": "websocket.receive", "bytes": data}
        self.inbox.put_nowait(message)
        if not self.read_paused and self.inbox.qsize() >= PAUSE_AT and self.transport:
            self.read_paused = True  # the app lags: TCP holds the client back
            self.transport.underlying_transport.pause_reading()

    def _too_big(self) -> None:
        """A message over ``ws_max_size``: say ``too-big`` (the protocol's error), then
        close with 1009, as uvicorn's protocol does."""
        if self.transport is not None and not self.close_sent:
            limit = self.config.ws_max_size
            said = wire.Error(seq=0, code="too-big",
                              message=f"a message over {limit} bytes; the socket is closed")
            self.transport.send(WSMsgType.TEXT, wire.encode(said))
        self._fail(1009)

    def _fail(self, code: int) -> None:
        """A frame broke the protocol: close with ``code`` and tell the app it is gone."""
        self.parts = []
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})
        self._close(code)

    async def receive(self) -> dict[str, Any]:
        """The ASGI ``receive``: connect, the client's messages, then disconnect."""
        message = await self.inbox.get()
        if self.read_paused and self.inbox.qsize() < PAUSE_AT // 2 and self.transport:
            self.read_paused = False
            self.transport.underlying_transport.resume_reading()
        if message["type"] == "websocket.disconnect":
            self.inbox.put_nowait(message)  # every later receive says so too
        return message

    # ---------------------------------------------------------------- writing

    def send_now(self, data: bytes) -> bool:
        """Frame ``data`` as one text message and write it at once; False when the socket
        cannot take it now (closing, gone, or its buffer full): nothing was sent."""
        transport = self.transport
        if transport is None or self.close_sent or self.gone or not self.writable:
            return False
        _send(transport, WSMsgType.TEXT, data)
        return True

    async def send(self, message: dict[str, Any]) -> None:
        """The ASGI ``send``: accept (already answered), a message, or the close."""
        kind = message["type"]
        if kind == "websocket.accept":
            return
        if kind == "websocket.send":
            while not self.writable and not self.gone:
                self.drained = self.drained or self.loop.create_future()
                await self.drained
            if self.gone or self.close_sent or self.transport is None:
                raise ClientGone("the socket is closed")
            text = message.get("text")
            if text is not None:
                _send(self.transport, WSMsgType.TEXT, text.encode())
            else:
                _send(self.transport, WSMsgType.BINARY, message.get("bytes") or b"")
        elif kind == "websocket.close":
            self._close(int(message.get("code") or 1000), message.get("reason") or "")
        else:
            raise RuntimeError(f"unexpected ASGI message {kind!r} on a WebSocket")

    def _close(self, code: int, reason: str = "") -> None:
        """Send our close frame (once) and cut the socket if the client does not answer."""
        if self.close_sent or self.gone or self.transport is None:
            return
        self.close_sent = True
        self.transport.send_close(_close_code(code), reason.encode() or None)
        self.close_timer = self.loop.call_later(CLOSE_WAIT_S, self.transport.disconnect)

    def shutdown(self) -> None:
        """uvicorn's shutdown: close with 1012 (the service restarts)."""
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1012})
        self._close(1012)

    # ---------------------------------------------------------------- keepalive

    def _schedule_ping(self, delay: float) -> None:
        """Check for silence in ``delay`` s (no keepalive without a ``ws_ping_interval``)."""
        if self.config.ws_ping_interval and not self.gone:
            self.ping_timer = self.loop.call_later(max(delay, 0.0), self._keepalive)

    def _keepalive(self) -> None:
        """Ping only a socket silent for a whole interval; close it if it stays silent."""
        config = self.config
        interval = config.ws_ping_interval or 0.0
        quiet = self.loop.time() - self.heard_at
        if quiet < interval:
            self._schedule_ping(interval - quiet)
            return
        if self.transport is None or self.close_sent or self.gone:
            return
        self.ping()
        pinged_at = self.loop.time()

        def check() -> None:
            if self.heard_at < pinged_at:  # nothing since the ping: the peer is gone
                self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1011})
                self._close(1011, "keepalive ping timeout")
                if self.transport is not None:
                    self.transport.disconnect()  # as uvicorn: no wait for a dead peer
            else:
                self._schedule_ping(interval - (self.loop.time() - self.heard_at))

        self.ping_timer = self.loop.call_later(config.ws_ping_timeout or interval, check)

    def ping(self) -> None:
        """Send a keepalive ping (any frame back proves the client there)."""
        if self.transport is not None:
            self.transport.send_ping(b"k")

    # ---------------------------------------------------------------- the app

    async def _run(self) -> None:
        try:
            await self.config.loaded_app(self.scope, self.receive, self.send)
        except ClientGone:
            pass
        except BaseException:
            log.exception("Exception in ASGI application")
            self._close(1011)
        else:
            self._close(1000)
