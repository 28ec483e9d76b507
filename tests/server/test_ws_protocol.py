"""The server's WebSocket protocol (``server/live/ws_protocol.py``): a socket's reading is paused
only once ``PAUSE_AT`` of its messages wait for the app (uvicorn pauses after every one),
and nothing is lost or reordered either way; its inbox and its memory once open."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.sync.client import connect

from shengji.server.live.ws_protocol import PAUSE_AT, Inbox, WebSocketProtocol, send_now_of
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


class _Transport:
    """Counts what the protocol asks of its socket."""

    def __init__(self) -> None:
        self.pauses = 0
        self.resumes = 0

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        self.resumes += 1


async def _no_app(scope: Any, receive: Any, send: Any) -> None:
    return None


def _protocol() -> tuple[WebSocketProtocol, _Transport]:
    config = uvicorn.Config(_no_app, ws=WebSocketProtocol, log_level="warning")
    config.load()
    proto = WebSocketProtocol(config, ServerState(), {}, _loop=asyncio.get_running_loop())
    transport = _Transport()
    proto.transport = transport  # type: ignore[assignment]
    return proto, transport


def _message_arrives(proto: WebSocketProtocol, n: int) -> None:
    proto.curr_msg_data_type = "text"
    data = json.dumps({"t": "ping", "n": n}).encode()
    proto.frames = [data]  # where uvicorn keeps a message's data (before 0.45: .bytes)
    proto.bytes = data
    proto.send_receive_event_to_app()


def test_reading_pauses_only_once_the_app_lags() -> None:
    async def run() -> None:
        proto, transport = _protocol()
        for n in range(PAUSE_AT - 1):  # the app is slow: they gather
            _message_arrives(proto, n)
        assert (transport.pauses, proto.read_paused) == (0, False)
        _message_arrives(proto, PAUSE_AT - 1)  # PAUSE_AT wait: stop reading
        assert (transport.pauses, proto.read_paused) == (1, True)
        got = [json.loads((await proto.receive())["text"])["n"] for _ in range(PAUSE_AT)]
        assert got == list(range(PAUSE_AT))  # in order, none lost
        assert (transport.resumes, proto.read_paused) == (1, False)  # read again once taken

    asyncio.run(run())


def test_a_keeping_up_app_never_pauses_reading() -> None:
    async def run() -> None:
        proto, transport = _protocol()
        for n in range(100):
            _message_arrives(proto, n)
            assert json.loads((await proto.receive())["text"])["n"] == n
        assert (transport.pauses, transport.resumes) == (0, 0)

    asyncio.run(run())


@pytest.mark.usefixtures("ws_layer")
def test_a_burst_from_a_live_client_is_answered_in_full_and_in_order(tmp_path: Path) -> None:
    """Three times ``PAUSE_AT`` messages sent at once: reading pauses and resumes on a real
    socket, and every ping is answered."""
    with live_server(fast_settings(str(tmp_path))) as base:
        p = new_player(base, "ann")
        c = Client(base, new_room(base, p["token"])["code"], p["token"])
        try:
            for _ in range(3 * PAUSE_AT):
                c.send({"t": "ping", "v": 2})
            pongs = [c.wait(lambda m: m["t"] == "pong") for _ in range(3 * PAUSE_AT)]
            assert len(pongs) == 3 * PAUSE_AT
            assert [m["seq"] for m in pongs] == sorted(m["seq"] for m in pongs)
        finally:
            c.close()


def test_the_inbox_hands_items_over_in_order_and_survives_a_cancelled_get() -> None:
    async def run() -> None:
        box: Inbox[str] = Inbox()
        waiting = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        waiting.cancel()  # a reader gives up while it waits: nothing is lost
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        reader = asyncio.ensure_future(box.get())
        await asyncio.sleep(0)
        for item in ("hello", "play 7H", "play 7H 7H"):
            box.put_nowait(item)
        assert (await reader, box.qsize()) == ("hello", 2)
        assert [await box.get(), await box.get()] == ["play 7H", "play 7H 7H"]
        assert box.empty()

    asyncio.run(run())


def test_an_open_socket_keeps_no_handshake_headers() -> None:
    """Once accepted, the request's and the response's headers are let go (uvicorn and the
    parser keep both for the socket's life); the socket works on."""
    seen: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        await receive()  # websocket.connect
        proto = send_now_of(scope).__self__  # type: ignore[union-attr]
        seen.append(len(proto.request.headers))
        await send({"type": "websocket.accept"})
        seen.extend([len(proto.request.headers), len(proto.response.headers)])
        msg = await receive()
        await send({"type": "websocket.send", "text": "echo " + msg["text"]})
        await send({"type": "websocket.close", "code": 1000})

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, ws=WebSocketProtocol, log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD", additional_headers={"X-A": "1"}) as ws:
            ws.send("play 7H")
            assert ws.recv(timeout=10) == "echo play 7H"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
    assert seen[0] > 3 and seen[1:] == [0, 0]


@contextlib.contextmanager
def _echo_server(interval: float) -> Any:
    """A uvicorn server of our protocol pinging every ``interval`` s (pong within as long),
    whose app echoes text; yields its port and the number of pings sent so far."""
    pings: list[float] = []
    original = WebSocketProtocol.__mro__[1].send_keepalive_ping  # type: ignore[attr-defined]

    def counted(self: WebSocketProtocol) -> None:
        pings.append(time.monotonic())
        original(self)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        await receive()
        await send({"type": "websocket.accept"})
        while (msg := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": msg["text"]})

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, ws=WebSocketProtocol, log_level="warning",
                            ws_ping_interval=interval, ws_ping_timeout=interval)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])))
    base = WebSocketProtocol.__mro__[1]
    base.send_keepalive_ping = counted  # type: ignore[attr-defined]
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield sock.getsockname()[1], pings
    finally:
        base.send_keepalive_ping = original  # type: ignore[attr-defined]
        server.should_exit = True
        thread.join(15)
        sock.close()


