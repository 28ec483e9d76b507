"""What every repository of the store shares: the database's sessions, the write health
every write reports to, the lease fences of the rooms, the largest row id.

The ``Store`` (server/store/storage.py) opens the database and hands these to each of its
repositories: ``players``, ``rooms``, ``log``, ``games``, ``ledger`` (and the leases' SQL,
server/store/lease_store.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from shengji.server.store.lease_store import Fences
from shengji.server.store.write_faults import WriteHealth


def max_row_id(sqlite: bool) -> int:
    """The largest id the tables' ``Integer`` id columns hold: SQLite's rowid is a signed
    64-bit integer, PostgreSQL's ``integer`` a signed 32-bit one. An id past it that
    reaches the driver raises (an overflow) rather than finding nothing, so ids from a URL
    are checked first (``Repository.is_row_id``).

    >>> max_row_id(True) == 2**63 - 1, max_row_id(False) == 2**31 - 1
    (True, True)
    """
    return 2**63 - 1 if sqlite else 2**31 - 1


class Repository:
    """The shared parts; a repository adds its queries, one method each."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        health: WriteHealth,
        fences: Fences,
        sqlite: bool,
    ) -> None:
        self.sessions = sessions
        self.health = health
        """Whether writes succeed now (``/healthz``); the writes marked ``reports_health``
        report to it."""
        self.fences = fences
        """The lease epoch each room is written under: a write of a room whose lease
        another process has claimed is refused (``LeaseLost``)."""
        self.max_id = max_row_id(sqlite)

    def is_row_id(self, n: int) -> bool:
        """Whether ``n`` can be a row's id here (1..``max_id``): any integer from a URL may
        be asked for, and one that cannot be an id is simply not found, never an error."""
        return 0 < n <= self.max_id


_P = ParamSpec("_P")
_R = TypeVar("_R")
_Repo = TypeVar("_Repo", bound=Repository)


def reports_health(
    write: Callable[Concatenate[_Repo, _P], Coroutine[Any, Any, _R]],
) -> Callable[Concatenate[_Repo, _P], Coroutine[Any, Any, _R]]:
    """A write of a repository that reports to its ``health`` (a fault, or a success)."""

    async def watched(repo: _Repo, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with repo.health.watch():
            return await write(repo, *args, **kwargs)

    functools.update_wrapper(watched, write)
    return watched
