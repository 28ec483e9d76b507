"""What makes the Redis bus between server processes trustworthy beyond Redis's own password:
every payload sealed with an HMAC under the group's shared secret (``Settings.bus_secret``),
and channel names that do not show room codes.

- ``seal(channel, payload)`` puts a 32-byte HMAC-SHA256 of the channel's name and the payload
  in front of the payload; ``open(channel, data)`` checks it (constant-time) and gives the
  payload back, or None: a message that was not sealed with the secret for that very
  channel is dropped before anything reads it (``Bus`` counts it,
  ``shengji_bus_forged_total``). A message copied to another channel does not open there.
- ``room_name(code)`` is a keyed hash of a room's code: who lists the channels
  (``PUBSUB CHANNELS``) learns no code, private rooms' included; processes with the same
  secret agree on it.

>>> key = BusKey("correct horse battery staple")
>>> sealed = key.seal("shengji:edge:a", b"hello")
>>> key.open(b"shengji:edge:a", sealed)
b'hello'
>>> key.open(b"shengji:edge:b", sealed) is None  # not for this channel
True
>>> key.open(b"shengji:edge:a", b"x" * 32 + b"hello") is None  # not sealed with the secret
True
>>> key.room_name("ABC123") == BusKey("correct horse battery staple").room_name("ABC123")
True
>>> "ABC123" in key.room_name("ABC123")
False
"""

from __future__ import annotations

import hashlib
import hmac

MAC_BYTES = 32
"""The length of a seal (HMAC-SHA256)."""
MIN_SECRET_CHARS = 16
"""A shorter shared secret is refused."""


class BusKey:
    """The group's shared secret, as keys for sealing payloads and naming channels."""

    __slots__ = ("_names", "_seal")

    def __init__(self, secret: str) -> None:
        if len(secret) < MIN_SECRET_CHARS:
            raise ValueError(f"the bus secret must have at least {MIN_SECRET_CHARS} characters")
        root = secret.encode()
        self._seal = hmac.new(root, b"shengji bus: seal", hashlib.sha256).digest()
        self._names = hmac.new(root, b"shengji bus: channel names", hashlib.sha256).digest()

    def _mac(self, channel: bytes, payload: bytes) -> bytes:
        h = hmac.new(self._seal, channel, hashlib.sha256)
        h.update(b"\0")
        h.update(payload)
        return h.digest()

    def seal(self, channel: str, payload: bytes) -> bytes:
        """``payload`` with its seal in front, for ``channel`` only."""
        return self._mac(channel.encode(), payload) + payload

    def open(self, channel: bytes, data: bytes) -> bytes | None:
        """The payload of ``data`` if it was sealed for ``channel`` with the secret, else
        None."""
        if len(data) < MAC_BYTES:
            return None
        payload = data[MAC_BYTES:]
        if not hmac.compare_digest(data[:MAC_BYTES], self._mac(channel, payload)):
            return None
        return payload

    def room_name(self, code: str) -> str:
        """The name of room ``code`` in channels and keys: 32 hex digits (128 bits) of a
        keyed hash."""
        return hmac.new(self._names, code.encode(), hashlib.sha256).hexdigest()[:32]
