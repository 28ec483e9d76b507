"""Strict request bodies: what the HTTP API reads is plain JSON, checked before any route
(the checks themselves: server/wire/strict.py).

- ``StrictJson`` (ASGI middleware) reads a request's JSON body and answers 400
  ``{"detail", "field"}`` when it is not strict JSON: ``NaN``, ``Infinity``, a number too
  large for a float (``1e400``), or no JSON at all. Python's ``json`` reads ``NaN`` and
  would hand it on, and an error that echoes it can no longer be written as JSON (a 500).
- ``install_shape_errors`` answers a body of the wrong shape (a wrong type, ``"3"`` for
  an integer, ``"yes"`` for a boolean, an unknown key) with 422 ``{"detail", "field"}``,
  the first error only and never the input it refused.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shengji.server.wire.strict import refusal

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json" or kind.endswith(b"+json")
    return False


class StrictJson:
    """ASGI middleware: a JSON request body that is not strict JSON gets a 400."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        why = refusal(body) if body else None
        if why is not None:
            detail, field = why
            answer = JSONResponse({"detail": detail, "field": field}, status_code=400)
            await answer(scope, receive, send)
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([whole], None, receive), send)


def _replay(first: list[Message], then: Message | None, receive: Receive) -> Receive:
    """A ``receive`` giving ``first`` (and ``then``) before the real one."""
    queue = [*first, *([then] if then is not None else [])]

    async def again() -> Message:
        if queue:
            return queue.pop(0)
        return await receive()

    return again


def field_of(loc: tuple[int | str, ...]) -> str:
    """The dotted field of a validation error's location, without ``body``.

    >>> field_of(("body", "options", "kitty_cap"))
    'options.kitty_cap'
    """
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header", "[key]")]
    return ".".join(parts)


def install_shape_errors(app: FastAPI) -> None:
    """Answer FastAPI's validation errors with 422 ``{"detail", "field"}`` (the first
    error), never echoing the input."""

    async def on_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        field = field_of(tuple(first.get("loc", ())))
        msg = str(first.get("msg", "invalid"))
        if first.get("type") == "extra_forbidden":
            msg = "unknown field"
        detail = f"{field}: {msg}" if field else msg
        return JSONResponse({"detail": detail, "field": field or None}, status_code=422)

    app.add_exception_handler(RequestValidationError, on_error)
