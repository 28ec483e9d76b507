"""Stopping background tasks (sweepers, writers, renewers) the same way everywhere, and
``Periodic``, the task that does one job every few seconds until it is stopped.

    >>> import asyncio
    >>> async def main() -> bool:
    ...     t = asyncio.create_task(asyncio.sleep(60))
    ...     await cancel_and_wait(t, None)
    ...     return t.cancelled()
    >>> asyncio.run(main())
    True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any


async def cancel_and_wait(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel every task given (None: none there) and wait until each has ended; their
    ``CancelledError`` is swallowed, any other error propagates."""
    live = [t for t in tasks if t is not None]
    for t in live:
        t.cancel()
    for t in live:
        with contextlib.suppress(asyncio.CancelledError):
            await t


class Periodic:
    """A background task that sleeps ``every_s`` seconds and calls ``tick``, again and again
    until ``stop``; a failed tick is logged on ``log`` with ``failure`` and the task goes on.
    Subclasses write ``tick``.

    >>> class Count(Periodic):
    ...     n = 0
    ...     async def tick(self) -> None:
    ...         self.n += 1
    >>> async def main() -> bool:
    ...     c = Count(0.01, "count", logging.getLogger("doctest"), "count failed")
    ...     c.start()
    ...     await asyncio.sleep(0.1)
    ...     await c.stop()
    ...     return c.n > 1 and c.task is None
    >>> asyncio.run(main())
    True
    """

    def __init__(self, every_s: float, name: str, log: logging.Logger, failure: str) -> None:
        self.every_s = every_s
        self.name = name
        self.log = log
        self.failure = failure
        self.task: asyncio.Task[None] | None = None

    async def tick(self) -> None:
        """The job done every ``every_s`` seconds."""
        raise NotImplementedError

    def start(self) -> None:
        """Start the task."""
        self.task = asyncio.create_task(self.run(), name=self.name)

    async def stop(self) -> None:
        """Stop the task and wait for it to end."""
        await cancel_and_wait(self.task)
        self.task = None

    async def run(self) -> None:
        """Sleep, tick; a failed tick is logged, never fatal."""
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self.tick()
            except Exception:
                self.log.exception(self.failure)
