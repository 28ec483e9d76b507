"""Quotas on what guests may create: sign-ups per address, rooms per player and per address;
and the open WebSockets one address may hold (``OpenSockets``).

Each quota is one or more rates in the notation of the ``limits`` library
(``"10/minute;100/hour"``), kept with a moving window, in memory or, given a Redis URL
(``--redis-url``), in Redis under the group's prefix, so that every process of a group
counts together (three instances give an address the limit once, not three times; a
Redis that does not answer: each process counts alone meanwhile). A request is allowed when
every window of its quota has room, and a refusal says how many seconds until the oldest
counted request leaves the window (the ``Retry-After`` of the 429). Only what was allowed is
counted, so a guest who waits as told always gets through.

>>> import asyncio
>>> q = Quotas(signup_rate="9/minute", room_rate="1/minute", room_rate_per_address="3/minute")
>>> async def demo() -> None:
...     await q.check_room("ann", "10.0.0.7")
...     await q.room_created("ann", "10.0.0.7")
...     try:
...         await q.check_room("ann", "10.0.0.7")
...     except OverQuota as e:
...         print(e.message, 0 < e.retry_after <= 60)
...     await q.check_room("bob", "10.0.0.7")  # another player behind the same address
>>> asyncio.run(demo())
too many rooms from one player: at most 1 per 1 minute True
>>> address_key("2001:db8::1") == address_key("2001:db8::2")  # one IPv6 host is a /64
True
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter

log = logging.getLogger("shengji.server")
WARN_S = 60.0
"""A quota whose shared count is unavailable says so at most this often."""


class OverQuota(Exception):
    """A request over its quota: ``message`` says which, ``retry_after`` when to retry."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def address_key(host: str | None) -> str:
    """What one client address counts as: an IPv4 address itself, an IPv6 address its /64
    (one host is usually given a whole /64).

    >>> address_key("192.0.2.4"), address_key("2001:db8:0:1:a::1"), address_key(None)
    ('192.0.2.4', '2001:db8:0:1::/64', 'unknown')
    """
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def limits_url(redis_url: str) -> str:
    """The ``limits`` library's name for a Redis URL (its async storage).

    >>> limits_url("redis://:pw@redis:6379/0")
    'async+redis://:pw@redis:6379/0'
    """
    for scheme, theirs in (("rediss://", "async+rediss://"), ("redis://", "async+redis://"),
                           ("unix://", "async+redis+unix://")):
        if redis_url.startswith(scheme):
            return theirs + redis_url[len(scheme):]
    raise ValueError("a Redis URL starts with redis://, rediss:// or unix://")


class Quota:
    """One named quota: several rates, all of which must have room."""

    def __init__(self, limiters: list[MovingWindowRateLimiter], name: str, rates: str,
                 what: str):
        self.limiters = limiters
        """The shared limiter (Redis) first, if any, then this process's own."""
        self.name = name
        self.items: list[RateLimitItem] = parse_many(rates)
        self.what = what
        self._warned = -WARN_S

    def _unavailable(self, e: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_S:
            self._warned = now
            log.warning("quota %s: the shared count (Redis) is unavailable (%s: %s); this "
                        "process counts alone meanwhile", self.name, type(e).__name__, e)

    async def check(self, key: str) -> None:
        """Raise ``OverQuota`` if one more request for ``key`` would exceed a rate."""
        for limiter in self.limiters:
            try:
                for item in self.items:
                    if not await limiter.test(item, self.name, key):
                        stats = await limiter.get_window_stats(item, self.name, key)
                        wait = max(1, math.ceil(stats.reset_time - time.time()))
                        raise OverQuota(f"too many {self.what}: at most {item}", wait)
                return
            except OverQuota:
                raise
            except Exception as e:  # Redis away: this process counts alone meanwhile
                self._unavailable(e)

    async def hit(self, key: str) -> None:
        """Count one request for ``key`` (shared and here)."""
        for limiter in self.limiters:
            try:
                for item in self.items:
                    await limiter.hit(item, self.name, key)
            except Exception as e:
                self._unavailable(e)


class Quotas:
    """The server's quotas (rates as in Settings: ``signup_rate``, ``room_rate``,
    ``room_rate_per_address``), shared through ``redis_url`` (keys under ``prefix``) when
    given."""

    def __init__(self, signup_rate: str, room_rate: str, room_rate_per_address: str,
                 redis_url: str | None = None, prefix: str = "shengji:") -> None:
        limiters = [MovingWindowRateLimiter(MemoryStorage())]
        if redis_url:
            shared = RedisStorage(limits_url(redis_url), implementation="redispy",
                                  key_prefix=f"{prefix}quota")
            limiters.insert(0, MovingWindowRateLimiter(shared))
        self.signups = Quota(limiters, "signup", signup_rate, "sign-ups from one address")
        self.rooms = Quota(limiters, "room", room_rate, "rooms from one player")
        self.room_addresses = Quota(
            limiters, "room-address", room_rate_per_address, "rooms from one address"
        )

    async def signup(self, address: str) -> None:
        """Allow and count one sign-up from ``address``, or raise ``OverQuota``."""
        await self.signups.check(address)
        await self.signups.hit(address)

    async def check_room(self, player: str, address: str) -> None:
        """Raise ``OverQuota`` if ``player`` at ``address`` may not create a room now."""
        await self.rooms.check(player)
        await self.room_addresses.check(address)

    async def room_created(self, player: str, address: str) -> None:
        """Count a room ``player`` created from ``address``."""
        await self.rooms.hit(player)
        await self.room_addresses.hit(address)


class OpenSockets:
    """Open WebSockets counted per address (``address_key``; None: one not counted), at
    most ``cap`` each (0: no cap).

    >>> sockets = OpenSockets(cap=2)
    >>> [sockets.enter("10.0.0.7") for _ in range(3)]
    [True, True, False]
    >>> sockets.leave("10.0.0.7"); sockets.enter("10.0.0.7"), sockets.enter(None)
    (True, True)
    >>> sockets.count("10.0.0.7")
    2
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[str, int] = {}

    def enter(self, key: str | None) -> bool:
        """Count one more socket from ``key``; False (nothing counted) when at the cap."""
        if self.cap <= 0 or key is None:
            return True
        n = self._open.get(key, 0)
        if n >= self.cap:
            return False
        self._open[key] = n + 1
        return True

    def leave(self, key: str | None) -> None:
        """One socket from ``key`` closed (one that ``enter`` let in)."""
        if self.cap <= 0 or key is None:
            return
        n = self._open.get(key, 0) - 1
        if n > 0:
            self._open[key] = n
        else:
            self._open.pop(key, None)

    def count(self, key: str) -> int:
        """How many sockets from ``key`` are counted open."""
        return self._open.get(key, 0)
