"""``GET /readyz``: may this process take traffic? (``/healthz`` is liveness: is it up.)

Ready when the database answers ``SELECT 1`` within ``TIMEOUT_S``, writes are not failing
(server/store/write_faults.py), and Redis, when one is configured (``SHENGJI_REDIS_URL``),
answers ``PING`` and the process's own link to it (subscriptions, server/cluster/bus.py) is up.
Then 200 ``{"ready": true, "checks": {"database": {"ok": true, "ms":
0.4}, "storage": {"ok": true}}}``; otherwise 503 with ``Retry-After`` and, for each failed
check, a one-line ``reason``. A load balancer sends players only to ready instances.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi.responses import JSONResponse
from sqlalchemy import text

from shengji.server.http.health import RETRY_AFTER_S
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import fault_reason

TIMEOUT_S = 2.0
"""How long each check may take before it counts as failed."""


async def _timed(check: Callable[[], Awaitable[None]]) -> dict[str, Any]:
    """Run one check: ``{"ok": true, "ms": ...}`` or ``{"ok": false, "reason": ...}``."""
    started = time.perf_counter()
    try:
        async with asyncio.timeout(TIMEOUT_S):
            await check()
    except TimeoutError:
        return {"ok": False, "reason": f"no answer within {TIMEOUT_S:g} s"}
    except Exception as e:
        return {"ok": False, "reason": fault_reason(e)}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}


async def database_answers(store: Store) -> None:
    """``SELECT 1`` on a connection from the store's pool."""
    async with store.engine.connect() as conn:
        await conn.execute(text("SELECT 1"))


async def redis_answers(url: str) -> None:
    """``PING`` on a fresh connection to the Redis at ``url``."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S)
    try:
        if not await client.ping():
            raise ConnectionError("PING was not answered with PONG")
    finally:
        await client.aclose()


async def readiness(
    store: Store, redis_url: str | None, routing: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every check's outcome: ``{"ready": bool, "checks": {...}}``; ``routing``: the state
    of the process's Redis link (server/cluster/bus.py), when it routes."""
    checks: dict[str, Any] = {"database": await _timed(lambda: database_answers(store))}
    checks["storage"] = (
        {"ok": True} if store.health.ok else {"ok": False, "reason": store.health.reason}
    )
    if redis_url:
        checks["redis"] = await _timed(lambda: redis_answers(redis_url))
    if routing is not None:
        checks["routing"] = routing
    return {"ready": all(c["ok"] for c in checks.values()), "checks": checks}


async def ready_response(
    store: Store, redis_url: str | None, routing: dict[str, Any] | None = None
) -> JSONResponse:
    """``/readyz``: 200 when every check passes, else 503 (with ``Retry-After``)."""
    body = await readiness(store, redis_url, routing)
    headers = {"Cache-Control": "no-store"}
    if body["ready"]:
        return JSONResponse(body, headers=headers)
    headers["Retry-After"] = str(RETRY_AFTER_S)
    return JSONResponse(body, status_code=503, headers=headers)
