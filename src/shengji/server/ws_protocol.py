"""The server's WebSocket protocol: uvicorn's ``websockets-sansio`` one, except that a
socket's reading is paused only once ``PAUSE_AT`` of its messages wait for the app.

uvicorn pauses reading after every message a client sends and resumes when the app takes
it: two ``epoll_ctl`` calls and their asyncio bookkeeping per message (about 4 % of the
server's CPU at the bench's pace, ``bench/server_load.py``). Our sessions read their socket
in a loop (``sockets.serve_client``) and every message is small and rate-limited, so a few
may wait in the socket's queue; reading still stops once ``PAUSE_AT`` wait (a client that
sends faster than the room reads is held back by TCP, as before).

``serve`` passes ``WebSocketProtocol`` to uvicorn (``uvicorn.Config(ws=...)``);
``tests/server/test_ws_protocol.py`` checks it against a real uvicorn server.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PAUSE_AT = 16
"""Reading stops when this many of a socket's messages wait for the app."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, pausing reading only when the app lags."""

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
