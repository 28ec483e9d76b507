"""Finished games over HTTP: a game's record (``GET /api/games/{id}``, ``?download=true``:
as an attachment), the recent public games (``GET /api/games``) and a player's games
(``GET /api/players/{id}/games``). A private room's games go to its players only: 404 (or
left out of a list) for anyone else. Their replays: server/http/history.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException, Response

from shengji.server.http.deps import Deps
from shengji.server.wire.game_history import game_entry, record_filename


def routes(deps: Deps) -> APIRouter:
    """The three routes (the entries: ``wire/game_history.py``'s ``game_entry``)."""
    api = APIRouter()

    @api.get("/api/games/{gid}")
    async def get_game(
        gid: int, download: bool = False, authorization: str | None = Header(default=None)
    ) -> Response:
        viewer = await deps.optional_player(authorization)  # a private room's: its players
        store = deps.store()
        record = await store.games.record_for(gid, None if viewer is None else viewer.id)
        if record is None:  # also for a stranger: a private game's id says nothing
            raise HTTPException(404, "no such game")
        info = await store.games.info(gid)
        name = record_filename(info[0], gid, info[1]) if info else f"shengji-game{gid}.json"
        disposition = "attachment" if download else "inline"
        headers = {"Content-Disposition": f'{disposition}; filename="{name}"'}
        return Response(record, media_type="application/json", headers=headers)

    @api.get("/api/games")
    async def recent_games(limit: int = 30) -> dict[str, Any]:
        if not 1 <= limit <= 100:
            raise HTTPException(400, "limit is 1..100")
        rows = await deps.store().games.listed(None, include_private=False, limit=limit)
        return {"games": [game_entry(r) for r in rows]}

    @api.get("/api/players/{pid}/games")
    async def player_games(
        pid: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        player = await deps.store().players.get(pid)
        if player is None:
            raise HTTPException(404, "no such player")
        viewer = await deps.optional_player(authorization)
        mine = viewer is not None and viewer.id == pid
        rows = await deps.store().games.listed(pid, include_private=mine, limit=100)
        return {"player": pid, "name": player.name, "games": [game_entry(r) for r in rows]}

    return api
