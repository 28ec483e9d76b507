"""A cap on HTTP request bodies (``Settings.max_body_bytes``): a larger body is answered 413
before it is read.

A request that announces its size (``Content-Length``) over the cap is refused at once, its
body never read; a chunked body is counted as it arrives and refused as soon as it passes
the cap. Either way the server holds at most the cap of any one request in memory (the
connection is closed after the answer, so the rest is never read).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    """Raised while a body is read, once it has passed the cap (FastAPI answers 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, too_large(limit), headers={"Connection": "close"})


def too_large(limit: int) -> str:
    """The answer's words: ``too_large(65536)`` is ``'request bodies are at most 65536
    bytes'``."""
    return f"request bodies are at most {limit} bytes"


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with a 413."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": too_large(self.limit)}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
