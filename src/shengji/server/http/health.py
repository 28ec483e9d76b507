"""``/healthz`` and what HTTP clients are told while the database refuses writes.

``GET /healthz`` answers 200 ``{"ok": true, "rooms": N, "storage": {"writable": true}}``
while writes succeed and 503 ``{"ok": false, ..., "storage": {"writable": false, "reason":
"OperationalError: database or disk is full", "since_s": 4.2, "failures": 7}}`` while they
fail (server/store/write_faults.py ``WriteHealth``), so a load balancer or an operator sees it. A
request that meets a storage fault (a sign-up on a full disk) gets a 503 with a JSON
``detail`` and ``Retry-After``, never a bare 500.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

from shengji.server.store.write_faults import STORAGE_DOWN, WriteHealth, is_storage_fault

RETRY_AFTER_S = 5
"""What a 503 asks a client to wait before trying again."""



def health_response(health: WriteHealth, rooms: int) -> JSONResponse:
    """``/healthz``: 200 while writes succeed, 503 (with the reason) while they fail."""
    body: dict[str, Any] = {"ok": health.ok, "rooms": rooms, "storage": health.status()}
    if health.ok:
        return JSONResponse(body)
    return JSONResponse(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER_S)})


def storage_unavailable() -> JSONResponse:
    """The answer to a request that met a storage fault."""
    return JSONResponse(
        {"detail": STORAGE_DOWN, "code": "storage"},
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_S)},
    )


DATABASE_MODULES = ("sqlalchemy", "asyncpg", "aiosqlite", "sqlite3", "shengji.server.store")


def from_database(exc: BaseException) -> bool:
    """Whether ``exc`` came from the database: a SQLAlchemy error, or an ``OSError`` raised
    in the database's code (a pool's refused connection), not any ``OSError`` at all.

    >>> from_database(sa_exc.OperationalError("SELECT 1", {}, OSError()))
    True
    >>> from_database(OSError("raised here"))
    False
    """
    if isinstance(exc, sa_exc.SQLAlchemyError):
        return True
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if module.startswith(DATABASE_MODULES):
            return True
        tb = tb.tb_next
    return False


def install_storage_handler(app: FastAPI) -> None:
    """Answer a storage fault raised by any route with ``storage_unavailable`` (and tell
    ``Store.health``: a failed read of an unreachable database counts too); any other
    error keeps its usual 500."""

    async def on_error(request: Request, exc: Exception) -> JSONResponse:
        if not is_storage_fault(exc) or not from_database(exc):
            raise exc
        store = getattr(request.app.state, "store", None)
        if store is not None:
            store.health.failed(exc)
        return storage_unavailable()

    # OSError: a pool's new connection refused (asyncpg's ConnectionRefusedError, unwrapped)
    for kind in (sa_exc.DBAPIError, sa_exc.DisconnectionError, sa_exc.TimeoutError, OSError):
        app.add_exception_handler(kind, on_error)
