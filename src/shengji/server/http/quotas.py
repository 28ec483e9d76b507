"""Quotas on what guests may create: sign-ups per address, rooms per player and per address;
and the open WebSockets one address may hold (``OpenSockets``).

Each quota is one or more rates in the notation of the ``limits`` library
(``"10/minute;100/hour"``), kept in memory with a moving window: a request is allowed when
every window of its quota has room, and a refusal says how many seconds until the oldest
counted request leaves the window (the ``Retry-After`` of the 429). Only what was allowed is
counted, so a guest who waits as told always gets through.

>>> q = Quotas(signup_rate="9/minute", room_rate="1/minute", room_rate_per_address="3/minute")
>>> q.check_room("ann", "10.0.0.7")
>>> q.room_created("ann", "10.0.0.7")
>>> try:
...     q.check_room("ann", "10.0.0.7")
... except OverQuota as e:
...     print(e.message, 0 < e.retry_after <= 60)
too many rooms from one player: at most 1 per 1 minute True
>>> q.check_room("bob", "10.0.0.7")  # another player behind the same address
>>> address_key("2001:db8::1") == address_key("2001:db8::2")  # one IPv6 host is a /64
True
"""

from __future__ import annotations

import ipaddress
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


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


class Quota:
    """One named quota: several rates, all of which must have room."""

    def __init__(self, limiter: MovingWindowRateLimiter, name: str, rates: str, what: str):
        self.limiter = limiter
        self.name = name
        self.items: list[RateLimitItem] = parse_many(rates)
        self.what = what

    def check(self, key: str) -> None:
        """Raise ``OverQuota`` if one more request for ``key`` would exceed a rate."""
        for item in self.items:
            if not self.limiter.test(item, self.name, key):
                stats = self.limiter.get_window_stats(item, self.name, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise OverQuota(f"too many {self.what}: at most {item}", wait)

    def hit(self, key: str) -> None:
        """Count one request for ``key``."""
        for item in self.items:
            self.limiter.hit(item, self.name, key)


class Quotas:
    """The server's quotas (rates as in Settings: ``signup_rate``, ``room_rate``,
    ``room_rate_per_address``)."""

    def __init__(self, signup_rate: str, room_rate: str, room_rate_per_address: str) -> None:
        limiter = MovingWindowRateLimiter(MemoryStorage())
        self.signups = Quota(limiter, "signup", signup_rate, "sign-ups from one address")
        self.rooms = Quota(limiter, "room", room_rate, "rooms from one player")
        self.room_addresses = Quota(
            limiter, "room-address", room_rate_per_address, "rooms from one address"
        )

    def signup(self, address: str) -> None:
        """Allow and count one sign-up from ``address``, or raise ``OverQuota``."""
        self.signups.check(address)
        self.signups.hit(address)

    def check_room(self, player: str, address: str) -> None:
        """Raise ``OverQuota`` if ``player`` at ``address`` may not create a room now."""
        self.rooms.check(player)
        self.room_addresses.check(address)

    def room_created(self, player: str, address: str) -> None:
        """Count a room ``player`` created from ``address``."""
        self.rooms.hit(player)
        self.room_addresses.hit(address)


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
