"""Room leases in the database: the decisions of server/store/lease_rules.py as SQL statements
that the database carries out atomically (one statement or one short transaction each).

- ``claim_rooms``: take every room that may be claimed (never leased, expired, or at
  start our own instance id's) with ``UPDATE ... SET epoch = epoch + 1 WHERE room_id = ?
  AND epoch = <seen> AND expires_at <= now``: of two processes claiming at once, exactly
  one changes the row.
- ``renew``: one ``UPDATE ... WHERE owner = me RETURNING room_id, epoch``; a room we hold
  that is missing from the answer, or under another epoch, was claimed by another process.
- ``Fences.refused``: THE fenced check, inside the transaction of every write of a room's
  log and state (server/store/group_commit.py ``insert_log_rows``), its closing, quarantine,
  finished matches and settled deals: it locks the rooms' lease rows (in room order: no
  deadlocks; PostgreSQL ``FOR SHARE``, so the writer lanes never wait for each other, only
  a claim or a renewal waits for them) and refuses the rooms whose lease no longer matches
  the writer's fence. The lock is held to the commit, so a claim either comes before the
  write (which is refused) or after it (and the adopter replays a log that has the row).

The clocks of the hosts sharing a database must agree to well within the TTL (NTP): a
lease's expiry is a wall-clock time written by its owner and read by the others.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, async_sessionmaker

from shengji.server.store.lease_rules import Fence, Lease, admits
from shengji.server.store.models import InstanceRow, QuarantineRow, RoomLeaseRow, RoomRow

_lease = cast(Table, RoomLeaseRow.__table__)
_instances = cast(Table, InstanceRow.__table__)


def _rowcount(result: Any) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


@dataclass(frozen=True)
class Holder:
    """Who runs a room, as others see it: the instance, where to reach it, the epoch,
    and whether its lease is current (``live``)."""

    instance: str
    address: str | None
    epoch: int
    expires_at: float
    live: bool


class Fences:
    """The fence this process writes each room under (``hold``), or none any more
    (``lose``). A room never registered is not fenced (SQLite, where one process runs every
    room; admin tools; the store's own tests); one lost is refused without asking the
    database. ``sqlite``: lock the lease rows SQLite's way (a write takes its lock)."""

    def __init__(self, sqlite: bool = False) -> None:
        self._rooms: dict[int, Fence | None] = {}
        self.sqlite = sqlite

    def hold(self, room_id: int, fence: Fence) -> None:
        """Write ``room_id`` under ``fence`` from now on."""
        self._rooms[room_id] = fence

    def lose(self, room_id: int) -> None:
        """Refuse every further write of ``room_id`` (its lease is gone)."""
        self._rooms[room_id] = None

    def drop(self, room_id: int) -> None:
        """Forget ``room_id`` (claimed but never started: the next scan may claim it)."""
        self._rooms.pop(room_id, None)

    def holds(self, room_id: int) -> bool:
        """Whether ``room_id`` may be written: held, or never registered (unfenced)."""
        return self._rooms.get(room_id, True) is not None

    def held(self) -> dict[int, Fence]:
        """The rooms held now, with their fences (a copy)."""
        return {r: f for r, f in self._rooms.items() if f is not None}

    def fence(self, room_id: int) -> Fence | None:
        """The fence of a held room; None if not held (lost or never registered)."""
        return self._rooms.get(room_id)

    async def refused(
        self, conn: AsyncSession | AsyncConnection, room_ids: Iterable[int]
    ) -> set[int]:
        """THE fenced check: which of ``room_ids`` this process may no longer write, inside
        ``conn``'s open transaction (whose rows of those rooms must then be left out). The
        lease rows of the fenced rooms are locked until the commit.

        >>> import asyncio
        >>> f = Fences()
        >>> f.lose(7)
        >>> sorted(asyncio.run(f.refused(None, [7, 8])))  # type: ignore[arg-type]
        [7]
        """
        fenced: dict[int, Fence] = {}
        refused: set[int] = set()
        for rid in set(room_ids):
            if rid not in self._rooms:
                continue  # not fenced
            fence = self._rooms[rid]
            if fence is None:
                refused.add(rid)
            else:
                fenced[rid] = fence
        if not fenced:
            return refused
        ids = sorted(fenced)
        if self.sqlite:  # a write first: SQLite takes its write lock here
            rows = await conn.execute(
                update(_lease)
                .where(_lease.c.room_id.in_(ids))
                .values(epoch=_lease.c.epoch)
                .returning(_lease.c.room_id, _lease.c.owner, _lease.c.epoch)
            )
        else:
            rows = await conn.execute(
                select(_lease.c.room_id, _lease.c.owner, _lease.c.epoch)
                .where(_lease.c.room_id.in_(ids))
                .order_by(_lease.c.room_id)
                .with_for_update(read=True)
            )
        current = {int(r[0]): Lease(str(r[1]), int(r[2]), 0.0) for r in rows}
        for rid, fence in fenced.items():
            if not admits(current.get(rid), fence):
                refused.add(rid)
        return refused


Sessions = async_sessionmaker[AsyncSession]


def lease_inserter(
    me: str, address: str | None, expires_at: float
) -> Callable[[AsyncSession, int], Coroutine[Any, Any, None]]:
    """A new room's first lease (epoch 1), inserted in the transaction that makes it."""

    async def add(session: AsyncSession, room_id: int) -> None:
        await session.execute(
            insert(_lease).values(
                room_id=room_id, owner=me, epoch=1, expires_at=expires_at, address=address
            )
        )

    return add


async def claim_rooms(
    sessions: Sessions,
    me: str,
    address: str | None,
    now: float,
    ttl: float,
    skip: Collection[int],
    at_start: bool = False,
) -> dict[int, Fence]:
    """Claim every open, unquarantined room not in ``skip`` that may be claimed
    (lease_rules.claimable: no lease, an expired one, ``at_start`` one under our own id);
    returns those claimed, with the fence to write them under."""
    free = or_(RoomLeaseRow.room_id.is_(None), RoomLeaseRow.expires_at <= now)
    if at_start:
        free = or_(free, RoomLeaseRow.owner == me)
    async with sessions() as s:
        candidates = (
            await s.execute(
                select(RoomRow.id, RoomLeaseRow.epoch)
                .outerjoin(RoomLeaseRow, RoomLeaseRow.room_id == RoomRow.id)
                .where(
                    RoomRow.closed.is_(False),
                    RoomRow.id.not_in(select(QuarantineRow.room_id)),
                    free,
                )
                .order_by(RoomRow.id)
            )
        ).all()
    claimed: dict[int, Fence] = {}
    for rid, seen in candidates:
        if rid in skip:
            continue
        epoch = await _claim_one(sessions, int(rid), seen, me, address, now, ttl, at_start)
        if epoch is not None:
            claimed[int(rid)] = Fence(me, epoch)
    return claimed


async def _claim_one(
    sessions: Sessions,
    rid: int,
    seen: int | None,
    me: str,
    address: str | None,
    now: float,
    ttl: float,
    at_start: bool,
) -> int | None:
    """Claim one room whose lease had epoch ``seen`` (None: none); the new epoch, or None
    when another process changed the lease first."""
    try:
        async with sessions.begin() as s:
            if seen is None:
                await s.execute(
                    insert(_lease).values(
                        room_id=rid, owner=me, epoch=1, expires_at=now + ttl, address=address
                    )
                )
                return 1
            still = _lease.c.expires_at <= now
            if at_start:
                still = or_(still, _lease.c.owner == me)
            done = await s.execute(
                update(_lease)
                .where(
                    _lease.c.room_id == rid,
                    _lease.c.epoch == seen,
                    still,
                )
                .values(owner=me, epoch=seen + 1, expires_at=now + ttl, address=address)
            )
            return seen + 1 if _rowcount(done) == 1 else None
    except IntegrityError:  # another process inserted the first lease meanwhile
        return None


async def renew(
    sessions: Sessions, me: str, held: dict[int, Fence], now: float, ttl: float
) -> set[int]:
    """Extend the leases of ``held`` that ``me`` still owns to ``now + ttl`` (and record
    that ``me`` is alive); returns the rooms of ``held`` whose lease is gone (claimed by
    another process: stop them). Only the rooms held are renewed: a lease left under our
    name by a room closed or set aside, or by an earlier incarnation, runs out."""
    current: dict[int, Lease] = {}
    async with sessions.begin() as s:
        if held:
            locked = (
                select(_lease.c.room_id)
                .where(_lease.c.owner == me, _lease.c.room_id.in_(sorted(held)))
                .order_by(_lease.c.room_id)
                .with_for_update()
            )
            rows = await s.execute(
                update(_lease)
                .where(_lease.c.room_id.in_(locked.scalar_subquery()))
                .values(expires_at=now + ttl)
                .returning(_lease.c.room_id, _lease.c.epoch)
            )
            current = {int(r[0]): Lease(me, int(r[1]), now + ttl) for r in rows}
        await s.execute(
            update(_instances).where(_instances.c.id == me).values(seen_at=now)
        )
    return {rid for rid, fence in held.items() if not admits(current.get(rid), fence)}


async def release(sessions: Sessions, me: str, held: dict[int, Fence], now: float) -> None:
    """Let others adopt the rooms of ``held`` at once (a clean shutdown)."""
    if not held:
        return
    pairs = [and_(_lease.c.room_id == r, _lease.c.epoch == f.epoch) for r, f in held.items()]
    async with sessions.begin() as s:
        await s.execute(
            update(_lease).where(_lease.c.owner == me, or_(*pairs)).values(expires_at=now)
        )


async def register_instance(
    sessions: Sessions, me: str, address: str | None, now: float
) -> None:
    """Record this process (or refresh its row after a restart under the same id)."""
    async with sessions.begin() as s:
        done = await s.execute(
            update(_instances)
            .where(_instances.c.id == me)
            .values(address=address, started=now, seen_at=now)
        )
        if _rowcount(done) == 0:
            await s.execute(
                insert(_instances).values(id=me, address=address, started=now, seen_at=now)
            )


async def live_instances(sessions: Sessions, now: float, within: float) -> list[tuple[str, str]]:
    """``(instance id, address)`` of every process seen alive in the last ``within``
    seconds that has an address, oldest first."""
    async with sessions() as s:
        rows = await s.execute(
            select(InstanceRow.id, InstanceRow.address)
            .where(InstanceRow.seen_at >= now - within, InstanceRow.address.is_not(None))
            .order_by(InstanceRow.started, InstanceRow.id)
        )
        return [(str(r[0]), str(r[1])) for r in rows]


async def holder_of(sessions: Sessions, code: str, now: float) -> Holder | None:
    """Who runs the room with this code (None: no such open room, or never leased)."""
    async with sessions() as s:
        row = (
            await s.execute(
                select(
                    RoomLeaseRow.owner,
                    RoomLeaseRow.address,
                    RoomLeaseRow.epoch,
                    RoomLeaseRow.expires_at,
                )
                .join(RoomRow, RoomRow.id == RoomLeaseRow.room_id)
                .where(RoomRow.code == code, RoomRow.closed.is_(False))
            )
        ).first()
    if row is None:
        return None
    owner, address, epoch, expires_at = row
    return Holder(str(owner), address, int(epoch), float(expires_at), now < float(expires_at))
