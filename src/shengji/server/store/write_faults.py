"""Storage faults, visible and recoverable: a full disk, a read-only file, a locked or
unreachable database (docs/protocol.md, "Faults").

``WriteHealth`` is the server's view of its database: every write reports ``failed(exc)``
or ``succeeded()``. While writes fail, ``/healthz`` answers 503 with the reason, and a probe
writes a heartbeat with backoff until one succeeds, so health comes back by itself even
when nothing else writes. One log line when an episode starts, one when it ends.

A room's own writes are its table's business (server/table/flow.py): a write that fails is
answered ``WriteFailed``, the table pauses (clients get ``paused``), hands out the same
write again with backoff and resumes when it is durable; nothing it holds back is sent
before. A retried write is the same write, checked against what the failed attempt may
have committed (server/live/writes.py), so no action is lost and none is applied twice.

A fault is an error of the database or the disk (``is_storage_fault``); anything else (a
bug, a constraint violation) is raised at once, as before.

>>> is_storage_fault(OSError(28, "No space left on device"))
True
>>> is_storage_fault(ValueError("bad seat"))
False
>>> [round(d, 2) for d in backoff(0.1, 1.0, 6)]
[0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

from sqlalchemy import exc as sa_exc

from shengji.server import metrics
from shengji.server.tasks import cancel_and_wait

log = logging.getLogger("shengji.server.storage")

T = TypeVar("T")

STORAGE_DOWN = "the server cannot write to its database right now; try again in a moment"
"""What a client is told while the database cannot take writes (HTTP 503, a socket's error)."""


FAULT_SQLSTATES = ("08", "53", "57P", "58", "40001", "40P01")
"""SQLSTATE classes a retry can outlast: connection exceptions (08), insufficient resources
such as a full disk (53), the server shutting down or starting (57P01-57P03), system
errors (58), serialization failures and deadlocks (40001, 40P01)."""


def _sqlstate(exc: BaseException) -> str | None:
    code = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)
    return code if isinstance(code, str) else None


def is_storage_fault(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot take the write now (disk full, read-only,
    locked, unreachable, shutting down, a pool timeout), as opposed to a bug or a refused
    row.

    >>> class ShuttingDown(Exception):
    ...     sqlstate = "57P03"  # PostgreSQL: "the database system is shutting down"
    >>> is_storage_fault(sa_exc.DBAPIError("SELECT 1", {}, ShuttingDown()))
    True
    >>> class Unique(Exception):
    ...     sqlstate = "23505"
    >>> is_storage_fault(sa_exc.IntegrityError("INSERT", {}, Unique()))
    False
    """
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True  # the connection was lost (PostgreSQL restarted, a network cut)
    if isinstance(
        exc,
        sa_exc.OperationalError  # SQLite: disk full, read-only, locked, cannot open
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError  # the pool had no connection to give
        | OSError,
    ):
        return True
    if isinstance(exc, sa_exc.DBAPIError):  # a driver's error: look at what it wraps
        seen: BaseException | None = exc.orig
        for _ in range(8):
            if seen is None:
                break
            if isinstance(seen, OSError):
                return True
            code = _sqlstate(seen)
            if code is not None and code.startswith(FAULT_SQLSTATES):
                return True
            seen = seen.__cause__ or seen.__context__
    return False


def fault_reason(exc: BaseException) -> str:
    """A short, one-line reason for operators: ``"OperationalError: database or disk is
    full"``."""
    inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc
    text = str(inner).strip().splitlines()[0] if str(inner).strip() else ""
    return f"{type(inner).__name__}: {text}"[:200] if text else type(inner).__name__


def backoff(first_s: float, max_s: float, n: int) -> list[float]:
    """The first ``n`` waits between attempts: doubling from ``first_s`` up to ``max_s``."""
    out, wait = [], first_s
    for _ in range(n):
        out.append(min(wait, max_s))
        wait *= 2
    return out


class WriteHealth:
    """Whether the server's database takes writes (``ok``), since when it does not and why.

    ``probe`` is an async write of no consequence (a heartbeat row); while writes fail it is
    tried with backoff until it succeeds, so health recovers without other traffic.
    """

    def __init__(
        self,
        probe: Callable[[], Awaitable[None]] | None = None,
        first_s: float = 0.25,
        max_s: float = 1.0,
    ) -> None:
        self.probe = probe
        self.on_back: list[Callable[[], None]] = []
        """Called when a write succeeds after failing (the lobby wakes paused rooms)."""
        self.first_s = first_s
        self.max_s = max_s
        self.failing_since: float | None = None
        self.reason = ""
        self.failures = 0
        """Failed writes in the current episode."""
        self._probing: asyncio.Task[None] | None = None

    @property
    def ok(self) -> bool:
        """True unless the last write failed with a storage fault."""
        return self.failing_since is None

    def status(self) -> dict[str, Any]:
        """What ``/healthz`` says of storage: ``{"writable": false, "reason", "since_s"}``."""
        if self.failing_since is None:
            return {"writable": True}
        return {
            "writable": False,
            "reason": self.reason,
            "since_s": round(time.monotonic() - self.failing_since, 1),
            "failures": self.failures,
        }

    def failed(self, exc: BaseException) -> None:
        """A write failed with a storage fault (call only for those)."""
        metrics.database_error()
        self.failures += 1
        self.reason = fault_reason(exc)
        if self.failing_since is not None:
            return
        self.failing_since = time.monotonic()
        log.error(
            "storage: writes are failing (%s); /healthz answers 503 until one succeeds",
            self.reason,
        )
        self._start_probe()

    def succeeded(self) -> None:
        """A write was committed."""
        if self.failing_since is None:
            return
        took = time.monotonic() - self.failing_since
        log.warning(
            "storage: writes succeed again after %.1f s (%d failed writes)", took, self.failures
        )
        self.failing_since = None
        self.reason = ""
        self.failures = 0
        for cb in self.on_back:
            try:
                cb()
            except Exception:
                log.exception("a handler of the database's return failed")

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Report the write inside the block: ``with health.watch(): await commit()``."""
        try:
            yield
        except BaseException as exc:
            if is_storage_fault(exc):
                self.failed(exc)
            raise
        self.succeeded()

    def _start_probe(self) -> None:
        if self.probe is None or (self._probing is not None and not self._probing.done()):
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to probe with
            self._probing = asyncio.get_running_loop().create_task(
                self._probe_until_ok(), name="storage-probe"
            )

    async def _probe_until_ok(self) -> None:
        assert self.probe is not None
        wait = self.first_s
        while not self.ok:
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.max_s)
            with contextlib.suppress(Exception), self.watch():
                await self.probe()

    async def close(self) -> None:
        """Stop probing."""
        await cancel_and_wait(self._probing)
        self._probing = None
