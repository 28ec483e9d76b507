"""Rooms over HTTP: ``POST /api/rooms`` (a new room, every option checked first),
``POST /api/rules/check`` (the same check of a preset and options, creating nothing),
``GET /api/rooms`` (the open public rooms, of every process with ``redis_url``) and
``GET /api/rooms/{code}``.
"""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import JSONResponse

from shengji.server.http.deps import Deps, too_many
from shengji.server.http.quotas import OverQuota, address_key
from shengji.server.http.requests import NewRoom, RulesCheck
from shengji.server.live.lobby import LobbyError, LobbyFull
from shengji.server.live.rooms import Room
from shengji.server.table.rule_fields import check_rules
from shengji.server.table.validate import OptionError, room_bots, room_ruleset


def _room_json(room: Room) -> Any:
    return msgspec.to_builtins(room.info())  # with ``stakes`` (RoomInfo fills it)


async def _check_room_quota(deps: Deps, player: str, address: str) -> None:
    """429 (with ``Retry-After``) when ``player`` or ``address`` may open no room now: over
    the rate of new rooms, or holding ``max_rooms_per_player`` open (on every process)."""
    settings = deps.settings
    try:
        await deps.quotas.check_room(player, address)
    except OverQuota as e:
        raise too_many(e) from e
    owned = deps.lobby().owned_by(player)
    rt = deps.cluster()
    if rt is not None:  # every process's rooms count
        owned = await rt.owned_by(player, owned)
    if owned >= settings.max_rooms_per_player:
        raise too_many(
            OverQuota(
                f"you have {owned} open rooms, the most one player may; a room nobody "
                f"uses closes after {settings.room_idle_s:g} s",
                max(1, round(settings.room_idle_s)),
            )
        )


def routes(deps: Deps) -> APIRouter:
    """The room routes (a full lobby: 503 with ``Retry-After``)."""
    api = APIRouter()
    settings = deps.settings

    @api.post("/api/rooms")
    async def new_room(
        body: NewRoom, request: Request, authorization: str | None = Header(default=None)
    ) -> Any:
        player = await deps.current_player(authorization)
        address = address_key(request.client and request.client.host)
        await _check_room_quota(deps, player.id, address)
        try:  # every option checked before the room exists (server/table/validate.py)
            ruleset = room_ruleset(body.preset, body.options)
            seats = {int(seat): name for seat, name in body.bots.items()}
            bots = room_bots(seats, ruleset.players, settings.bot_budget_s)
            room = await deps.lobby().create(
                player.id,
                body.preset,
                body.options,
                body.private,
                body.max_deals,
                body.stakes,
                body.table,
            )
        except OptionError as e:
            return JSONResponse({"detail": e.message, "field": e.field}, status_code=400)
        except LobbyFull as e:
            retry = str(max(1, round(settings.room_idle_s)))
            raise HTTPException(503, str(e), headers={"Retry-After": retry}) from e
        except (LobbyError, ValueError) as e:
            raise HTTPException(400, str(e)) from e
        await deps.quotas.room_created(player.id, address)
        for seat, name in sorted(bots.items()):
            room.add_bot(seat, name)
        return _room_json(room)

    @api.post("/api/rules/check")
    async def check(body: RulesCheck) -> Any:
        """The house-rules editor's check: the ruleset and what differs from the preset, or
        400 naming the field, as ``POST /api/rooms`` would answer (nothing is created)."""
        try:
            return check_rules(body.preset, body.options)
        except OptionError as e:
            return JSONResponse({"detail": e.message, "field": e.field}, status_code=400)

    @api.get("/api/rooms")
    async def list_rooms() -> list[Any]:
        rt = deps.cluster()
        if rt is not None:  # every process's public rooms
            return await rt.open_rooms(deps.lobby())
        return deps.lobby().listing()  # unloaded idle rooms too (server/live/idle_rooms.py)

    @api.get("/api/rooms/{code}")
    async def get_room(code: str) -> Any:
        info = deps.lobby().info(code)
        rt = deps.cluster()
        if info is None and rt is not None:
            info = await rt.room(code)  # run by another process
        if info is None:
            raise HTTPException(404, "no such room")
        return info

    return api
