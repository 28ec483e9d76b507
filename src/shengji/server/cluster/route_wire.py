"""The messages server processes send each other through Redis (routing).

Two kinds of channel, named under the instance group's prefix (``Settings.redis_prefix``):

- ``<prefix>room:<code>``: a room's inbox, subscribed by the process that runs the room
  (its *owner*) while it runs it. Edges (processes holding a client's socket for a room
  they do not run) publish ``Open``, ``Frame``, ``Left`` and ``Ask`` there.
- ``<prefix>edge:<instance>``: a process's own inbox. Owners publish ``Out``, ``Shut`` and
  ``Answer`` there; the process also hears its own ``Ping`` there (the link's liveness).

A payload is a msgpack array of messages (a batch: one ``PUBLISH`` carries everything a
process had queued for that channel, in order), sealed on the way (server/cluster/bus_auth.py). A
routed client's ``conn`` and a question's ``id`` are ``new_key()``: 16 random bytes, so
that nobody can name another's connection by guessing.

>>> batch = encode([Frame(conn=b"k" * 16, edge="e1", data=b'{"t":"ping","v":2}')])
>>> decode(batch)[0].data
b'{"t":"ping","v":2}'
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import msgspec

KEY_BYTES = 16
"""A routed connection's or question's key: 128 random bits."""


def new_key() -> bytes:
    """A fresh key for a routed connection or question."""
    return secrets.token_bytes(KEY_BYTES)


class Open(msgspec.Struct, tag="open", array_like=True):
    """Edge → owner: a client came; ``first`` is its first frame (``hello``, unchecked)."""

    conn: bytes
    edge: str
    first: bytes


class Frame(msgspec.Struct, tag="frame", array_like=True):
    """Edge → owner: a later frame of that client, as it came (at most one byte more than
    ``max_message_bytes``: a longer frame is cut there, so the owner still says
    ``too-big``)."""

    conn: bytes
    edge: str
    data: bytes


class Left(msgspec.Struct, tag="left", array_like=True):
    """Edge → owner: the client's socket closed."""

    conn: bytes
    edge: str


class Ask(msgspec.Struct, tag="ask", array_like=True):
    """Edge → owner: an HTTP question only the live room can answer (``op``: ``replay``)."""

    id: bytes
    edge: str
    op: str
    player: str | None


class Out(msgspec.Struct, tag="out", array_like=True):
    """Owner → edge: bytes for one client's socket."""

    conn: bytes
    data: bytes


class Shut(msgspec.Struct, tag="shut", array_like=True):
    """Owner → edge: close that client's socket with ``code``."""

    conn: bytes
    code: int


class Answer(msgspec.Struct, tag="answer", array_like=True):
    """Owner → edge: the answer to an ``Ask``: an HTTP status and a JSON body."""

    id: bytes
    status: int
    body: bytes


class Ping(msgspec.Struct, tag="ping", array_like=True):
    """A process to itself, through Redis: the subscription still delivers."""

    n: int


BusMsg = Open | Frame | Left | Ask | Out | Shut | Answer | Ping

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(list[BusMsg])


def encode(batch: Sequence[BusMsg]) -> bytes:
    """One channel's batch as a payload."""
    return _encoder.encode(list(batch))


def decode(payload: bytes) -> list[BusMsg]:
    """A payload back into its messages (``msgspec.DecodeError`` / ``ValidationError`` if
    it is not one)."""
    return _decoder.decode(payload)
