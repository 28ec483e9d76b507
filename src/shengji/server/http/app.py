"""The FastAPI app factory: the settings, the lifespan (server/http/lifespan.py), the
middleware, the routes of each module (meta, players, rooms, placement, games, history), one
WebSocket endpoint per room (``/ws/{code}``) and the browser table at ``/``. See
docs/protocol.md, "Server protocol".
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp

from shengji.server.http import games, history, meta, placement, players, rooms, saved_rules
from shengji.server.http.bodylimit import BodyLimit
from shengji.server.http.deps import Deps
from shengji.server.http.headers import SecurityHeaders
from shengji.server.http.health import install_storage_handler
from shengji.server.http.lifespan import lifespan
from shengji.server.http.quotas import Quotas
from shengji.server.http.room_socket import socket_endpoint
from shengji.server.http.static import WEB_STATIC, mount_web
from shengji.server.http.strict_json import StrictJson, install_shape_errors
from shengji.server.live.socket_route import SocketEndpoint, SocketsFirst
from shengji.server.settings import Settings
from shengji.server.store.datadir_lock import DataDirLock

__all__ = ["App", "create_app"]


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


def create_app(settings: Settings | None = None, lock: DataDirLock | None = None) -> FastAPI:
    """A new server app; its lifespan takes the data dir's lock (unless ``lock`` is one
    already held, as ``shengji serve`` does), opens the database and restores every room."""
    settings = settings or Settings()
    app = App(settings, title="shengji", version="1", lifespan=lifespan(settings, lock))
    app.state.settings = settings
    install_storage_handler(app)  # a full disk or a lost database: 503, never a bare 500
    install_shape_errors(app)  # a body of the wrong shape: 422 naming the field
    quotas = Quotas(settings.signup_rate, settings.room_rate, settings.room_rate_per_address,
                    settings.redis_url, settings.redis_prefix)  # shared through Redis if set
    deps = Deps(app.state, settings, quotas)
    for module in (meta, players, saved_rules, rooms, placement, games, history):
        app.include_router(module.routes(deps))
    app.socket_endpoint = socket_endpoint(deps)
    mount_web(app)  # last: the routes above win
    return app
