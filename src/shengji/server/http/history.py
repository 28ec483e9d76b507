"""The history's replays over HTTP: a finished match's and the one a room is playing (the
model: ``server/wire/game_history.py``; the records and lists: server/http/games.py).

``GET /api/games/{id}/replay?seat=N`` is the match as seat ``N`` was sent it (no ``seat``:
as a spectator); ``GET /api/rooms/{code}/replay`` the match being played as the asking
player's seat saw it.
"""

from __future__ import annotations

import gzip
from typing import Any

import msgspec
from fastapi import APIRouter, Header, HTTPException, Response

from shengji.core.record import GameRecord
from shengji.server.http.deps import Deps
from shengji.server.live.rooms import Room
from shengji.server.table.play import match_record
from shengji.server.wire.game_history import NoMatch, Replay, live_replay, replay_of

__all__ = ["room_replay", "routes"]


def _json(rep: Replay, accept_encoding: str | None) -> Response:
    """The replay as JSON, gzipped for a client that takes it: a deal's updates repeat
    each view whole (about 180 KiB a deal), and shrink some thirty times."""
    body = msgspec.json.encode(rep)
    if accept_encoding and "gzip" in accept_encoding:
        headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
        return Response(gzip.compress(body, 5), media_type="application/json", headers=headers)
    return Response(body, media_type="application/json")


def room_replay(room: Room, player: str | None) -> Replay:
    """The match ``room`` is playing as ``player``'s seat saw it (a spectator: no hand);
    ``HTTPException(404)`` between matches. The router answers other processes with it."""
    table = room.table
    record = match_record(table) if table.playing else None
    seat = None if player is None else table.seat_of(player)
    try:
        return live_replay(record, seat, room.code)
    except NoMatch as e:
        raise HTTPException(404, str(e)) from e


def routes(deps: Deps) -> APIRouter:
    """The replay routes: ``GET /api/games/{id}/replay`` (a finished match's updates; a
    private room's only to its players, 404 to anyone else) and
    ``GET /api/rooms/{code}/replay`` (the match being played, as the asking seat saw it;
    asked of the room's owner through ``deps.cluster()`` when it runs elsewhere)."""
    api = APIRouter()

    async def viewer_id(authorization: str | None) -> str | None:
        """The id of the player signed in with ``authorization`` (None: nobody)."""
        player = await deps.optional_player(authorization)
        return None if player is None else player.id

    @api.get("/api/games/{gid}/replay")
    async def game_replay(
        gid: int,
        seat: int | None = None,
        authorization: str | None = Header(default=None),
        accept_encoding: str | None = Header(default=None),
    ) -> Response:
        player = await deps.optional_player(authorization)
        text = await deps.store().games.record_for(gid, None if player is None else player.id)
        if text is None:
            raise HTTPException(404, "no such game")
        try:
            record = GameRecord.from_json(text)
            players = int(record.ruleset["players"])
        except Exception as e:  # a record the engine cannot read: say so, never a 500
            raise HTTPException(422, f"this record cannot be replayed: {e}") from e
        if seat is not None and not 0 <= seat < players:
            raise HTTPException(400, f"seat is 0..{players - 1}")
        try:
            rep = replay_of(record, seat)
        except Exception as e:  # a record the engine cannot replay
            raise HTTPException(422, f"this record cannot be replayed: {e}") from e
        rep.game = gid
        return _json(rep, accept_encoding)

    @api.get("/api/rooms/{code}/replay")
    async def room_replay_route(
        code: str,
        authorization: str | None = Header(default=None),
        accept_encoding: str | None = Header(default=None),
    ) -> Any:
        room = await deps.lobby().load(code)  # an unloaded idle room comes back from its log
        if room is not None:
            return _json(room_replay(room, await viewer_id(authorization)), accept_encoding)
        router = deps.cluster()
        if router is None:
            raise HTTPException(404, "no such room")
        return await router.ask(code, "replay", await viewer_id(authorization))  # its owner

    return api
