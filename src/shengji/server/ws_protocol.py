"""The server's WebSocket protocol: uvicorn's ``websockets-sansio`` one, with two changes
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

``serve`` passes ``WebSocketProtocol`` to uvicorn (``uvicorn.Config(ws=...)``);
``tests/server/test_ws_protocol.py`` checks it against a real uvicorn server.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState

PAUSE_AT = 16
"""Reading stops when this many of a socket's messages wait for the app."""

SEND_NOW = "shengji.send_now"
"""The ASGI scope extension: ``scope["extensions"][SEND_NOW]["send"]`` is ``send_now``."""

SendNow = Callable[[bytes], bool]
"""Frame and write one UTF-8 text message now; False: not now (nothing was sent)."""


def send_now_of(scope: Mapping[str, Any]) -> SendNow | None:
    """The socket's ``send_now`` if the server offers it in the ASGI ``scope`` (ours does;
    others, and test clients, do not)."""
    ext = (scope.get("extensions") or {}).get(SEND_NOW)
    return None if ext is None else ext.get("send")


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, pausing reading only when the app lags and
    offering ``send_now``."""

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
