"""Room leases, the pure rules: when a lease may be claimed or renewed, and whether a write
carries the current fencing epoch. No I/O, no clock: ``now`` (seconds) comes in.

A room is run by the one process holding its lease: ``Lease(owner, epoch, expires_at)``,
one row per room in ``room_lease``. The owner renews it every ``lease_renew_s``; once it
has expired, any process may claim it, which bumps the epoch. Every write of the room
carries the writer's ``Fence`` (owner and epoch) and is refused unless it matches the row:
a process that slept through its lease (a long GC pause, SIGSTOP, a partition) and wakes
up after another adopted the room cannot write to it again. server/store/lease_store.py runs the
same decisions as SQL statements, atomically, in the database.

>>> a = claim(None, "a", now=0.0, ttl=8.0)
>>> a
Lease(owner='a', epoch=1, expires_at=8.0)
>>> claim(a, "b", now=5.0, ttl=8.0) is None   # a holds it: b waits
True
>>> b = claim(a, "b", now=9.0, ttl=8.0)       # a let it expire: b adopts, a new epoch
>>> b
Lease(owner='b', epoch=2, expires_at=17.0)
>>> admits(b, Fence("a", 1)), admits(b, Fence("b", 2))   # a's late write is refused
(False, True)
>>> renew(b, Fence("a", 1), now=10.0, ttl=8.0) is None    # and so is its renewal
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Lease:
    """Who runs a room (``owner``, an instance id), under which fencing ``epoch``, until
    when (``expires_at``, seconds since the epoch on the database's hosts' clocks)."""

    owner: str
    epoch: int
    expires_at: float


@dataclass(frozen=True, slots=True)
class Fence:
    """What a write carries: the owner and epoch its process holds the room under."""

    owner: str
    epoch: int


class LeaseLost(Exception):
    """A write (or renewal) of a room whose lease this process no longer holds: the
    database refused it. The room must stop at once; another process runs it now."""

    def __init__(self, room_id: int) -> None:
        super().__init__(f"room {room_id}: the lease is held by another process now")
        self.room_id = room_id


def expired(lease: Lease, now: float) -> bool:
    """Whether ``lease`` has run out at ``now`` (then anyone may claim the room).

    >>> expired(Lease("a", 1, 8.0), 8.0), expired(Lease("a", 1, 8.0), 7.9)
    (True, False)
    """
    return now >= lease.expires_at


def claimable(lease: Lease | None, me: str, now: float, *, at_start: bool = False) -> bool:
    """Whether ``me`` may claim a room whose lease is ``lease`` (None: never leased): it
    has none or it has expired; ``at_start``, also one under ``me``'s own id (a restart
    under the same instance id takes its rooms back at once: they were its dead
    incarnation's).

    >>> mine = Lease("a", 3, 100.0)
    >>> claimable(mine, "a", 50.0), claimable(mine, "a", 50.0, at_start=True)
    (False, True)
    """
    if lease is None or expired(lease, now):
        return True
    return at_start and lease.owner == me


def claim(
    lease: Lease | None,
    me: str,
    now: float,
    ttl: float,
    *,
    at_start: bool = False,
) -> Lease | None:
    """The new lease when ``me`` claims the room (the epoch bumped: every earlier holder,
    ``me``'s own earlier incarnation included, is fenced off); None when it may not."""
    if not claimable(lease, me, now, at_start=at_start):
        return None
    return Lease(me, (0 if lease is None else lease.epoch) + 1, now + ttl)


def admits(lease: Lease | None, fence: Fence) -> bool:
    """Whether a write carrying ``fence`` may change a room whose lease is ``lease``: only
    the current holder's, under the current epoch. Expiry alone does not refuse it: until
    another process claims the room nobody else writes to it."""
    return lease is not None and lease.owner == fence.owner and lease.epoch == fence.epoch


def renew(lease: Lease | None, fence: Fence, now: float, ttl: float) -> Lease | None:
    """The lease extended to ``now + ttl`` for its holder; None: ``fence`` is stale (the
    room was claimed by another, so the holder lost it)."""
    if not admits(lease, fence):
        return None
    assert lease is not None
    return Lease(lease.owner, lease.epoch, now + ttl)


def release(lease: Lease | None, fence: Fence, now: float) -> Lease | None:
    """The lease expired at once (a process shutting down hands its rooms on without
    making others wait out the TTL); None when ``fence`` is stale (nothing to release)."""
    if not admits(lease, fence):
        return None
    assert lease is not None
    return Lease(lease.owner, lease.epoch, min(lease.expires_at, now))
