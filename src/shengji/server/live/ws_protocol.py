"""The server's WebSocket protocol: uvicorn's ``websockets-sansio`` one, with three changes
for a server that sends many small messages to many sockets.

- **Reading** is paused only once ``PAUSE_AT`` of a socket's messages wait for the app.
  uvicorn pauses reading after every message a client sends and resumes when the app takes
  it: two ``epoll_ctl`` calls and their asyncio bookkeeping per message (about 4 % of the
  server's CPU at the bench's pace, ``bench/server_load.py``). Our sessions read their
  socket in a loop (``sockets.serve_client``) and every message is small and rate-limited,
  so a few may wait; reading still stops once ``PAUSE_AT`` wait (a client that sends faster
  than the room reads is held back by TCP, as before).
- **Sending now** (the ASGI extension ``SEND_NOW`` in the socket's scope): the app may hand
  a text message to ``send_now(data)``, which frames it and writes it to the socket at
  once, without a task, the ASGI ``send`` chain and its ``str`` round trip; it answers
  False (and sends nothing) while the socket cannot take it now: not open yet, closing, or
  its transport's buffer is full (asyncio paused writing). The app then sends through ASGI,
  which waits. ``conn.Flusher`` uses it for every connection's gathered frames.
- **Less memory per socket** (a table holds five): the messages waiting for the app go in
  an ``Inbox`` (one list and at most one future) instead of an ``asyncio.Queue`` (three
  deques and an event, about 2 KiB), and the handshake's request and response headers are
  let go once the socket is open (uvicorn and the ``websockets`` parser keep both for the
  socket's life, about 3 KiB). ``bench/server_load.py`` reports RSS per table.
- **Keepalive pings only for silent sockets:** uvicorn pings every socket every
  ``ws_ping_interval`` (20 s) and closes one that does not answer within
  ``ws_ping_timeout``. A frame the client sent since proves it there as well as a pong
  would, so a socket heard from within the interval is not pinged; its check moves to one
  interval after it was last heard. A dead peer is still closed within interval + timeout of
  its last frame. Measured on the bare socket path at human pace (``bench/io_floor.py``,
  7,500 sockets): CPU per action 515 µs with uvicorn's pings, 501 with these, 381 with
  none; where clients connect together (their pings then stay in step) p99 177 → 16 ms.

- **Too big is said before the close:** a frame over ``ws_max_size`` is refused by the
  protocol itself, before the app could answer; the client first gets the protocol's
  ``error`` ``too-big`` (one text frame), then the close (1009).

``serve`` passes ``WebSocketProtocol`` to uvicorn (``uvicorn.Config(ws=...)``);
``tests/server/test_ws_protocol.py`` checks it against a real uvicorn server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState, PayloadTooBig
from websockets.frames import Frame, Opcode

from shengji.server.wire import messages as wire

PAUSE_AT = 16
"""Reading stops when this many of a socket's messages wait for the app."""

SEND_NOW = "shengji.send_now"
"""The ASGI scope extension: ``scope["extensions"][SEND_NOW]["send"]`` is ``send_now``."""

SendNow = Callable[[bytes], bool]
"""Frame and write one UTF-8 text message now; False: not now (nothing was sent)."""

T = TypeVar("T")


class Inbox(Generic[T]):
    """A first-in first-out queue for one reader: what uvicorn's protocol uses of
    ``asyncio.Queue`` (``put_nowait``, ``get``, ``qsize``, ``empty``) in a list and at most
    one future.

    >>> async def demo() -> list[str]:
    ...     box: Inbox[str] = Inbox()
    ...     box.put_nowait("hello")
    ...     later = asyncio.get_running_loop().call_soon(box.put_nowait, "play 7H")
    ...     return [await box.get(), await box.get()]
    >>> asyncio.run(demo())
    ['hello', 'play 7H']
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        """Add ``item`` and wake the reader."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, once there is one."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)  # a few at most: reading pauses at PAUSE_AT

    def qsize(self) -> int:
        """How many items wait."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether none waits."""
        return not self._items


def send_now_of(scope: Mapping[str, Any]) -> SendNow | None:
    """The socket's ``send_now`` if the server offers it in the ASGI ``scope`` (ours does;
    others, and test clients, do not)."""
    ext = (scope.get("extensions") or {}).get(SEND_NOW)
    return None if ext is None else ext.get("send")


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, pausing reading only when the app lags and
    offering ``send_now``, with a lighter inbox and no handshake headers kept."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]  # the subset of Queue used
        self.heard_at = self.loop.time()
        """When the client last sent anything (the loop's clock)."""

    def data_received(self, data: bytes) -> None:
        """uvicorn's, noting that the client was heard from."""
        self.heard_at = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        """Ping the client only if it was silent for a whole interval; else check again one
        interval after it was last heard."""
        interval = self.ping_interval
        quiet = self.loop.time() - self.heard_at
        if interval is not None and quiet < interval:
            self.ping_timer = self.loop.call_later(interval - quiet, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()

    async def send(self, message: ASGISendEvent) -> None:
        """uvicorn's ``send``; once the socket is open, its handshake headers are let go."""
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            self.request.headers.clear()  # the parser's generator holds the request too
            self.response.headers.clear()

    def send_receive_event_to_app(self) -> None:
        """Hand a whole message to the app; pause reading only when ``PAUSE_AT`` wait."""
        if self.read_paused or self.queue.qsize() + 1 >= PAUSE_AT:
            super().send_receive_event_to_app()  # uvicorn's way: pause until it is taken
            return
        self.read_paused = True  # uvicorn pauses unless reading is paused already: it isn't
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False

    async def run_asgi(self) -> None:
        """Run the app with ``send_now`` in its scope."""
        self.scope["extensions"][SEND_NOW] = {"send": self.send_now}
        await super().run_asgi()

    def handle_parser_exception(self) -> None:
        """uvicorn's, but a frame over the size limit is first answered ``too-big``."""
        if isinstance(self.conn.parser_exc, PayloadTooBig) and self.handshake_complete:
            said = wire.Error(seq=0, code="too-big", message=f"a message over "
                              f"{self.config.ws_max_size} bytes; the socket is closed")
            self.transport.write(Frame(Opcode.TEXT, wire.encode(said)).serialize(mask=False))
        super().handle_parser_exception()

    def send_now(self, data: bytes) -> bool:
        """Frame ``data`` (UTF-8 JSON) as one text message and write it at once; False if
        the socket cannot take it now (then nothing was sent)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(data)
        except InvalidState:
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True
