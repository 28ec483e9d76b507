"""Many processes, one platform (routing): what the app asks when a room is not
here. Built only when ``Settings.redis_url`` is set; without it nothing here runs and a
server is the single process it always was.

A room's *owner* is the process whose lobby runs it; while it does, it listens to the
room's Redis channel (``Host``, server/cluster/route_owner.py). A socket that reaches another
process is piped there (``Edge``, server/cluster/route_edge.py); an HTTP question only the live
room can answer is asked there; the room list is the shared hash (server/cluster/route_lobby.py).
Which process owns a room is decided by its lease (server/store/lease_keeper.py: created here,
adopted from a dead owner, lost to another); the lobby tells the router when a room starts or
stops running here (``room_started`` / ``room_stopped``), and the router's instance name
is the lease keeper's.

    browser ─WS─▶ B (edge) ──PUBLISH room:<code>──▶ Redis ──▶ A (owner: the room's task)
    browser ◀─WS─ B ◀──────PUBLISH edge:<B>──────── Redis ◀── A
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
from collections.abc import Callable
from typing import Any

import msgspec
from fastapi import HTTPException, WebSocket
from starlette.websockets import WebSocketDisconnect

from shengji.server.cluster.bus import Bus
from shengji.server.cluster.bus_auth import BusKey
from shengji.server.cluster.route_edge import MOVING, REDIS_DOWN, UNAVAILABLE, Edge, RouteDown
from shengji.server.cluster.route_lobby import SharedLobby
from shengji.server.cluster.route_owner import Host
from shengji.server.live.lobby import Lobby
from shengji.server.live.rooms import Room
from shengji.server.settings import Settings
from shengji.server.store.storage import Store
from shengji.server.wire import messages as wire

log = logging.getLogger("shengji.server.route")

__all__ = ["RouteDown", "Router"]


LiveReplay = Callable[[Room, str | None], Any]
"""The match ``room`` is playing as ``player`` saw it, a value msgspec encodes
(``HTTPException`` when there is none)."""


class Router:
    """This process's part of the platform: its rooms reachable from the other processes,
    their rooms reachable from here."""

    def __init__(
        self,
        settings: Settings,
        lobby: Lobby,
        store: Store,
        auth_gate: asyncio.Semaphore,
        instance: str | None = None,
        live_replay: LiveReplay | None = None,
    ) -> None:
        """``instance``: this process's name (the lease keeper's, so that Redis channels and
        room leases name a process alike); default ``Settings.instance_id``, else random.
        ``live_replay``: the match a room here is playing, as an edge's client asks for it
        (the app passes server/http/history.py's ``room_replay``; None: refused, 404)."""
        assert settings.redis_url, "a Router needs a Redis URL"
        if settings.bus_secret is None:
            raise ValueError("SHENGJI_BUS_SECRET is not set: processes sharing Redis must "
                             "share a secret (docs/deploy.md)")
        self.settings = settings
        self.store = store
        self.instance = instance or settings.instance_id or secrets.token_hex(4)
        key = BusKey(settings.bus_secret.get_secret_value())
        self.bus = Bus(settings.redis_url, settings.redis_prefix, self.instance, key)
        answer = functools.partial(answer_ask, live_replay=live_replay)
        self.host = Host(self.bus, store, settings, auth_gate, answer, lobby.load)
        self.edge = Edge(self.bus, settings)
        self.shared = SharedLobby(self.bus, lobby)
        self.bus.own_handler = self.edge.inbox
        self.bus.on_down += [self.host.lost, self.edge.lost]
        self.bus.on_up.append(self.shared.forget_sent)
        self._pending: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Connect (a Redis that does not answer: the link keeps trying; meanwhile only this
        process's rooms are served and ``/readyz`` says 503)."""
        await self.bus.start()
        self.host.start()
        self.edge.start()
        self.shared.start()

    async def stop(self) -> None:
        """Leave: this process's rooms unlisted, routed sockets closed, the link closed."""
        for t in list(self._pending):
            with contextlib.suppress(Exception):
                await t
        await self.shared.stop()
        await self.host.stop()
        await self.edge.stop()
        await self.bus.stop()

    def link_state(self) -> dict[str, Any]:
        """``/readyz``'s ``routing`` check: the Redis link subscribed and delivering."""
        if self.bus.up:
            return {"ok": True, "instance": self.instance}
        return {"ok": False, "instance": self.instance, "reason": self.bus.reason}

    # ------------------------------------------------------------------ the lobby's hooks

    async def room_started(self, room: Room) -> None:
        """``room`` runs here now: reachable and listed before this returns."""
        await self.host.hold(room.code)
        await self.shared.put(room)

    def room_stopped(self, code: str) -> None:
        """Room ``code`` stopped running here (closed, failed, moved away; not unloaded
        while idle: it is still this process's, reloaded when a client comes)."""
        if code not in self.host.held:
            return

        async def leave() -> None:
            await self.host.release(code)
            await self.shared.drop(code)

        task = asyncio.get_running_loop().create_task(leave())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    # ------------------------------------------------------------------ sockets

    async def serve(self, ws: WebSocket, code: str) -> bool:
        """Serve an accepted socket for room ``code`` that does not run here; False: no
        process runs it and it is not waiting for one (the caller says ``no-room``)."""
        try:
            owned = await self.edge.owned(code)
        except RouteDown:
            await _refuse(ws, REDIS_DOWN)
            return True
        if not owned:
            if not await self._open_in_database(code):
                return False
            await _refuse(ws, MOVING)  # its owner died and none has adopted it yet
            return True
        try:
            first = await asyncio.wait_for(ws.receive(), 15)
        except (TimeoutError, WebSocketDisconnect):
            await ws.close(4408)
            return True
        if first["type"] == "websocket.disconnect":
            return True  # gone before saying anything
        text, data = first.get("text"), first.get("bytes")
        await self.edge.serve(ws, code, text if text is not None else data)
        return True

    async def _open_in_database(self, code: str) -> bool:
        try:
            return await self.store.rooms.is_open(code)
        except Exception:
            return False

    # ------------------------------------------------------------------ HTTP

    async def room(self, code: str) -> dict[str, Any] | None:
        """The listing of room ``code`` run elsewhere (None: no live process lists it).
        Raises ``HTTPException(503)`` while Redis cannot be asked."""
        try:
            found = await self.shared.listing(code) if self.bus.up else _down()
        except Exception as e:
            raise _unavailable() from e
        return None if found is None else _builtins(found.room)

    async def open_rooms(self, lobby: Lobby) -> list[Any]:
        """The public rooms of every live process, newest first; this process's own while
        Redis cannot be asked."""
        mine: list[tuple[int, Any]] = [
            (r.rid, msgspec.to_builtins(r.info())) for r in lobby.rooms.values() if not r.private
        ]
        mine += [(s.rid, s.info_json()) for s in lobby.idle.values() if not s.private]
        try:
            listed = await self.shared.listings() if self.bus.up else []
        except Exception as e:
            log.debug("room list from Redis failed: %s", e)
            listed = []
        here = set(lobby.rooms) | set(lobby.idle)
        mine += [
            (x.rid, _builtins(x.room))
            for x in listed
            if x.owner != self.instance and not x.room.private and x.room.code not in here
        ]
        mine.sort(key=lambda pair: -pair[0])
        return [info for _, info in mine]

    async def owned_by(self, player: str, local: int) -> int:
        """How many live rooms ``player`` owns on every process (``local``: here)."""
        try:
            listed = await self.shared.listings() if self.bus.up else []
        except Exception:
            return local
        elsewhere = sum(1 for x in listed if x.owner != self.instance and x.room.owner == player)
        return local + elsewhere

    async def ask(self, code: str, op: str, player: str | None) -> Any:
        """Ask room ``code``'s owner (``op``: ``replay``); its answer, or its HTTP error."""
        try:
            if not await self.edge.owned(code):
                raise HTTPException(404, "no such room")
            status, body = await self.edge.ask(code, op, player)
        except RouteDown as e:
            raise HTTPException(503, str(e), headers={"Retry-After": "2"}) from e
        answer = msgspec.json.decode(body)
        if status != 200:
            raise HTTPException(status, answer.get("detail", "error"))
        return answer


def answer_ask(
    room: Room | None, op: str, player: str | None, live_replay: LiveReplay | None = None
) -> tuple[int, bytes]:
    """The owner's answer to an edge's HTTP question about ``room``."""
    if op != "replay":
        return 400, msgspec.json.encode({"detail": f"unknown question {op!r}"})
    if room is None or live_replay is None:
        return 404, msgspec.json.encode({"detail": "no such room"})
    try:
        return 200, msgspec.json.encode(live_replay(room, player))
    except HTTPException as e:
        return e.status_code, msgspec.json.encode({"detail": e.detail})


def _builtins(info: wire.RoomInfo) -> Any:
    return msgspec.to_builtins(info)


def _down() -> Any:
    raise ConnectionError("Redis is unreachable")


def _unavailable() -> HTTPException:
    return HTTPException(503, REDIS_DOWN, headers={"Retry-After": "2"})


async def _refuse(ws: WebSocket, why: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(wire.encode(wire.Error(seq=0, code="unavailable", message=why)).decode())
    with contextlib.suppress(Exception):
        await ws.close(UNAVAILABLE)
