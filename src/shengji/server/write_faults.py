"""Storage faults, visible and recoverable: a full disk, a read-only file, a locked or
unreachable database (docs/protocol.md, "Faults").

Two pieces, both small state machines with one signal each way:

- ``WriteHealth`` is the server's view of its database: every write reports ``failed(exc)``
  or ``succeeded()``. While writes fail, ``/healthz`` answers 503 with the reason, and a
  probe writes a heartbeat with backoff until one succeeds, so health comes back by itself
  even when nothing else writes. One log line when an episode starts, one when it ends.
- ``DurableWrites`` is one room's way of writing: ``await writes.write(do)`` returns once
  ``do()`` succeeded, retrying a storage fault with backoff for as long as it takes.
  Nothing is sent before its record is durable, so a room simply waits; ``on_pause`` and
  ``on_resume`` tell its clients (``paused`` / ``resumed``), and the room's log gets one line
  per episode, not one per attempt. A retried write is the same write: the room changed
  nothing in between, so no action is lost and none is applied twice.

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

log = logging.getLogger("shengji.server.storage")

T = TypeVar("T")


def is_storage_fault(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot take the write now (disk full, read-only,
    locked, unreachable, a pool timeout), as opposed to a bug or a refused row."""
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True  # the connection was lost (PostgreSQL restarted, a network cut)
    return isinstance(
        exc,
        sa_exc.OperationalError  # SQLite: disk full, read-only, locked, cannot open
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError  # the pool had no connection to give
        | OSError,
    )


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
        max_s: float = 5.0,
    ) -> None:
        self.probe = probe
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
        if self._probing is not None:
            self._probing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._probing
            self._probing = None


class WritesStopped(Exception):
    """The room is stopping: a write that kept failing is given up (it was never sent)."""


class DurableWrites:
    """One room's writes: each is retried until durable; a failing spell is one *episode*,
    announced once (``on_pause(reason)``) and closed once (``on_resume(seconds)``)."""

    def __init__(
        self,
        name: str,
        on_pause: Callable[[str], None],
        on_resume: Callable[[float], None],
        first_s: float = 0.1,
        max_s: float = 5.0,
    ) -> None:
        self.name = name
        self.on_pause = on_pause
        self.on_resume = on_resume
        self.first_s = first_s
        self.max_s = max_s
        self.paused_since: float | None = None
        self.attempts = 0
        """Failed attempts in the current episode."""
        self.stopped = False
        self._wake = asyncio.Event()

    @property
    def paused(self) -> bool:
        """True while a write of this room keeps failing."""
        return self.paused_since is not None

    async def write(self, do: Callable[[], Awaitable[T]]) -> T:
        """``await do()`` until it succeeds; a storage fault pauses the room and is retried
        after 0.1 s, 0.2 s, 0.4 s ... (at most ``max_s``); any other error is raised."""
        wait = self.first_s
        while True:
            try:
                result = await do()
            except Exception as exc:
                if not is_storage_fault(exc):
                    raise
                self._failed(exc)
                if self.stopped:
                    raise WritesStopped(self.name) from exc
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                if self.stopped:
                    raise WritesStopped(self.name) from exc
                wait = min(wait * 2, self.max_s)
                continue
            self._succeeded()
            return result

    def stop(self) -> None:
        """Give up retrying (the room is stopping); a write in flight ends at once."""
        self.stopped = True
        self._wake.set()

    def _failed(self, exc: BaseException) -> None:
        self.attempts += 1
        if self.paused_since is not None:
            return
        self.paused_since = time.monotonic()
        log.error(
            "%s: a write failed (%s); the table is paused and retries with backoff",
            self.name,
            fault_reason(exc),
        )
        self.on_pause("storage")

    def _succeeded(self) -> None:
        if self.paused_since is None:
            return
        took = time.monotonic() - self.paused_since
        log.warning(
            "%s: writes succeed again after %.1f s (%d failed attempts); the table goes on",
            self.name,
            took,
            self.attempts,
        )
        self.paused_since = None
        self.attempts = 0
        self.on_resume(took)
