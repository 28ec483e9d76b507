"""What the routes share: the settings, the rate limits, and what the lifespan opens on
``app.state`` (the lobby, the store, the cluster router), read when a request comes.

Each route module has ``routes(deps) -> APIRouter``; ``create_app`` builds one ``Deps`` and
includes them all.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from fastapi import HTTPException
from starlette.datastructures import State

from shengji.server.cluster.router import Router
from shengji.server.http.quotas import OverQuota, Quotas
from shengji.server.live.lobby import Lobby
from shengji.server.settings import Settings
from shengji.server.store.lease_keeper import LeaseKeeper
from shengji.server.store.players import Player
from shengji.server.store.storage import Store


def too_many(e: OverQuota) -> HTTPException:
    """A refusal over a rate limit: 429 with the seconds to wait."""
    return HTTPException(429, e.message, headers={"Retry-After": str(e.retry_after)})


def _bearer(authorization: str | None) -> str | None:
    """The token of ``Authorization: Bearer <token>`` (any case of ``bearer``), or None.

    >>> _bearer("bearer  abc "), _bearer("Basic abc"), _bearer(None)
    ('abc', None, None)
    """
    if not authorization or not authorization.lower().startswith("bearer "):
        return None
    return authorization[7:].strip()


@dataclass(frozen=True)
class Deps:
    """The app's shared state for its routes (``state``: the app's ``app.state``)."""

    state: State
    settings: Settings
    quotas: Quotas

    def lobby(self) -> Lobby:
        """The rooms of this process (set by the lifespan)."""
        lobby: Lobby = self.state.lobby
        return lobby

    def store(self) -> Store:
        """The database (set by the lifespan)."""
        store: Store = self.state.store
        return store

    def leases(self) -> LeaseKeeper:
        """Which process runs which room (set by the lifespan)."""
        leases: LeaseKeeper = self.state.leases
        return leases

    def auth_gate(self) -> asyncio.Semaphore:
        """The sign-ins in flight, bounded so they never exhaust the database's pool."""
        gate: asyncio.Semaphore = self.state.auth_gate
        return gate

    def cluster(self) -> Router | None:
        """What asks the other processes (``redis_url`` set), or None."""
        router: Router | None = getattr(self.state, "router", None)
        return router

    async def current_player(self, authorization: str | None) -> Player:
        """The signed-in player; 401 without a bearer token or with an unknown one."""
        token = _bearer(authorization)
        if token is None:
            raise HTTPException(401, "send Authorization: Bearer <token>")
        player = await self.store().players.by_token(token)
        if player is None:
            raise HTTPException(401, "unknown token")
        return player

    async def optional_player(self, authorization: str | None) -> Player | None:
        """The signed-in player; None without a header or with an unknown token."""
        token = _bearer(authorization)
        return None if token is None else await self.store().players.by_token(token)
