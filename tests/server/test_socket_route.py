"""A room's WebSocket goes straight to its endpoint (``server/live/socket_route.py``); every
other request goes through the app's stack as before."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from starlette.websockets import WebSocket

from shengji.server.http.app import create_app
from shengji.server.live.socket_route import SocketsFirst
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


def _route(scope: dict[str, Any]) -> list[tuple[str, str]]:
    calls: list[tuple[str, str]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        calls.append(("app", scope["path"]))

    async def endpoint(ws: WebSocket, code: str) -> None:
        calls.append(("endpoint", code))

    async def nothing() -> Any:
        return {}

    async def drop(message: Any) -> None:
        return None

    asyncio.run(SocketsFirst(app, endpoint)(scope, nothing, drop))
    return calls


def test_a_room_socket_goes_to_the_endpoint_and_the_rest_to_the_app() -> None:
    ws = {"type": "websocket", "root_path": ""}
    assert _route({**ws, "path": "/ws/ABCD"}) == [("endpoint", "ABCD")]
    assert _route({**ws, "path": "/ws/AB/CD"}) == [("app", "/ws/AB/CD")]
    assert _route({**ws, "path": "/ws/"}) == [("app", "/ws/")]
    assert _route({"type": "http", "path": "/ws/ABCD"}) == [("app", "/ws/ABCD")]


def test_the_servers_app_serves_rooms_beside_its_stack(tmp_path: Path) -> None:
    """The app's outermost layer routes room sockets; a room is played through it, and an
    HTTP request still gets the security headers of the stack behind it."""
    app = create_app(fast_settings(str(tmp_path)))
    assert isinstance(app.build_middleware_stack(), SocketsFirst)
    with live_server(fast_settings(str(tmp_path)), app) as base:
        p = new_player(base, "ann")
        c = Client(base, new_room(base, p["token"])["code"], p["token"])
        try:
            c.send({"t": "ping", "v": 2})
            assert c.wait(lambda m: m["t"] == "pong")["t"] == "pong"
        finally:
            c.close()
        assert "content-security-policy" in httpx.get(base + "/healthz").headers
