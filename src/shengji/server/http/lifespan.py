"""The app's lifespan: the data dir's lock, the database, the lobby with its rooms restored,
the bots, the leases, the janitor, the cluster router (with ``redis_url``) and the
collector's tuning; closed in the reverse order, the rooms' last rows written first.

It puts ``store``, ``lobby``, ``bots``, ``leases``, ``auth_gate`` and ``router`` on
``app.state`` (read through ``server/http/deps.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from fastapi import FastAPI

from shengji.server import gc_tuning, metrics
from shengji.server.cluster.router import Router
from shengji.server.gc_refreeze import Refreezer
from shengji.server.http.history import room_replay
from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.expiry import Janitor
from shengji.server.live.lobby import Lobby
from shengji.server.settings import Settings
from shengji.server.store.datadir_lock import DataDirLock
from shengji.server.store.lease_keeper import LeaseKeeper
from shengji.server.store.storage import Store

log = logging.getLogger("shengji.server")

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


@dataclass
class _Closing:
    """How long closing the store may wait for queued writes (none once they drained)."""

    wait_s: float = 10.0


def _tune_collector(settings: Settings) -> Refreezer | None:
    """The collector tuned by the settings; the refreezer to start, if one is asked for."""
    gc_tuning.tune(
        freeze=settings.gc_freeze,
        young=settings.gc_young,
        middle=settings.gc_middle,
        oldest=settings.gc_oldest,
    )
    if settings.gc_refreeze_s > 0 and settings.gc_freeze:
        return Refreezer(settings.gc_refreeze_s, settings.gc_thaw_s)
    return None


@contextlib.asynccontextmanager
async def _serving(app: FastAPI, settings: Settings, store: Store,
                   closing: _Closing) -> AsyncIterator[None]:
    """The lobby and everything around it, on an open ``store``."""
    bots = BotRunner(settings.bot_mode, settings.bot_workers, settings.bot_budget_s)
    # SQLite: this process holds the data dir's lock, so it is alone: no leases,
    # every room is its own; PostgreSQL: rooms leased with fencing (lease.py)
    leases = LeaseKeeper(store, settings, enabled=not store.sqlite)
    lobby = Lobby(settings, store, bots, leases)
    app.state.store, app.state.lobby, app.state.bots = store, lobby, bots
    app.state.leases = leases
    metrics.watch_lobby(lobby)
    app.state.auth_gate = asyncio.Semaphore(4)  # sign-ins never exhaust the DB pool
    janitor = Janitor(lobby, settings)
    router: Router | None = None
    if settings.redis_url:  # many processes, one platform (server/cluster/router.py)
        router = Router(settings, lobby, store, app.state.auth_gate, leases.instance,
                        room_replay)
        lobby.watchers.append(router)
        await router.start()
    app.state.router = router
    refreezer = _tune_collector(settings)
    try:
        n = await lobby.restore()
        if n:
            log.info("restored %d rooms", n)
        await leases.start()
        janitor.start()
        if refreezer is not None:
            refreezer.start()
        yield
    finally:
        if refreezer is not None:
            await refreezer.stop()
        await janitor.stop()
        await leases.stop(release=False)
        await lobby.close()
        if router is not None:
            await router.stop()
        # the rooms' last rows, under our leases (not waited for again if held)
        closing.wait_s = 10.0 if await store.writer.drain(5.0) else 0.0
        await leases.stop(release=True)  # others adopt our rooms at once
        bots.close()
        metrics.forget_lobby(lobby)


def lifespan(settings: Settings, lock: DataDirLock | None = None) -> Lifespan:
    """The lifespan: it takes the data dir's lock (unless ``lock`` is one already held, as
    ``shengji serve`` does), opens the database and restores every room."""

    @contextlib.asynccontextmanager
    async def run(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url()
        store = Store(url)
        store.writer.gap_s = settings.log_commit_gap_s
        own_lock = None if lock is not None and lock.held else DataDirLock.acquire(url)
        closing = _Closing()
        try:
            await store.start()
            async with _serving(app, settings, store, closing):
                yield
        finally:
            await store.close(closing.wait_s)
            if own_lock is not None:
                own_lock.release()

    return run
