"""Players over HTTP: ``POST /api/players`` (sign up: a name, back an id and a token),
``GET /api/me``, a player's stakes (``/api/players/{id}/stakes``) and
``GET /api/leaderboard`` (a player's games: server/http/games.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request

from shengji.server.http.deps import Deps, too_many
from shengji.server.http.names import BadName, clean_name
from shengji.server.http.quotas import OverQuota, address_key
from shengji.server.http.requests import NewPlayer


def routes(deps: Deps) -> APIRouter:
    """The player routes (sign-ups rate-limited per address: 429 with ``Retry-After``)."""
    api = APIRouter()

    @api.post("/api/players")
    async def new_player(body: NewPlayer, request: Request) -> dict[str, Any]:
        try:
            name = clean_name(body.name, deps.settings.name_max_chars)
        except BadName as e:
            raise HTTPException(400, str(e)) from e
        try:
            await deps.quotas.signup(address_key(request.client and request.client.host))
        except OverQuota as e:
            raise too_many(e) from e
        player, token = await deps.store().players.create(name)
        return {"id": player.id, "name": player.name, "token": token}

    @api.get("/api/me")
    async def me(authorization: str | None = Header(default=None)) -> dict[str, Any]:
        p = await deps.current_player(authorization)
        return {"id": p.id, "name": p.name}

    @api.get("/api/leaderboard")
    async def leaderboard(kind: str = "rating", limit: int = 50) -> dict[str, Any]:
        if kind not in ("rating", "coins", "beans"):
            raise HTTPException(400, "kind is rating, coins or beans")
        if not 1 <= limit <= 200:
            raise HTTPException(400, "limit is 1..200")
        return {"kind": kind, "entries": await deps.store().ledger.leaderboard(kind, limit)}

    @api.get("/api/players/{pid}/stakes")
    async def player_stakes(pid: str, limit: int = 20) -> dict[str, Any]:
        store = deps.store()
        player = await store.players.get(pid)
        if player is None:
            raise HTTPException(404, "no such player")
        if not 0 <= limit <= 200:
            raise HTTPException(400, "limit is 0..200")
        return {"player": pid, "name": player.name, **await store.ledger.of_player(pid, limit)}

    return api
