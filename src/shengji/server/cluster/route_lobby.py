"""The lobby every process shows: each owner keeps its rooms in one Redis hash.

``<prefix>lobby`` maps a room's name (``BusKey.room_name``: a keyed hash of its code) to a
``Listing`` (JSON: the room's ``RoomInfo``, its database id and the process running it),
sealed with the group's secret (server/cluster/bus_auth.py) as 64 hex digits in front; a listing
that does not open is skipped, as if absent. An owner writes a room's listing when it starts
running it (before its creator hears of it), rewrites it within ``REFRESH_S`` of a change
and deletes it when it stops (only if it is still the owner: an adopter's listing stays).
``<prefix>alive:<instance>`` expires ``ALIVE_MS`` after the process's last heartbeat, so
the listings of a dead process are not shown; an adopter overwrites them.

A listing is up to ``REFRESH_S`` old (seats and status); a client that enters the room
gets its live state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import msgspec

from shengji.server.cluster.bus import Bus
from shengji.server.cluster.bus_auth import MAC_BYTES
from shengji.server.live.rooms import Room
from shengji.server.tasks import cancel_and_wait
from shengji.server.wire import messages as wire

if TYPE_CHECKING:
    from shengji.server.live.lobby import Lobby

log = logging.getLogger("shengji.server.route")

REFRESH_S = 1.0
"""How often changed listings are rewritten (and the heartbeat renewed)."""
ALIVE_MS = 10_000
"""A process whose heartbeat is older than this is taken as gone."""

_DROP_IF_OWNER = """
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and cjson.decode(string.sub(v, 65))['owner'] == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


class Listing(msgspec.Struct):
    """One room in the shared lobby."""

    rid: int
    owner: str
    """The instance running it."""
    room: wire.RoomInfo


_decoder = msgspec.json.Decoder(Listing)


class SharedLobby:
    """This process's rooms in the shared hash, and every live process's rooms from it."""

    def __init__(self, bus: Bus, lobby: Lobby) -> None:
        self.bus = bus
        self.lobby = lobby
        """The local lobby (its rooms, loaded or unloaded while idle, read at each refresh)."""
        self.key = f"{bus.prefix}lobby"
        self.sent: dict[str, bytes] = {}
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def alive_key(self, instance: str) -> str:
        return f"{self.bus.prefix}alive:{instance}"

    def start(self) -> None:
        """Start the refresh loop (heartbeat and changed listings)."""
        self._task = asyncio.create_task(self._loop(), name="route-lobby")

    async def stop(self) -> None:
        """Stop refreshing; this process's heartbeat is removed (its rooms vanish at once
        from the other processes' lobbies)."""
        await cancel_and_wait(self._task)
        if self.bus.up:
            with contextlib.suppress(Exception):
                await self.bus.redis.delete(self.alive_key(self.bus.instance))

    def forget_sent(self) -> None:
        """Redis may have lost everything (the link was down): rewrite every listing now."""
        self.sent.clear()
        self._wake.set()

    def _field(self, code: str) -> str:
        return self.bus.key.room_name(code)

    def _seal(self, code: str, listing: Listing) -> bytes:
        data = msgspec.json.encode(listing)
        mac = self.bus.key.seal(self.key + self._field(code), data)[:MAC_BYTES]
        return mac.hex().encode() + data

    def _open(self, name: bytes | str, value: bytes | str) -> Listing | None:
        """The listing in ``value`` under field ``name`` if it is sealed and well formed."""
        field = name.decode() if isinstance(name, bytes) else name
        value = value.encode() if isinstance(value, str) else value
        try:
            sealed = bytes.fromhex(value[: 2 * MAC_BYTES].decode()) + value[2 * MAC_BYTES:]
        except (ValueError, UnicodeDecodeError):
            return None
        data = self.bus.key.open((self.key + field).encode(), sealed)
        if data is None:
            return None
        try:
            return _decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    def _listing(self, room: Room) -> bytes:
        return self._seal(room.code, Listing(room.rid, self.bus.instance, room.info()))

    async def put(self, room: Room) -> None:
        """List ``room`` now (it runs here)."""
        if not self.bus.up:
            return
        data = self._listing(room)
        try:
            async with self.bus.redis.pipeline(transaction=False) as pipe:
                pipe.set(self.alive_key(self.bus.instance), b"1", px=ALIVE_MS)
                pipe.hset(self.key, self._field(room.code), data)
                await pipe.execute()
            self.sent[room.code] = data
        except Exception as e:
            log.warning("could not list room %s in Redis: %s", room.code[:6], e)

    async def drop(self, code: str) -> None:
        """Unlist room ``code`` unless another process lists it now."""
        self.sent.pop(code, None)
        if not self.bus.up:
            return
        with contextlib.suppress(Exception):
            await self.bus.redis.eval(_DROP_IF_OWNER, 1, self.key, self._field(code),
                                      self.bus.instance)

    async def refresh(self) -> int:
        """Renew the heartbeat and rewrite the listings that changed; returns how many."""
        changed: dict[str, bytes] = {}
        for code, room in list(self.lobby.rooms.items()):
            if room.closed or room.failed is not None:
                continue
            data = self._listing(room)
            if self.sent.get(code) != data:
                changed[code] = data
        for code, stub in list(self.lobby.idle.items()):  # unloaded while idle: still ours
            if code not in self.sent:
                info = msgspec.json.decode(stub.info, type=wire.RoomInfo)
                changed[code] = self._seal(code, Listing(stub.rid, self.bus.instance, info))
        async with self.bus.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.alive_key(self.bus.instance), b"1", px=ALIVE_MS)
            if changed:
                named = {self._field(code): data for code, data in changed.items()}
                pipe.hset(self.key, mapping=named)  # type: ignore[arg-type]
            await pipe.execute()
        self.sent.update(changed)
        return len(changed)

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), REFRESH_S)
            self._wake.clear()
            if not self.bus.up:
                continue
            try:
                await self.refresh()
            except Exception as e:
                log.debug("lobby refresh failed: %s", e)

    async def listings(self) -> list[Listing]:
        """Every room listed by a live process (this one's too)."""
        raw = await self.bus.redis.hgetall(self.key)
        out = [x for x in (self._open(k, v) for k, v in raw.items()) if x is not None]
        owners = sorted({x.owner for x in out})
        if not owners:
            return []
        alive = await self.bus.redis.mget([self.alive_key(o) for o in owners])
        live = {o for o, a in zip(owners, alive, strict=True) if a is not None}
        return [x for x in out if x.owner in live]

    async def listing(self, code: str) -> Listing | None:
        """Room ``code``'s listing, if a live process lists it."""
        value = await self.bus.redis.hget(self.key, self._field(code))
        found = None if value is None else self._open(self._field(code), value)
        if found is None or found.room.code != code:
            return None
        if await self.bus.redis.exists(self.alive_key(found.owner)):
            return found
        return None
