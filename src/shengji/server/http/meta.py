"""What the server says about itself: ``/healthz`` (writes succeed), ``/readyz`` (database,
Redis and the routing link answer), ``/metrics`` (Prometheus) and ``GET /api/meta`` (what
the browser's forms need: presets, bots, pace defaults, the address to share).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from shengji.bots.plugins import entry_point_names
from shengji.bots.registry import bot_names
from shengji.core.ruleset import PRESETS
from shengji.server import metrics
from shengji.server.http.deps import Deps
from shengji.server.http.health import health_response
from shengji.server.http.lan import is_loopback, share_base
from shengji.server.http.ready import ready_response
from shengji.server.table.catalog import preset_catalog
from shengji.server.table.rule_fields import rule_fields
from shengji.server.wire import messages as wire


def routes(deps: Deps) -> APIRouter:
    """The four routes (503 from the probes while something they check fails)."""
    api = APIRouter()
    settings = deps.settings

    @api.get("/healthz")
    async def healthz() -> Response:
        return health_response(deps.store().health, deps.lobby().count)  # 503 while writes fail

    @api.get("/readyz")
    async def readyz() -> Response:
        rt = deps.cluster()  # database, Redis and the routing link: 503 if not
        link = None if rt is None else rt.link_state()
        return await ready_response(deps.store(), settings.redis_url, link)

    @api.get("/metrics")
    async def metrics_page() -> Response:
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)

    @api.get("/api/meta")
    async def meta(request: Request) -> dict[str, Any]:
        local = request.scope.get("server")
        lobby = deps.lobby()
        return {
            "share_base": share_base(settings.host, local),
            "local_only": is_loopback(settings.host),
            "protocol": wire.VERSION,
            "presets": sorted(PRESETS),
            "preset_info": preset_catalog(),
            "bots": bot_names() + entry_point_names(),
            "rule_fields": rule_fields(),  # the house-rules editor (server/table/rule_fields.py)
            "table": {  # the create-room form's pace defaults (room option ``table``)
                "public": lobby.pace_defaults(private=False).to_dict(),
                "private": lobby.pace_defaults(private=True).to_dict(),
            },
        }

    return api
