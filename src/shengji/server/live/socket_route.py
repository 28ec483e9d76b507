"""WebSocket upgrades to ``/ws/{code}`` go straight to the room's endpoint, around
FastAPI's middleware and router.

A room's socket stays open for the whole match, and every layer it passed through on the
way in stays suspended with it: FastAPI's and Starlette's stack (error and exception
middleware, three ``AsyncExitStack``s, the router, the route) kept about 9 KiB per socket,
45 KiB per table of five (``bench/server_load.py`` reports RSS per table). None of those
layers does anything for these sockets: the security headers and the body cap are for HTTP
responses, the route has no dependencies, and an error the endpoint does not handle ends
in uvicorn either way (it closes the socket with 1011 and logs it). Every other request,
other WebSocket paths included, goes through the app as before.

>>> room_code({"type": "websocket", "path": "/ws/ABCD"})
'ABCD'
>>> room_code({"type": "websocket", "path": "/sj/ws/ABCD", "root_path": "/sj"})
'ABCD'
>>> [room_code({"type": "websocket", "path": p}) for p in ("/ws/", "/ws/A/B", "/api/ws/A")]
[None, None, None]
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

PREFIX = "/ws/"

SocketEndpoint = Callable[[WebSocket, str], Awaitable[None]]
"""A room's socket and its code: serve it until it closes."""


def room_code(scope: Mapping[str, Any]) -> str | None:
    """The room code of a ``/ws/{code}`` path (below the app's ``root_path``), else None."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    if not path.startswith(PREFIX):
        return None
    code = path[len(PREFIX) :]
    return code if code and "/" not in code else None


class SocketsFirst:
    """ASGI middleware: a WebSocket to ``/ws/{code}`` is handed to ``endpoint``; everything
    else to ``app``."""

    def __init__(self, app: ASGIApp, endpoint: SocketEndpoint) -> None:
        self.app = app
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            code = room_code(scope)
            if code is not None:
                await self.endpoint(WebSocket(scope, receive, send), code)
                return
        await self.app(scope, receive, send)
