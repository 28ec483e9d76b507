"""A room's WebSocket, ``/ws/{code}``: an address over ``max_sockets_per_address`` open
sockets (loopback not counted) is refused with ``too-many-sockets`` and close code 4429;
any other is served by ``server/live/sockets.py``. The app routes it ahead of FastAPI
(``server/live/socket_route.py``).
"""

from __future__ import annotations

from fastapi import WebSocket

from shengji.server import metrics
from shengji.server.http.deps import Deps
from shengji.server.http.lan import is_loopback
from shengji.server.http.quotas import OpenSockets, address_key
from shengji.server.live.socket_route import SocketEndpoint
from shengji.server.live.sockets import refuse, serve_socket


def socket_endpoint(deps: Deps) -> SocketEndpoint:
    """The endpoint for every room's socket, counting each address's open sockets."""
    open_sockets = OpenSockets(deps.settings.max_sockets_per_address)

    async def ws_room(ws: WebSocket, code: str) -> None:
        host = ws.client.host if ws.client else None
        key = None if host and is_loopback(host) else address_key(host)  # loopback: uncapped
        if not open_sockets.enter(key):
            why = f"too many connections from one address (at most {open_sockets.cap})"
            await refuse(ws, "too-many-sockets", why, 4429)
            return
        try:
            with metrics.connection():
                await serve_socket(ws, code, deps.lobby(), deps.store(), deps.settings,
                                   deps.auth_gate(), deps.cluster())
        finally:
            open_sockets.leave(key)

    return ws_room
