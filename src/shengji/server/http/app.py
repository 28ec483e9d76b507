"""The FastAPI app factory: thin HTTP routes for players, rooms and games, and one WebSocket
endpoint per room (``/ws/{code}``). See docs/protocol.md, "Server protocol".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from shengji.bots.plugins import entry_point_names
from shengji.bots.registry import bot_names
from shengji.core.ruleset import PRESETS
from shengji.server import gc_tuning, metrics
from shengji.server.cluster.router import Router
from shengji.server.gc_refreeze import Refreezer
from shengji.server.http.bodylimit import BodyLimit
from shengji.server.http.headers import SecurityHeaders
from shengji.server.http.health import health_response, install_storage_handler
from shengji.server.http.history import install_history, room_replay
from shengji.server.http.lan import is_loopback, share_base
from shengji.server.http.names import BadName, clean_name
from shengji.server.http.placement import install_placement
from shengji.server.http.quotas import OpenSockets, OverQuota, Quotas, address_key
from shengji.server.http.ready import ready_response
from shengji.server.http.requests import NewPlayer, NewRoom
from shengji.server.http.strict_json import StrictJson, install_shape_errors
from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.expiry import Janitor
from shengji.server.live.lobby import Lobby, LobbyError, LobbyFull
from shengji.server.live.rooms import Room
from shengji.server.live.socket_route import SocketEndpoint, SocketsFirst
from shengji.server.live.sockets import refuse, serve_socket
from shengji.server.settings import Settings
from shengji.server.store.datadir_lock import DataDirLock
from shengji.server.store.lease_keeper import LeaseKeeper
from shengji.server.store.players import Player
from shengji.server.store.storage import Store
from shengji.server.table.catalog import preset_catalog
from shengji.server.table.validate import OptionError, room_bots, room_ruleset
from shengji.server.wire import messages as wire
from shengji.server.wire.game_history import game_entry, record_filename

log = logging.getLogger("shengji.server")

WEB_STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
"""The browser table (``shengji/web/static``), served at ``/``."""


def _room_json(room: Room) -> Any:
    return msgspec.to_builtins(room.info())  # with ``stakes`` (RoomInfo fills it)


class App(FastAPI):
    """The server app: every HTTP response, errors included, gets the security headers
    (server/http/headers.py), request bodies are capped (server/http/bodylimit.py) and
    strict JSON (server/http/strict_json.py); a room's WebSocket (``/ws/{code}``) goes
    straight to ``socket_endpoint`` (server/live/socket_route.py)."""

    def __init__(self, settings: Settings, **kw: Any) -> None:
        super().__init__(**kw)
        self.body_limit = settings.max_body_bytes
        self.socket_endpoint: SocketEndpoint | None = None

    def build_middleware_stack(self) -> ASGIApp:
        """FastAPI's stack inside the body cap, inside the headers, beside the rooms'
        sockets (outermost)."""
        strict = StrictJson(super().build_middleware_stack())  # NaN, Infinity: 400
        inner = BodyLimit(strict, self.body_limit)
        app = SecurityHeaders(inner, WEB_STATIC, ("/api/", "/healthz", "/readyz", "/metrics"))
        if self.socket_endpoint is None:
            return app
        return SocketsFirst(app, self.socket_endpoint)


def _too_many(e: OverQuota) -> HTTPException:
    return HTTPException(429, e.message, headers={"Retry-After": str(e.retry_after)})


def create_app(settings: Settings | None = None, lock: DataDirLock | None = None) -> FastAPI:
    """A new server app; its lifespan takes the data dir's lock (unless ``lock`` is one
    already held, as ``shengji serve`` does), opens the database and restores every room."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = settings.resolved_database_url()
        store = Store(url)
        store.writer.gap_s = settings.log_commit_gap_s
        own_lock = None if lock is not None and lock.held else DataDirLock.acquire(url)
        close_wait_s = 10.0  # how long closing the store may wait for queued writes
        try:
            await store.start()
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
            gc_tuning.tune(
                freeze=settings.gc_freeze,
                young=settings.gc_young,
                middle=settings.gc_middle,
                oldest=settings.gc_oldest,
            )
            refreezer = None
            if settings.gc_refreeze_s > 0 and settings.gc_freeze:
                refreezer = Refreezer(settings.gc_refreeze_s, settings.gc_thaw_s)
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
                close_wait_s = 10.0 if await store.writer.drain(5.0) else 0.0
                await leases.stop(release=True)  # others adopt our rooms at once
                bots.close()
                metrics.forget_lobby(lobby)
        finally:
            await store.close(close_wait_s)
            if own_lock is not None:
                own_lock.release()

    app = App(settings, title="shengji", version="1", lifespan=lifespan)
    app.state.settings = settings
    install_storage_handler(app)  # a full disk or a lost database: 503, never a bare 500
    install_shape_errors(app)  # a body of the wrong shape: 422 naming the field
    quotas = Quotas(settings.signup_rate, settings.room_rate, settings.room_rate_per_address,
                    settings.redis_url, settings.redis_prefix)  # shared through Redis if set

    def lobby() -> Lobby:
        lob: Lobby = app.state.lobby
        return lob

    def store() -> Store:
        st: Store = app.state.store
        return st

    def router() -> Router | None:
        rt: Router | None = getattr(app.state, "router", None)
        return rt

    async def current_player(authorization: str | None) -> Player:
        if not authorization or not authorization.lower().startswith("bearer "):
            raise HTTPException(401, "send Authorization: Bearer <token>")
        player = await store().players.by_token(authorization[7:].strip())
        if player is None:
            raise HTTPException(401, "unknown token")
        return player

    async def optional_player(authorization: str | None) -> Player | None:
        """The signed-in player; None without a header or with an unknown token."""
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        return await store().players.by_token(authorization[7:].strip())

    @app.get("/healthz")
    async def healthz() -> Response:
        return health_response(store().health, lobby().count)  # 503 while writes fail

    @app.get("/readyz")
    async def readyz() -> Response:
        rt = router()  # database, Redis and the routing link: 503 if not
        link = None if rt is None else rt.link_state()
        return await ready_response(store(), settings.redis_url, link)

    @app.get("/metrics")
    async def metrics_page() -> Response:
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)

    @app.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        local = request.scope.get("server")
        return {
            "share_base": share_base(settings.host, local),
            "local_only": is_loopback(settings.host),
            "protocol": wire.VERSION,
            "presets": sorted(PRESETS),
            "preset_info": preset_catalog(),
            "bots": bot_names() + entry_point_names(),
            "table": {  # the create-room form's pace defaults (room option ``table``)
                "public": lobby().pace_defaults(private=False).to_dict(),
                "private": lobby().pace_defaults(private=True).to_dict(),
            },
        }

    @app.post("/api/players")
    async def new_player(body: NewPlayer, request: Request) -> dict[str, Any]:
        try:
            name = clean_name(body.name, settings.name_max_chars)
        except BadName as e:
            raise HTTPException(400, str(e)) from e
        try:
            await quotas.signup(address_key(request.client and request.client.host))
        except OverQuota as e:
            raise _too_many(e) from e
        player, token = await store().players.create(name)
        return {"id": player.id, "name": player.name, "token": token}

    @app.get("/api/me")
    async def me(authorization: str | None = Header(default=None)) -> dict[str, Any]:
        p = await current_player(authorization)
        return {"id": p.id, "name": p.name}

    @app.post("/api/rooms")
    async def new_room(
        body: NewRoom, request: Request, authorization: str | None = Header(default=None)
    ) -> Any:
        player = await current_player(authorization)
        address = address_key(request.client and request.client.host)
        try:
            await quotas.check_room(player.id, address)
        except OverQuota as e:
            raise _too_many(e) from e
        owned = lobby().owned_by(player.id)
        rt = router()
        if rt is not None:  # every process's rooms count
            owned = await rt.owned_by(player.id, owned)
        if owned >= settings.max_rooms_per_player:
            raise _too_many(
                OverQuota(
                    f"you have {owned} open rooms, the most one player may; a room nobody "
                    f"uses closes after {settings.room_idle_s:g} s",
                    max(1, round(settings.room_idle_s)),
                )
            )
        try:  # every option checked before the room exists (server/table/validate.py)
            ruleset = room_ruleset(body.preset, body.options)
            seats = {int(seat): name for seat, name in body.bots.items()}
            bots = room_bots(seats, ruleset.players, settings.bot_budget_s)
            room = await lobby().create(
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
        await quotas.room_created(player.id, address)
        for seat, name in sorted(bots.items()):
            room.add_bot(seat, name)
        return _room_json(room)

    @app.get("/api/rooms")
    async def list_rooms() -> list[Any]:
        rt = router()
        if rt is not None:  # every process's public rooms
            return await rt.open_rooms(lobby())
        return lobby().listing()  # unloaded idle rooms too (server/live/idle_rooms.py)

    @app.get("/api/rooms/{code}")
    async def get_room(code: str) -> Any:
        info = lobby().info(code)
        rt = router()
        if info is None and rt is not None:
            info = await rt.room(code)  # run by another process
        if info is None:
            raise HTTPException(404, "no such room")
        return info

    install_placement(app, settings, lobby)  # /owner, /api/instances (operators see more)

    @app.get("/api/players/{pid}/games")
    async def player_games(
        pid: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        player = await store().players.get(pid)
        if player is None:
            raise HTTPException(404, "no such player")
        viewer = await optional_player(authorization)
        mine = viewer is not None and viewer.id == pid
        rows = await store().games.listed(pid, include_private=mine, limit=100)
        return {"player": pid, "name": player.name, "games": [game_entry(r) for r in rows]}

    @app.get("/api/leaderboard")
    async def leaderboard(kind: str = "rating", limit: int = 50) -> dict[str, Any]:
        if kind not in ("rating", "coins", "beans"):
            raise HTTPException(400, "kind is rating, coins or beans")
        if not 1 <= limit <= 200:
            raise HTTPException(400, "limit is 1..200")
        return {"kind": kind, "entries": await store().ledger.leaderboard(kind, limit)}

    @app.get("/api/players/{pid}/stakes")
    async def player_stakes(pid: str, limit: int = 20) -> dict[str, Any]:
        player = await store().players.get(pid)
        if player is None:
            raise HTTPException(404, "no such player")
        if not 0 <= limit <= 200:
            raise HTTPException(400, "limit is 0..200")
        return {"player": pid, "name": player.name, **await store().ledger.of_player(pid, limit)}

    @app.get("/api/games/{gid}")
    async def get_game(
        gid: int, download: bool = False, authorization: str | None = Header(default=None)
    ) -> Response:
        viewer = await optional_player(authorization)  # a private room's: its players only
        record = await store().games.record_for(gid, None if viewer is None else viewer.id)
        if record is None:  # also for a stranger: a private game's id says nothing
            raise HTTPException(404, "no such game")
        info = await store().games.info(gid)
        name = record_filename(info[0], gid, info[1]) if info else f"shengji-game{gid}.json"
        disposition = "attachment" if download else "inline"
        headers = {"Content-Disposition": f'{disposition}; filename="{name}"'}
        return Response(record, media_type="application/json", headers=headers)

    install_history(app, store, lobby, optional_player, router)  # /api/games, replays

    open_sockets = OpenSockets(settings.max_sockets_per_address)

    async def ws_room(ws: WebSocket, code: str) -> None:  # /ws/{code}, server/live/socket_route.py
        host = ws.client.host if ws.client else None
        key = None if host and is_loopback(host) else address_key(host)  # loopback: uncapped
        if not open_sockets.enter(key):
            why = f"too many connections from one address (at most {open_sockets.cap})"
            await refuse(ws, "too-many-sockets", why, 4429)
            return
        try:
            with metrics.connection():
                await serve_socket(
                    ws, code, lobby(), store(), settings, app.state.auth_gate, router()
                )
        finally:
            open_sockets.leave(key)

    app.socket_endpoint = ws_room

    if WEB_STATIC.is_dir():  # last: the routes above win
        app.mount("/", StaticFiles(directory=WEB_STATIC, html=True), name="web")
    return app
