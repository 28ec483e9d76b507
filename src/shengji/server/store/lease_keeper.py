"""This process's room leases: the asyncio shell around server/store/lease_rules.py and
server/store/lease_store.py.

The keeper renews this process's leases every ``lease_renew_s`` and, every
``lease_scan_s``, claims the rooms whose lease expired (their owner died or froze) and
hands them to the lobby (``on_adopt``), which replays and resumes them. A room whose
renewal or write is refused is handed back to the lobby to stop at once (``on_lost``).
The lobby tells its watchers (the Redis router) of rooms started and stopped here.
``owner_of(code)`` says who runs a room (``Holder``: instance id, address, epoch, whether
the lease is live), as the database says now.

Leases are kept on PostgreSQL, where several processes may share the rooms. On SQLite
(``enabled`` False) a process is alone on its data dir (it holds the dir's lock): no
lease rows, no fencing, no background tasks; every open room is its own, as before.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Collection, Coroutine
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from shengji.server import metrics
from shengji.server.settings import Settings
from shengji.server.store import lease_store
from shengji.server.store.lease_rules import Fence
from shengji.server.store.lease_store import Holder
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import is_storage_fault
from shengji.server.tasks import cancel_and_wait

__all__ = ["Holder", "LeaseKeeper", "default_instance_id"]

log = logging.getLogger("shengji.server.lease")


def default_instance_id(port: int, host: str | None = None, pid: int | None = None,
                        suffix: str | None = None) -> str:
    """``<host>-<port>``: two live processes on one host cannot listen on one port, and a
    server restarted on its port takes its rooms back at once instead of waiting out
    their leases; ``<host>-<pid>-<random>`` for port 0 (any free port). The host name is
    cut to what ``Settings.instance_id`` allows (it names Redis channels too).

    >>> default_instance_id(8765, "box")
    'box-8765'
    >>> default_instance_id(0, "box", 42, "c0ffee")
    'box-42-c0ffee'
    >>> default_instance_id(80, "my box")
    'my-box-80'
    """
    host = re.sub(r"[^A-Za-z0-9_.-]", "-", host or socket.gethostname())[:40] or "host"
    if port:
        return f"{host}-{port}"
    return f"{host}-{pid or os.getpid()}-{suffix or secrets.token_hex(3)}"


def default_address(host: str, port: int) -> str:
    """Where other processes and clients reach this one unless ``public_url`` says: the
    host it listens on, or its host name when it listens on every interface.

    >>> default_address("127.0.0.1", 8765)
    'http://127.0.0.1:8765'
    """
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    return f"http://{host}:{port}"


class LeaseKeeper:
    """The leases of this process (``instance``), over ``store``'s database; ``enabled``
    False (SQLite): none are kept, every room is this process's."""

    def __init__(self, store: Store, settings: Settings, enabled: bool = True) -> None:
        self.store = store
        self.instance = settings.instance_id or default_instance_id(settings.port)
        self.address = settings.public_url or default_address(settings.host, settings.port)
        self.ttl = settings.lease_ttl_s
        self.renew_s = settings.lease_renew_s
        self.scan_s = settings.lease_scan_s
        self.enabled = enabled
        self.on_adopt: Callable[[Collection[int]], Awaitable[None]] | None = None
        """The lobby: restore and start these rooms (their leases are ours now)."""
        self.on_lost: Callable[[Collection[int]], Awaitable[None]] | None = None
        """The lobby: stop these rooms at once (their leases are another's now)."""
        self._tasks: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------------ the interface

    async def owner_of(self, code: str) -> Holder | None:
        """Who runs the room ``code`` now (None: no open room with a lease; without
        leases, every open room is this process's)."""
        if not self.enabled:
            if not await self.store.rooms.is_open(code):
                return None
            return Holder(self.instance, self.address, 0, math.inf, True)
        return await lease_store.holder_of(self.store.sessions, code, time.time())

    async def instances(self) -> list[tuple[str, str]]:
        """``(instance id, address)`` of the processes alive on this database."""
        if not self.enabled:
            return [(self.instance, self.address)]
        return await lease_store.live_instances(self.store.sessions, time.time(), 2 * self.ttl)

    # ------------------------------------------------------------------ leases

    def new_room(self) -> Callable[[AsyncSession, int], Coroutine[Any, Any, None]] | None:
        """The lease of a room being created (inserted in its transaction); None without
        leases."""
        if not self.enabled:
            return None
        return lease_store.lease_inserter(self.instance, self.address, time.time() + self.ttl)

    def hold(self, room_id: int, epoch: int = 1) -> None:
        """Write ``room_id`` under our lease of ``epoch`` from now on."""
        if self.enabled:
            self.store.fences.hold(room_id, Fence(self.instance, epoch))

    def holds(self, room_id: int) -> bool:
        """Whether this process may still write ``room_id`` (always, without leases)."""
        return self.store.fences.holds(room_id)

    def forget(self, room_id: int) -> None:
        """Stop writing ``room_id`` (closed)."""
        if self.enabled:
            self.store.fences.lose(room_id)

    def lost(self, room_id: int) -> None:
        """A write of ``room_id`` was refused: another process holds its lease now."""
        if self.store.fences.fence(room_id) is not None:
            metrics.lease_changed()
            self.store.fences.lose(room_id)

    async def claim(self, skip: Collection[int] = (), at_start: bool = False
                    ) -> dict[int, Fence]:
        """Claim every room that may be claimed now (``at_start`` also those under our own
        id: a restart under the same id); their fences are registered. Returns them."""
        if not self.enabled:
            return {}
        claimed = await lease_store.claim_rooms(
            self.store.sessions, self.instance, self.address, time.time(), self.ttl, skip,
            at_start,
        )
        for rid, fence in claimed.items():
            self.store.fences.hold(rid, fence)
        return claimed

    async def start(self) -> None:
        """Record this process, then renew and scan in the background (nothing without
        leases)."""
        if not self.enabled:
            return
        await lease_store.register_instance(
            self.store.sessions, self.instance, self.address, time.time()
        )
        self._tasks = [
            asyncio.create_task(self._renew_loop(), name="lease-renew"),
            asyncio.create_task(self._scan_loop(), name="lease-scan"),
        ]

    async def stop(self, release: bool = True) -> None:
        """Stop renewing; ``release``: let others adopt our rooms at once."""
        await cancel_and_wait(*self._tasks)
        self._tasks = []
        if release and self.enabled:
            try:
                await lease_store.release(
                    self.store.sessions, self.instance, self.store.fences.held(), time.time()
                )
            except Exception:
                log.warning("could not release the room leases (they expire instead)",
                            exc_info=True)

    async def renew_once(self) -> set[int]:
        """Renew every lease we hold; returns (and hands to ``on_lost``) the lost rooms."""
        held = self.store.fences.held()
        lost = await lease_store.renew(
            self.store.sessions, self.instance, held, time.time(), self.ttl
        )
        # rooms already handed over meanwhile (a refused write) are not lost twice
        lost = {rid for rid in lost if self.store.fences.fence(rid) == held[rid]}
        for rid in lost:
            self.store.fences.lose(rid)
            metrics.lease_changed()
        if lost and self.on_lost is not None:
            log.warning("lost the lease of %d rooms to another process", len(lost))
            await self.on_lost(lost)
        return lost

    async def scan_once(self) -> set[int]:
        """Claim the rooms whose lease expired and hand them to ``on_adopt``."""
        claimed = await self.claim(skip=set(self.store.fences.held()))
        for _ in claimed:
            metrics.lease_changed()
        if claimed and self.on_adopt is not None:
            log.warning("adopting %d rooms whose owner stopped renewing", len(claimed))
            started = time.monotonic()
            try:
                await self.on_adopt(set(claimed))
            except BaseException:  # not restored: claim them again at the next scan
                for rid in claimed:
                    self.store.fences.drop(rid)
                raise
            log.warning("adopted rooms %s (replayed and running in %.2f s)",
                        ",".join(map(str, sorted(claimed))), time.monotonic() - started)
        return set(claimed)

    async def _renew_loop(self) -> None:
        await self._every(self.renew_s, self.renew_once, "renew the room leases")

    async def _scan_loop(self) -> None:
        await self._every(self.scan_s, self.scan_once, "look for rooms to adopt")

    @staticmethod
    async def _every(period_s: float, step: Callable[[], Awaitable[object]], what: str) -> None:
        """Run ``step`` every ``period_s`` for ever; a failure is logged (``could not
        <what>``) and never fatal: the next round tries again."""
        while True:
            await asyncio.sleep(period_s)
            try:
                await step()
            except Exception as exc:
                if is_storage_fault(exc):
                    log.warning("could not %s: %s", what, exc)
                else:
                    log.exception("could not %s", what)
