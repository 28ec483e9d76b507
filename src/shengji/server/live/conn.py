"""One client's connection to a room: its player and the buffer its socket's writer drains.

The room puts encoded messages into the buffer (``send``): the same bytes object for every
connection of one audience, never copied. The writer takes whatever has gathered since it
last ran as one frame (``next_frame``) when the client said it reads them (``hello`` with
``batch: true``): one message as it is, several as a JSON array of them (docs/protocol.md,
"Frames"), at most ``FRAME_BYTES`` a frame. Everything one command of the room says to a
connection is put in before the writer runs again, so it leaves as one frame. Other clients
get one message per frame.

On our own server (``ws_protocol.WebSocketProtocol``) the frames do not wait for the writer
task: the loop's ``Flusher`` writes every connection's gathered frames straight to its socket
at the end of the loop's turn (``direct``); only a frame the socket cannot take at once (its
buffer is full) goes back to the writer task, which waits for the socket, and the writer
keeps the connection until it has caught up, so frames never overtake each other.

The buffer is bounded in messages (``max_messages``) and in bytes (``max_bytes``): a client
that reads too slowly to keep it under both is disconnected (what was waiting for it is
dropped; it reconnects and resumes or gets a snapshot).

>>> from shengji.server.store.players import Player
>>> c = Conn(Player("p1", "ann"), max_messages=16, max_bytes=100, batch=True)
>>> c.send(b'{"a":1}'); c.send(b'{"b":2}'); c.next_frame()
b'[{"a":1},{"b":2}]'
>>> c.send(b"x" * 101); c.open, c.close_code   # more than 100 bytes waiting: too slow
(False, 1000)
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import weakref
from collections import deque

from mypy_extensions import mypyc_attr

from shengji.server.live.ws_protocol import SendNow
from shengji.server.store.players import Player

log = logging.getLogger("shengji.server.rooms")

_conn_ids = itertools.count(1)

FRAME_BYTES = 65536
"""Messages are coalesced into one frame up to this size (a larger message goes alone)."""


class Flusher:
    """Writes every connection's gathered frames to its socket once per turn of its event
    loop, in one callback (``Conn.flush``), instead of waking one writer task per
    connection per message: everything one command of a room said to a connection leaves
    as one frame, as before. One per event loop (``of``): a process may run several loops
    (tests run servers in threads), and a socket is only written from its own.

    >>> from shengji.server.store.players import Player
    >>> async def demo() -> list[bytes]:
    ...     out: list[bytes] = []
    ...     c = Conn(Player("p1", "ann"), batch=True)
    ...     c.send_now_with(lambda frame: out.append(frame) is None)  # the socket takes all
    ...     c.send(b'{"a":1}'); c.send(b'{"b":2}')
    ...     await asyncio.sleep(0)
    ...     return out
    >>> asyncio.run(demo())
    [b'[{"a":1},{"b":2}]']
    """

    def __init__(self) -> None:
        self.dirty: list[Conn] = []

    @staticmethod
    def of(loop: asyncio.AbstractEventLoop) -> Flusher:
        """The flusher of ``loop`` (made on first use)."""
        flusher = _FLUSHERS.get(loop)
        if flusher is None:
            flusher = _FLUSHERS[loop] = Flusher()  # holds no reference to its loop
        return flusher

    def add(self, conn: Conn) -> None:
        """Flush ``conn`` at this turn's end (the first one asks the loop to call back);
        called on the flusher's own loop."""
        if not self.dirty:
            asyncio.get_running_loop().call_soon(self.run)
        self.dirty.append(conn)

    def run(self) -> None:
        """Flush every connection that gathered frames since the last turn."""
        dirty, self.dirty = self.dirty, []
        for conn in dirty:
            conn.flush()


_FLUSHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Flusher] = (
    weakref.WeakKeyDictionary()
)
"""Each event loop's ``Flusher`` (gone with its loop)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a client on another process: RemoteConn
class Conn:
    """One connected client: a player and its outgoing buffer (drained by its socket)."""

    def __init__(
        self,
        player: Player,
        max_messages: int = 4096,
        max_bytes: int = 1 << 20,
        batch: bool = False,
    ) -> None:
        self.id = next(_conn_ids)
        self.player = player
        self.batch = batch
        """The client reads JSON arrays of messages (several in one frame)."""
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self.pending: deque[bytes] = deque()
        self.pending_bytes = 0
        """The bytes waiting in ``pending``."""
        self.ready = asyncio.Event()
        """Set while something waits for the writer (a message, or the close)."""
        self.open = True
        self.closing = False
        """The writer closes the socket once ``pending`` is sent."""
        self.seat: int | None = None
        """The seat it plays, as the table last said (for presence)."""
        self.welcomed = False
        """Its ``welcome`` went out (presence goes only to welcomed connections)."""
        self.presence_delta = False
        """Wants ``presence_delta`` messages (said so in ``hello``)."""
        self.deltas = False
        """Said ``hello`` with protocol version 3: sent ``delta`` messages, not ``update``."""
        self.presence_synced = False
        """Has had the whole presence list once."""
        self.close_code = 1000
        """The WebSocket close code its writer closes with."""
        self.direct: SendNow | None = None
        """Writes a frame to the socket at once, if the socket takes it now (the server's
        ``send_now``, server/live/ws_protocol.py): gathered frames then leave by ``flusher``,
        not by the writer task. None: the writer sends everything (``send_now_with``)."""
        self.flusher: Flusher | None = None
        """The ``Flusher`` of the loop the socket belongs to (with ``direct``)."""
        self.slow = False
        """The writer task sends (a frame the socket did not take at once, or everything
        until it has caught up): ``Flusher`` leaves this connection to it."""
        self.held: bytes | None = None
        """A frame the socket did not take at once: the writer sends it first."""
        self.dirty = False
        """Waits in ``Flusher``'s list."""

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
        if (
            len(self.pending) >= self.max_messages
            or self.pending_bytes + len(data) > self.max_bytes
        ):
            log.warning(
                "client %s too slow (%d messages, %d bytes waiting): disconnecting",
                self.player.id,
                len(self.pending),
                self.pending_bytes,
            )
            self.pending.clear()
            self.pending_bytes = 0
            self.close()
            return
        self.pending.append(data)
        self.pending_bytes += len(data)
        if self.flusher is None or self.slow:
            self.ready.set()
        elif not self.dirty:
            self.dirty = True
            self.flusher.add(self)

    def close(self, code: int = 1000) -> None:
        """Ask the socket's writer to close the connection (with ``code``) after what was
        sent to it."""
        if not self.open:
            return
        self.open = False
        self.closing = True
        self.close_code = code
        self.ready.set()

    def send_now_with(self, direct: SendNow | None) -> None:
        """Write frames through ``direct`` (None: through the writer task only), from the
        running loop's ``Flusher``; called on the socket's loop, before the first send."""
        self.direct = direct
        self.flusher = None if direct is None else Flusher.of(asyncio.get_running_loop())

    def flush(self) -> None:
        """Write what has gathered straight to the socket (``direct``); whatever it does
        not take now is left to the writer task, which waits until it can (``slow``), and
        so is everything after ``direct`` failed (an error never stalls the connection)."""
        self.dirty = False
        direct = self.direct
        if direct is None or self.slow or self.closing:
            self.ready.set()
            return
        while (frame := self.next_frame()) is not None:
            try:
                took = direct(frame)
            except Exception:  # the socket failed: its writer task sends, or finds it gone
                log.exception("writing to client %s failed", self.player.id)
                self.direct = None
                took = False
            if not took:
                self.held = frame
                self.slow = True
                self.ready.set()
                return

    def take_frame(self) -> bytes | None:
        """What the writer task sends next: a frame the socket did not take at once, or
        ``next_frame``. Once nothing waits, ``Flusher`` writes again (``slow`` ends)."""
        held = self.held
        if held is not None:
            self.held = None
            return held
        frame = self.next_frame()
        if frame is None:
            self.slow = False
        return frame

    def next_frame(self) -> bytes | None:
        """What the writer sends next: the waiting messages as one frame (a JSON array of
        them when there are several), up to ``FRAME_BYTES``; None when nothing waits."""
        pending = self.pending
        if not pending:
            if not self.closing:
                self.ready.clear()
            return None
        first = pending.popleft()
        if not self.batch or not pending or len(first) + len(pending[0]) + 3 > FRAME_BYTES:
            self.pending_bytes -= len(first)
            return first
        batch = [first]
        size = len(first) + 2
        while pending and size + len(pending[0]) + 1 <= FRAME_BYTES:
            data = pending.popleft()
            batch.append(data)
            size += len(data) + 1
        self.pending_bytes -= sum(len(b) for b in batch)
        return b"[" + b",".join(batch) + b"]"