class _FakeLoop:
    """The protocol's view of its event loop, with a clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, Any]] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Any) -> asyncio.TimerHandle:
        self.timers.append((self.now + delay, callback))
        return asyncio.get_running_loop().call_later(3600, lambda: None)


def test_the_keepalive_waits_one_interval_after_the_client_was_last_heard() -> None:
    """On a fake clock: a socket heard from within the interval is not pinged, its check
    moves to one interval after it was last heard; a silent one is pinged."""
    pinged: list[float] = []

    async def run() -> None:
        proto, _ = _protocol()
        fake = _FakeLoop()
        proto.loop = fake  # type: ignore[assignment]
        proto.ping_interval = 0.2
        base = WebSocketProtocol.__mro__[1]
        original = base.send_keepalive_ping  # type: ignore[attr-defined]
        base.send_keepalive_ping = lambda self: pinged.append(fake.now)  # type: ignore[attr-defined]
        try:
            proto.heard_at = 0.0
            for heard in (0.1, 0.25, 0.4):  # a chatty client: heard every 0.15 s
                fake.now = heard
                proto.heard_at = heard
                fake.now = heard + 0.12
                proto.send_keepalive_ping()
                assert pinged == []
                due, again = fake.timers[-1]
                assert due == pytest.approx(heard + 0.2)  # one interval after it was heard
            fake.now = due  # then silence: the check one interval on pings
            again()
            assert pinged == [pytest.approx(0.6)]
        finally:
            base.send_keepalive_ping = original  # type: ignore[attr-defined]

    asyncio.run(run())


def test_a_chatty_client_is_not_pinged_and_a_silent_one_is() -> None:
    """On real sockets: a client that sends every 50 ms is never pinged at a 0.5 s interval
    (a round in which this busy machine held the client back for most of an interval does
    not count, and is tried again); a silent one is pinged, answers, and stays open."""
    with _echo_server(0.5) as (port, pings):
        for _attempt in range(3):
            del pings[:]
            sent: list[float] = []
            with connect(f"ws://127.0.0.1:{port}/ws/ABCD", ping_interval=None) as chatty:
                for n in range(30):  # 1.5 s: three intervals
                    sent.append(time.monotonic())
                    chatty.send(f"play {n}")
                    assert chatty.recv(timeout=10) == f"play {n}"
                    time.sleep(0.05)
            if max(b - a for a, b in itertools.pairwise(sent)) < 0.35:
                break
        assert pings == []
        with connect(f"ws://127.0.0.1:{port}/ws/ABCD", ping_interval=None) as silent:
            deadline = time.monotonic() + 30  # its client answers each ping in the background
            while len(pings) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            silent.send("still here")
            assert silent.recv(timeout=10) == "still here"
        assert len(pings) >= 3


def test_a_silent_client_that_does_not_answer_is_closed() -> None:
    """A peer that goes quiet after it last spoke, and answers no ping, is closed within
    interval + timeout of its last frame, as before the change."""
    from websockets.client import ClientProtocol
    from websockets.protocol import State
    from websockets.uri import parse_uri

    with _echo_server(0.2) as (port, pings):
        raw = socket.create_connection(("127.0.0.1", port))
        proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/ABCD"))
        proto.send_request(proto.connect())
        raw.sendall(b"".join(proto.data_to_send()))
        raw.settimeout(5)
        while proto.state is not State.OPEN:  # the server's handshake response
            proto.receive_data(raw.recv(65536))
        proto.send_text(b"play 7H")  # heard from once, then never again
        raw.sendall(b"".join(proto.data_to_send()))
        started = time.monotonic()
        while (data := raw.recv(65536)) != b"":  # read, never answer: until the server closes
            proto.receive_data(data)
        waited = time.monotonic() - started
        raw.close()
        assert len(pings) == 1
        assert 0.3 <= waited < 10.0  # one interval, then the pong's timeout (a busy machine: late)


def test_a_frame_over_the_size_limit_is_answered_too_big_before_the_close(
    tmp_path: Path,
) -> None:
    """A frame the protocol refuses (over ``ws_max_size``: 1 MiB in tests, 64 KiB served)
    gets the protocol's ``too-big`` error first, then the socket closes (1009; the server
    closes its end at once, so a client still sending may see a reset instead)."""
    from websockets.exceptions import ConnectionClosed

    with live_server(fast_settings(str(tmp_path))) as base:
        p = new_player(base, "ann")
        c = Client(base, new_room(base, p["token"])["code"], p["token"])
        try:
            c.ws.send("x" * ((1 << 20) + 1))
            said = json.loads(c.ws.recv(timeout=10))
            assert said["t"] == "error" and said["code"] == "too-big", said
            try:
                while True:
                    c.ws.recv(timeout=10)
            except ConnectionClosed as e:  # the close (1009) may be lost to a TCP reset
                assert e.rcvd is None or e.rcvd.code == 1009, e
        finally:
            c.close()
