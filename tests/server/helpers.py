"""A live server for tests (uvicorn on 127.0.0.1, a free port, in a thread) and a small
synchronous WebSocket client with timeouts."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from shengji.server.http.app import create_app
from shengji.server.live.ws_layer import http_protocol, layer_for
from shengji.server.live.ws_protocol import WebSocketProtocol
from shengji.server.loop_nap import loop_factory
from shengji.server.settings import Settings
from tests import pg

Msg = dict[str, Any]


_PG_SCHEMAS: dict[str, str] = {}
"""With ``SHENGJI_TEST_DATABASE_URL``: the PostgreSQL schema of each data dir of a test
(dropped when the test ends: conftest.py)."""


def test_database_url(data_dir: str) -> str | None:
    """The database a test's server uses for ``data_dir``: None (SQLite in the data dir),
    or with ``SHENGJI_TEST_DATABASE_URL`` a fresh PostgreSQL schema of its own, the same
    one each time the test names this data dir (a restart finds its rooms)."""
    admin = pg.configured_url()
    if admin is None:
        return None
    if data_dir not in _PG_SCHEMAS:
        _PG_SCHEMAS[data_dir] = pg.create_schema(admin)
    return _PG_SCHEMAS[data_dir]


def drop_test_databases() -> None:
    """Drop the PostgreSQL schemas made for the test that ends."""
    admin = pg.configured_url()
    while admin and _PG_SCHEMAS:
        _, url = _PG_SCHEMAS.popitem()
        pg.drop_schema(admin, url)


def fast_settings(data_dir: str, **kw: Any) -> Settings:
    """Settings for tests: no pacing, no bot delay; the database is SQLite in ``data_dir``
    or, with ``SHENGJI_TEST_DATABASE_URL``, PostgreSQL (``test_database_url``)."""
    base: dict[str, Any] = {
        "data_dir": data_dir,
        "deal_pacing_s": 0.0,
        "bot_delay_s": 0.0,
        "deal_end_pause_s": 0.0,
        "seat_grace_s": 60.0,
        "turn_s": 0.0,  # no turn timers, no wait for "next deal": the tests set the pace
        "long_turn_s": 0.0,
        "next_deal_s": 0.0,
        "rate_per_s": 1000.0,
        "rate_burst": 1000,
        "log_level": "warning",
        "gc_refreeze_s": 0.0,  # many servers in one test process: none freezes the others
    }
    if "database_url" not in kw:
        base["database_url"] = test_database_url(data_dir)
    base.update(kw)
    return Settings(**base)


def database_flags(data_dir: str | Path) -> list[str]:
    """The ``shengji rooms`` / ``shengji db`` flags naming a test's database."""
    url = test_database_url(str(data_dir))
    return ["--data-dir", str(data_dir)] if url is None else ["--database-url", url]


def sql(data_dir: str | Path, statement: str, **params: Any) -> list[tuple[Any, ...]]:
    """Run one SQL statement (named ``:params``) on a test's database, SQLite in
    ``data_dir`` or its PostgreSQL schema, and commit; returns the rows, if any."""
    url = fast_settings(str(data_dir)).resolved_database_url()

    async def run() -> list[tuple[Any, ...]]:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                result = await conn.execute(text(statement), params)
                return [tuple(r) for r in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    return pg.run_async(run())


@contextmanager
def live_server(settings: Settings, app: FastAPI | None = None) -> Iterator[str]:
    """Run the app (default: a new one) on a free loopback port; yields its base URL
    (http://127.0.0.1:PORT)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app or create_app(settings),
        log_level="warning",
        ws=WebSocketProtocol,  # what shengji serve runs
        http=http_protocol(layer_for(settings.ws_layer, settings.ws_compression)),
        ws_max_size=1 << 20,
        ws_per_message_deflate=settings.ws_compression,
    )
    server = uvicorn.Server(config)

    def run() -> None:  # on the loop shengji serve would run (loop_nap_ms)
        with asyncio.Runner(loop_factory=loop_factory(settings.loop_nap_ms)) as runner:
            runner.run(server.serve(sockets=[sock]))

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)
        sock.close()
        if thread.is_alive():
            raise RuntimeError("the server did not stop within 60 s")


def new_player(base: str, name: str) -> Msg:
    """Register a guest: {id, name, token}."""
    r = httpx.post(f"{base}/api/players", json={"name": name})
    r.raise_for_status()
    data: Msg = r.json()
    return data


def new_room(base: str, token: str, **body: Any) -> Msg:
    """Create a room; returns its RoomInfo."""
    r = httpx.post(f"{base}/api/rooms", json=body, headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    data: Msg = r.json()
    return data


class Client:
    """One WebSocket client of a room; keeps every message it got and the last seq."""

    def __init__(
        self, base: str, code: str, token: str, last_seq: int | None = None, version: int = 1
    ) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(
                base.replace("http://", "ws://") + f"/ws/{code}",
                open_timeout=10,
                max_queue=None,
                # the server pings (tests/server/test_ws_protocol.py); a test's own pings
                # timed out while a loaded machine kept the server's thread from the GIL
                ping_interval=None,
                close_timeout=30,
            )
        )
        self.messages: list[Msg] = []
        self.frames: list[Msg | list[Msg]] = []
        """Every frame as it came: a message, or a list of them (one frame, coalesced)."""
        self._frame: deque[Msg] = deque()
        self.last_seq = 0
        hello: Msg = {"t": "hello", "v": version, "token": token, "batch": True}
        if last_seq is not None:
            hello["last_seq"] = last_seq
        with suppress(ConnectionClosed):  # a refused room closes at once; read why below
            self.send(hello)
        self.welcome = self.wait(lambda m: m["t"] in ("welcome", "error"))

    def send(self, msg: Msg | str | bytes) -> None:
        self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))

    def recv(self, timeout: float = 10.0) -> Msg:
        """The next message: a frame holds one, or several as a JSON array (coalesced)."""
        if not self._frame:
            data = json.loads(self.ws.recv(timeout=timeout))
            self.frames.append(data)
            self._frame.extend(data if isinstance(data, list) else [data])
        msg: Msg = self._frame.popleft()
        self.messages.append(msg)
        if "seq" in msg:
            self.last_seq = max(self.last_seq, msg["seq"])
        return msg

    def wait(self, pred: Callable[[Msg], bool], timeout: float = 20.0) -> Msg:
        """Receive until a message matches ``pred``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def act(self, action: str) -> None:
        self.send({"t": "act", "v": 1, "action": action})

    def close(self) -> None:
        self._stack.close()


def finished_match(base: str, token: str, **room: Any) -> tuple[int, str]:
    """A one-deal match in a new room: this player in seat 0 (moving by hints) against
    random bots; returns the game id and the room code."""
    body: dict[str, Any] = {"max_deals": 1, "bots": {"1": "random", "2": "random", "3": "random"}}
    body.update(room)
    code = new_room(base, token, **body)["code"]
    c = Client(base, code, token)
    c.send({"t": "sit", "v": 2, "seat": 0})
    c.send({"t": "ready", "v": 2})
    try:
        while True:
            m = c.recv(20)
            assert m["t"] != "error", m
            if m["t"] == "match_over":
                return int(m["game"]), code
            if m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing":
                c.send({"t": "hint", "v": 2})
                c.act(c.wait(lambda x: x["t"] == "hint")["action"])
    finally:
        c.close()
