"""Coalesced wake-ups (the setting ``loop_nap_ms``, off by default): the event loop naps a
few milliseconds before each wait for I/O that would block, so that what arrives meanwhile
is handled in one turn of the loop instead of one turn each.

At human pace actions come one at a time, so each is a turn of the loop of its own: a
``epoll_wait``, a wake-up, the loop's bookkeeping, then the commit's hand-off back from the
writer thread as another. Napping trades a little latency (at most the nap per hop an
action makes through the loop: its read, its commit) for less CPU per action: at 1,500
tables at human pace, 5 ms naps, the socket floor −17 % to −26 %, the whole server −3 % to
−22 % in three runs (docs/deploy.md, "The socket floor"). A nap never delays a timer (it
is cut to the loop's own timeout) nor work already waiting (the loop then polls without
blocking).

>>> import time
>>> sel = NappingSelector(0.05)
>>> sel.select(0)  # work is waiting: poll, no nap
[]
>>> t = time.monotonic(); sel.select(0.01); time.monotonic() - t >= 0.01  # nap cut to it
[]
True
>>> sel.close()
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Callable
from typing import Any


class NappingSelector(selectors.DefaultSelector):
    """The platform's selector, napping ``nap_s`` before a ``select`` that would block."""

    def __init__(self, nap_s: float) -> None:
        super().__init__()
        self.nap_s = nap_s

    def select(self, timeout: float | None = None) -> list[tuple[Any, int]]:
        """``select``, after a nap of at most ``nap_s`` (never longer than ``timeout``)."""
        if timeout is None or timeout > 0:
            nap = self.nap_s if timeout is None else min(self.nap_s, timeout)
            time.sleep(nap)
            if timeout is not None:
                timeout -= nap
        ready: list[tuple[Any, int]] = super().select(timeout)
        return ready


def loop_factory(nap_ms: float) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """An event loop factory napping ``nap_ms`` milliseconds (None for 0: asyncio's own)."""
    if nap_ms <= 0:
        return None
    return lambda: asyncio.SelectorEventLoop(NappingSelector(nap_ms / 1000))
