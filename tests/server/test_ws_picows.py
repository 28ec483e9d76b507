"""The rooms' sockets on picows (``server/ws_picows.py``): on the HTTP's own port, a room's
socket goes to picows and everything else to uvicorn; messages arrive whole (fragments
joined), bad frames close with the protocol's codes, a full socket refuses ``send_now``
and makes the app wait, and keepalive pings go only to silent sockets.

The socket path's guarantees on a live server (size and rate limits, close codes,
``moved``, the per-address cap, bursts) are tested on both layers by the tests that use the
``ws_layer`` fixture (tests/server/conftest.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

pytest.importorskip("picows")

from shengji.server.live.ws_first_line import FirstLine  # after the skip
from shengji.server.live.ws_picows import PicowsSocket
from shengji.server.live.ws_protocol import WebSocketProtocol, send_now_of
from tests.server.helpers import (
    Client,
    fast_settings,
    live_server,
    new_player,
    new_room,
)


async def _echo(scope: Any, receive: Any, send: Any) -> None:
    """HTTP: says which path; a socket: echoes each message with the kind of its
    ``send_now``'s owner, closes with 4321 on "bye"."""
    if scope["type"] == "http":
        body = scope["path"].encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
        return
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    owner = type(getattr(send_now_of(scope), "__self__", None)).__name__
    while (msg := await receive())["type"] == "websocket.receive":
        text = msg.get("text")
        if text == "bye":
            await send({"type": "websocket.close", "code": 4321})
            return
        got = text if text is not None else f"bytes:{len(msg['bytes'])}"
        await send({"type": "websocket.send", "text": f"{owner} {scope['path']} {got}"})


@contextlib.contextmanager
def _server(interval: float | None = None, max_size: int = 1 << 16) -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(_echo, http=FirstLine, ws=WebSocketProtocol, log_level="warning",
                            ws_max_size=max_size,
                            ws_ping_interval=interval, ws_ping_timeout=interval)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def test_one_port_room_sockets_on_picows_the_rest_on_uvicorn() -> None:
    with _server() as port:
        assert httpx.get(f"http://127.0.0.1:{port}/api/rooms").text == "/api/rooms"
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD") as ws:
            ws.send("play 7H")
            assert ws.recv(timeout=10) == "PicowsSocket /ws/ABCD play 7H"
            ws.send(b"\x01\x02")
            assert ws.recv(timeout=10) == "PicowsSocket /ws/ABCD bytes:2"
            ws.send("x" * 3000)  # a large frame back, framed in place
            assert ws.recv(timeout=10) == "PicowsSocket /ws/ABCD " + "x" * 3000
        with connect(f"ws://127.0.0.1:{port}/other/ABCD") as ws:  # not a room: uvicorn's
            ws.send("hi")
            assert ws.recv(timeout=10) == "WebSocketProtocol /other/ABCD hi"
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD") as ws:  # the app's close code
            ws.send("bye")
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4321


def test_fragments_are_joined_and_bad_frames_close_with_the_protocols_codes() -> None:
    with _server(max_size=4096) as port:
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD") as ws:
            ws.send(iter(["play ", "SA ", "SA"]))  # one message in three frames
            assert ws.recv(timeout=10) == "PicowsSocket /ws/ABCD play SA SA"
            ws.send("x" * 5000)  # over ws_max_size: said, then closed
            said = json.loads(ws.recv(timeout=10))
            assert said["t"] == "error" and said["code"] == "too-big"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD") as ws:
            with ws.protocol_mutex:
                ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe"))  # not UTF-8
                ws.send_data()
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007


def test_a_full_socket_refuses_send_now_and_the_app_waits_until_it_drains() -> None:
    class Transport:
        def __init__(self) -> None:
            self.sent: list[bytes] = []

        def send(self, kind: Any, data: bytes) -> None:
            self.sent.append(data)

        def send_reuse_external_bytearray(self, kind: Any, buf: bytearray, at: int) -> None:
            self.sent.append(bytes(buf[at:]))

    async def run() -> None:
        sock = PicowsSocket.__new__(PicowsSocket)
        sock.loop = asyncio.get_running_loop()
        sock.transport = Transport()  # type: ignore[assignment]
        sock.writable, sock.gone, sock.close_sent, sock.drained = True, False, False, None
        assert sock.send_now(b"1")
        assert sock.send_now(b"x" * 5000)  # framed in a buffer of its own
        sock.pause_writing()  # the transport's buffer passed its high-water mark
        assert not sock.send_now(b"2")
        waiting = asyncio.create_task(sock.send({"type": "websocket.send", "text": "3"}))
        await asyncio.sleep(0.01)
        assert not waiting.done()
        sock.resume_writing()
        await asyncio.wait_for(waiting, 1)
        assert sock.transport.sent == [b"1", b"x" * 5000, b"3"]  # type: ignore[union-attr]

    asyncio.run(run())


@contextlib.contextmanager
def _pings_counted() -> Iterator[list[float]]:
    pings: list[float] = []
    original = PicowsSocket.ping

    def counted(self: PicowsSocket) -> None:
        pings.append(time.monotonic())
        original(self)

    PicowsSocket.ping = counted  # type: ignore[method-assign]
    try:
        yield pings
    finally:
        PicowsSocket.ping = original  # type: ignore[method-assign]


def test_only_silent_sockets_are_pinged_and_a_mute_one_is_closed() -> None:
    with _pings_counted() as pings, _server(interval=0.2) as port:
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD", ping_interval=None) as chatty:
            for n in range(24):  # 1.2 s: six intervals
                chatty.send(f"play {n}")
                assert str(chatty.recv(timeout=10)).endswith(f"play {n}")
                time.sleep(0.05)
        assert pings == []
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD", ping_interval=None) as silent:
            time.sleep(1.0)  # its client answers each ping in the background
            silent.send("still here")
            assert str(silent.recv(timeout=10)).endswith("still here")
        assert len(pings) >= 3
        pings.clear()
        raw = socket.create_connection(("127.0.0.1", port))  # answers nothing, ever
        raw.sendall(b"GET /ws/ABCD HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    b"Sec-WebSocket-Version: 13\r\n\r\n")
        raw.settimeout(10)
        started = time.monotonic()
        while raw.recv(65536) != b"":
            pass
        waited = time.monotonic() - started
        raw.close()
        assert len(pings) == 1
        assert 0.3 <= waited < 5.0  # one interval, then the pong's timeout (a busy machine)


def test_the_room_endpoint_runs_on_picows_by_default(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path))) as base:
        p = new_player(base, "ann")
        c = Client(base, new_room(base, p["token"])["code"], p["token"])
        c.send({"t": "ping", "v": 2})
        assert c.wait(lambda m: m["t"] == "pong")
        c.close()
