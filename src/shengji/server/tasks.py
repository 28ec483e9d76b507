"""Stopping background tasks (sweepers, writers, renewers) the same way everywhere.

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
