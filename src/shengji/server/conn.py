"""One client's connection to a room: its player and the queue its socket's writer drains.

>>> from shengji.server.storage import Player
>>> c = Conn(Player("p1", "ann"), queue_size=16)
>>> c.send(b"{}"); c.close(4404); c.open, c.close_code
(False, 4404)
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from shengji.server.storage import Player

log = logging.getLogger("shengji.server.rooms")

_conn_ids = itertools.count(1)


class Conn:
    """One connected client: a player and its outgoing queue (drained by its socket)."""

    def __init__(self, player: Player, queue_size: int = 4096) -> None:
        self.id = next(_conn_ids)
        self.player = player
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(queue_size)
        self.open = True
        self.seat: int | None = None
        """The seat it plays, as the table last said (for presence)."""
        self.welcomed = False
        """Its ``welcome`` went out (presence goes only to welcomed connections)."""
        self.presence_delta = False
        """Wants ``presence_delta`` messages (said so in ``hello``)."""
        self.presence_synced = False
        """Has had the whole presence list once."""
        self.close_code = 1000
        """The WebSocket close code its writer closes with."""

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
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.warning("client %s too slow: disconnecting", self.player.id)
            self.close()

    def close(self, code: int = 1000) -> None:
        """Ask the socket's writer to close the connection (with ``code``)."""
        if not self.open:
            return
        self.open = False
        self.close_code = code
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()
