"""The rooms' sockets on picows on the same listening socket as uvicorn's HTTP: same port,
same origin, so the page's CSP (``connect-src 'self'``) and a proxy's ``/ws/`` route need
no change.

``FirstLine`` is the protocol uvicorn runs for each accepted connection
(``uvicorn.Config(http=FirstLine)``). It reads the request line only: ``GET /ws/…`` (a
room's socket, live/socket_route.py) is handed to picows's protocol, whose upgrade runs
the app on a ``ws_picows.PicowsSocket``; anything else goes to uvicorn's HTTP protocol.
Either gets the bytes read so far.

>>> is_room_socket(b"GET /ws/ABCD HTTP/1.1"), is_room_socket(b"GET /api/rooms HTTP/1.1")
(True, False)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import unquote

from picows import WSAutoPingStrategy, WSUpgradeRequest
from picows.picows import WSProtocol  # type: ignore[attr-defined]  # the server side
from uvicorn.config import Config
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.server import ServerState

from shengji.server.live.ws_picows import PicowsSocket
from shengji.server.live.ws_protocol import SEND_NOW, SendNow

ROOM_LINE = b"GET /ws/"
"""How a room socket's request line starts (below the app's ``root_path``)."""
LINE_MAX = 8192
"""A request line longer than this goes to uvicorn (which refuses it)."""
READ_BUFFER = 2048
"""picows's initial read buffer per socket (its least; it grows for a larger frame)."""
OVERSIZE = 4
"""picows itself closes (1009, without the ``too-big`` message) a frame over this many
times ``ws_max_size``; a smaller one over the limit is read, answered and closed by
``PicowsSocket``."""


def is_room_socket(line: bytes) -> bool:
    """Whether an HTTP request line asks for a room's socket (``GET /ws/{code}``)."""
    return line.startswith(ROOM_LINE)


class _QuietLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """picows's logger without its per-connection info lines (and, being an adapter, without
    the child logger picows makes per socket for a ``Logger``)."""

    def isEnabledFor(self, level: int) -> bool:  # logging's name
        return level >= logging.WARNING and self.logger.isEnabledFor(level)


_LOG = _QuietLog(logging.getLogger("picows.server"), {})


class FirstLine(asyncio.Protocol):
    """uvicorn's protocol class (``Config(http=FirstLine)``): a room's socket to picows,
    any other request to uvicorn's HTTP protocol, decided by the request line."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.config = config
        self.server_state = server_state
        self.app_state = app_state
        self.loop = _loop or asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.head = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.head += data
        end = self.head.find(b"\r\n")
        if end < 0 and len(self.head) <= LINE_MAX:
            return  # the request line is not whole yet
        if end >= 0 and is_room_socket(self.head[:end]):
            self._hand_to(self._picows(), buffered=True)
        else:
            self._hand_to(
                AutoHTTPProtocol(  # type: ignore[call-arg]
                    config=self.config, server_state=self.server_state,
                    app_state=self.app_state, _loop=self.loop,
                ),
                buffered=False,
            )

    def connection_lost(self, exc: Exception | None) -> None:
        self.head = b""

    def _picows(self) -> asyncio.BufferedProtocol:
        config = self.config
        proto: asyncio.BufferedProtocol = WSProtocol(
            None, None, False, self._socket, _LOG,
            True,  # a listener's exception closes the socket (1011)
            10.0,  # the handshake's timeout (s)
            False, 20.0, 20.0, WSAutoPingStrategy.PING_WHEN_IDLE,  # our own keepalive
            True,  # answer pings
            config.ws_max_size * OVERSIZE, None, READ_BUFFER,
        )
        return proto

    def _socket(self, request: WSUpgradeRequest) -> PicowsSocket:
        return PicowsSocket(self.config, self.server_state, self.scope_of, request, self.loop)

    def _hand_to(self, proto: asyncio.BaseProtocol, buffered: bool) -> None:
        transport, head = self.transport, self.head
        assert transport is not None
        self.head = b""
        transport.set_protocol(proto)
        proto.connection_made(transport)
        if buffered:
            assert isinstance(proto, asyncio.BufferedProtocol)
            view = memoryview(head)
            while view:
                buf = memoryview(proto.get_buffer(len(view)))
                n = min(len(buf), len(view))
                buf[:n] = view[:n]
                proto.buffer_updated(n)
                view = view[n:]
        else:
            assert isinstance(proto, asyncio.Protocol)
            proto.data_received(head)

    def scope_of(self, request: WSUpgradeRequest, send_now: SendNow) -> dict[str, Any]:
        """The ASGI scope of a room socket's upgrade ``request`` (as uvicorn builds it)."""
        transport = self.transport
        assert transport is not None
        raw = request.path.decode("ascii")
        path, _, query = raw.partition("?")
        root = self.config.root_path
        peer = transport.get_extra_info("peername")
        local = transport.get_extra_info("sockname")
        return {
            "type": "websocket",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "scheme": "ws",
            "server": tuple(local[:2]) if local else None,
            "client": tuple(peer[:2]) if peer else None,
            "root_path": root,
            "path": root + unquote(path),
            "raw_path": (root + path).encode("ascii"),
            "query_string": query.encode("ascii"),
            "headers": [
                (k.lower().encode("latin-1"), v.encode("latin-1"))
                for k, v in request.headers.items()
            ],
            "subprotocols": [],
            "state": self.app_state.copy(),
            "extensions": {SEND_NOW: {"send": send_now}},
        }

