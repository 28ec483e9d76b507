"""The send path (issue 15): a message is encoded once per audience and the same bytes reach
every connection of it; a connection's messages gather into one frame (a JSON array) when
its client reads them; a client too slow to keep its buffer under the byte bound is
disconnected; the reconnect backlog is bounded in bytes and a client resuming from before what
it holds gets a snapshot."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import tempfile
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.core.ruleset import PRESETS
from shengji.server.live.backlog import Backlog, Own
from shengji.server.live.conn import _FLUSHERS, FRAME_BYTES, Conn, Flusher
from shengji.server.live.rooms import Room
from shengji.server.live.sockets import write_socket as _writer
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.table.client_actions import action_text
from shengji.server.table.commands import ClientSaid, Opened, Written
from shengji.server.table.effects import Write
from shengji.server.wire import messages as wire
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room

# ---------------------------------------------------------------------------- a room, no I/O


class _Jobs:
    """The room's jobs without a database: writes wait for ``answer``."""

    def __init__(self) -> None:
        self.writes: list[Write] = []
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Any, what: str) -> None:
        coro.close()

    async def write(self, w: Write) -> None:
        return None

    def cancel(self) -> None:
        return None

    def start_write(self, w: Write) -> None:
        """The shell hands a write over (since the group commit, issue 15)."""
        self.writes.append(w)


def _room(**kw: Any) -> tuple[Room, _Jobs]:
    s = Settings(
        data_dir=tempfile.mkdtemp(prefix="send_path_"),
        deal_pacing_s=0.0,
        bot_delay_s=0.0,
        turn_s=0.0,
        long_turn_s=0.0,
        next_deal_s=0.0,
        presence_interval_s=3600.0,
        **kw,
    )
    room = Room(
        rid=1,
        code="SENDPATH01",
        preset="classic",
        ruleset=PRESETS["classic"],
        seed="t",
        private=True,
        max_deals=None,
        settings=s,
        store=None,  # type: ignore[arg-type]
        bots=None,  # type: ignore[arg-type]
    )
    jobs = _Jobs()

    def write(w: Write) -> Any:
        jobs.writes.append(w)
        return _Jobs.write(jobs, w)

    jobs.write = write  # type: ignore[method-assign]
    room.jobs = jobs  # type: ignore[assignment]
    return room, jobs


async def _settle(room: Room, jobs: _Jobs) -> None:
    """Answer every write and take every posted command (ticks, seeds) until quiet."""
    idle = 0
    while idle < 3:
        if jobs.writes:
            room.step(Written(jobs.writes.pop(0).ticket))
            idle = 0
        elif not room.inbox.empty():
            room.step(room.inbox.get_nowait())  # type: ignore[arg-type]
            idle = 0
        else:
            await asyncio.sleep(0)  # due timers post their ticks
            idle += 1


async def _connect(
    room: Room, jobs: _Jobs, name: str, last_seq: int | None = None
) -> Conn:
    c = Conn(Player(name, name), batch=True)
    room.conns[c.id] = c
    room.step(Opened(c.id, name, name, last_seq))
    await _settle(room, jobs)
    return c


def _drain(c: Conn) -> list[bytes]:
    out = list(c.pending)
    c.pending.clear()
    c.pending_bytes = 0
    return out


async def _seated_room(**kw: Any) -> tuple[Room, _Jobs, list[Conn]]:
    """Four seated players (seat 1 with two tabs) and two spectators, a match under way."""
    room, jobs = _room(**kw)
    conns = [await _connect(room, jobs, f"p{i}") for i in range(4)]
    for i, c in enumerate(conns):
        room.step(ClientSaid(c.id, wire.Sit(seat=i)))
        room.step(ClientSaid(c.id, wire.Ready(ready=True)))
        await _settle(room, jobs)
    conns.append(await _connect(room, jobs, "p1"))  # a second tab of seat 1
    conns += [await _connect(room, jobs, "w1"), await _connect(room, jobs, "w2")]
    for _ in range(1000):  # deal until someone is to act
        m = room.table.match
        if m is not None and 0 <= m.to_act < 4:
            break
        await _settle(room, jobs)
    return room, jobs, conns


async def _play_one(room: Room, jobs: _Jobs, conns: list[Conn], rng: random.Random) -> None:
    m = room.table.match
    assert m is not None
    seat = m.to_act
    action = m.legal_actions(seat).sample(rng)
    room.step(ClientSaid(conns[seat].id, wire.Act(action=action_text(action))))
    await _settle(room, jobs)


def test_one_encoding_reaches_every_connection_of_its_audience() -> None:
    asyncio.run(_one_encoding())


async def _one_encoding() -> None:
    room, jobs, conns = await _seated_room()
    for c in conns:
        _drain(c)
    await _play_one(room, jobs, conns, random.Random(1))
    got = {i: _drain(c) for i, c in enumerate(conns)}
    updates = {
        i: [b for b in frames if json.loads(b)["t"] == "update"] for i, frames in got.items()
    }
    assert all(len(u) == 1 for u in updates.values()), updates
    # the two tabs of seat 1 hold the very same bytes object, and so do the two spectators
    assert updates[1][0] is updates[4][0]
    assert updates[5][0] is updates[6][0]
    # each seat's own message differs (its hand), and no seat got the spectators'
    mine = {json.loads(updates[i][0])["game"]["seat"] for i in range(4)}
    assert mine == {0, 1, 2, 3}
    assert json.loads(updates[5][0])["game"]["seat"] is None
    # a message for everyone alike (the room's state) is one object for all seven
    room.step(ClientSaid(conns[5].id, wire.Chat(text="hello")))
    await _settle(room, jobs)
    chats = [[b for b in _drain(c) if b"chat" in b] for c in conns]
    assert all(len(x) == 1 for x in chats)
    assert all(x[0] is chats[0][0] for x in chats)


def test_the_replay_buffer_is_bounded_in_bytes_and_falls_back_to_a_snapshot() -> None:
    asyncio.run(_bounded_replay())


async def _bounded_replay() -> None:
    room, jobs, conns = await _seated_room(replay_bytes=4096)
    rng = random.Random(2)
    start = room.table.seq
    for _ in range(60):
        await _play_one(room, jobs, conns, rng)
    assert room.backlog.size_bytes <= 4096
    assert room.backlog.dropped_through > start
    # seat 2 comes back from before what is kept: told so, and a snapshot of its view
    old = await _connect(room, jobs, "p2", last_seq=start)
    msgs = [json.loads(b) for b in _drain(old)]
    assert msgs[0]["t"] == "welcome" and msgs[0]["resume"] is False
    assert msgs[1]["t"] == "snapshot" and msgs[1]["game"]["seat"] == 2
    # from a recent seq: resumed, every missed message once and in order, without game
    recent = room.table.seq - 3
    back = await _connect(room, jobs, "p2", last_seq=recent)
    msgs = [json.loads(b) for b in _drain(back)]
    assert msgs[0]["t"] == "welcome" and msgs[0]["resume"] is True
    seqs = [m["seq"] for m in msgs[1:] if m["t"] != "presence"]
    assert seqs == list(range(recent + 1, room.table.seq + 1))
    assert all(m.get("game") is None for m in msgs[1:] if m["t"] == "update")


def test_a_dealt_card_is_replayed_to_its_seat_only() -> None:
    asyncio.run(_dealt_card())


async def _dealt_card() -> None:
    room, _jobs, _conns = await _seated_room()
    dealt = [k for k in room.backlog.kept if k.own]
    assert dealt, "no update with an event for one seat only was kept"
    for k in dealt:
        public = json.loads(k.for_seat(None))
        assert not any(e["type"] == "card_dealt" for e in public["events"])
        # a round: one card to each seat, each seat resent its own card and nobody else's
        counted = [e["seat"] for e in public["events"] if e["type"] == "card_count_dealt"]
        assert sorted(k.seats) == sorted(counted)
        for seat in k.seats:
            mine = json.loads(k.for_seat(seat))
            cards = [e for e in mine["events"] if e["type"] == "card_dealt"]
            assert [e["seat"] for e in cards] == [seat]
            rest = [e for e in mine["events"] if e["type"] != "card_dealt"]
            assert rest == public["events"]


# ---------------------------------------------------------------------------- buffers


@settings(max_examples=200, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 400), max_size=60),
    max_bytes=st.integers(64, 4000),
    max_count=st.integers(1, 30),
    after=st.integers(0, 60),
)
def test_replay_buffer_keeps_the_newest_within_its_bounds(
    sizes: list[int], max_bytes: int, max_count: int, after: int
) -> None:
    buf = Backlog(max_bytes, max_count)
    for seq, n in enumerate(sizes, start=1):
        buf.keep(seq, b"x" * n, {seq % 4: b"y" * (n // 2)} if seq % 3 == 0 else None)
        assert buf.size_bytes <= max_bytes and len(buf.kept) <= max_count
        assert buf.size_bytes == sum(k.size for k in buf.kept)
    got = buf.since(after, None)
    if got is None:
        assert after < buf.dropped_through
    else:
        want = [b"x" * n for seq, n in enumerate(sizes, start=1) if seq > after]
        assert got == want  # every message after ``after``, none missing, in order


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=80),
    form=st.binary(max_size=80),
    head=st.integers(0, 80),
)
def test_a_seats_form_is_kept_as_a_difference_that_gives_it_back_exactly(
    data: bytes, form: bytes, head: int
) -> None:
    form = data[:head] + form + data[head:]  # mostly shares a start and an end with data
    for theirs in (form, data, b""):
        own = Own.of(1, data, theirs)
        assert own.form(data) == theirs
        assert own.head + own.tail + len(own.middle) == len(theirs)
    buf = Backlog(10_000, 10)
    buf.keep(1, data, {2: form})
    assert buf.since(0, 2) == [form] and buf.since(0, 3) == [data]


@settings(max_examples=200, deadline=None)
@given(
    msgs=st.lists(st.integers(0, 30000), max_size=40),
    batch=st.booleans(),
    take_every=st.integers(1, 5),
)
def test_frames_carry_every_message_once_in_order(
    msgs: list[int], batch: bool, take_every: int
) -> None:
    c = Conn(Player("p", "p"), max_messages=10**6, max_bytes=10**9, batch=batch)
    sent = [json.dumps({"i": i, "pad": "z" * n}).encode() for i, n in enumerate(msgs)]
    got: list[Any] = []
    frames: list[bytes] = []

    def take() -> None:
        while (f := c.next_frame()) is not None:
            frames.append(f)
            data = json.loads(f)
            got.extend(data if isinstance(data, list) else [data])

    for i, data in enumerate(sent):
        c.send(data)
        if i % take_every == 0:
            take()
    take()
    assert got == [json.loads(b) for b in sent]
    assert c.pending_bytes == 0
    for f in frames:
        is_batch = f.startswith(b"[")
        assert batch or not is_batch
        assert not is_batch or len(f) <= FRAME_BYTES  # only a lone message may be larger


class _Socket:
    """The ASGI side of a socket for the writer task: each send waits ``turns`` turns of
    the loop (as one waits for a full socket to drain) before it lands in ``out``."""

    def __init__(self, out: list[bytes], turns: int = 1) -> None:
        from starlette.websockets import WebSocketState

        self.application_state = WebSocketState.CONNECTED
        self.out = out
        self.turns = turns
        self.closed: int | None = None

    async def send_text(self, data: str) -> None:
        for _ in range(self.turns):
            await asyncio.sleep(0)
        self.out.append(data.encode())

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def _messages(frames: list[bytes]) -> list[Any]:
    got: list[Any] = []
    for f in frames:
        data = json.loads(f)
        got.extend(data if isinstance(data, list) else [data])
    return got


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 200), min_size=1, max_size=50),
    takes=st.lists(st.booleans(), min_size=1, max_size=20),
    turns=st.lists(st.integers(0, 3), min_size=1, max_size=20),
    drain=st.integers(0, 6),
)
def test_frames_written_at_once_or_by_the_writer_arrive_once_and_in_order(
    sizes: list[int], takes: list[bool], turns: list[int], drain: int
) -> None:
    """The socket takes a frame at once or not (``takes``, cycled); one it does not take
    goes to the writer task, and nothing overtakes it while the writer waits."""

    async def run() -> tuple[list[bytes], list[bytes], Conn]:
        out: list[bytes] = []
        answers = itertools.cycle(takes)

        def send_now(frame: bytes) -> bool:
            if not next(answers):
                return False
            out.append(frame)
            return True

        c = Conn(Player("p", "p"), max_messages=10**6, max_bytes=10**9, batch=True)
        c.send_now_with(send_now)
        writer = asyncio.create_task(_writer(_Socket(out, drain), c))  # type: ignore[arg-type]
        sent = [json.dumps({"i": i, "pad": "z" * n}).encode() for i, n in enumerate(sizes)]
        for i, data in enumerate(sent):
            c.send(data)
            for _ in range(turns[i % len(turns)]):
                await asyncio.sleep(0)
        for _ in range((drain + 2) * len(sent) + 10):  # let the writer catch up
            await asyncio.sleep(0)
        c.close()
        await asyncio.wait_for(writer, 5)
        return out, sent, c

    out, sent, c = asyncio.run(run())
    assert _messages(out) == [json.loads(b) for b in sent]
    assert c.pending_bytes == 0 and c.held is None


def test_a_socket_that_fails_leaves_its_frames_to_the_writer_and_others_go_on() -> None:
    """A failing ``send_now`` stalls neither its connection nor the others flushed in the
    same turn: its frames go through its writer task."""

    async def run() -> tuple[list[bytes], list[bytes]]:
        broken_out: list[bytes] = []
        good_out: list[bytes] = []

        def broken(frame: bytes) -> bool:
            raise OSError("socket gone")

        def good(frame: bytes) -> bool:
            good_out.append(frame)
            return True

        a = Conn(Player("a", "a"), batch=True)
        b = Conn(Player("b", "b"), batch=True)
        a.send_now_with(broken)
        b.send_now_with(good)
        writer = asyncio.create_task(_writer(_Socket(broken_out), a))  # type: ignore[arg-type]
        a.send(b'{"a":1}')
        b.send(b'{"b":1}')
        for _ in range(5):
            await asyncio.sleep(0)
        a.close()
        await asyncio.wait_for(writer, 5)
        return broken_out, good_out

    broken_out, good_out = asyncio.run(run())
    assert broken_out == [b'{"a":1}'] and good_out == [b'{"b":1}']


def test_each_event_loop_has_its_own_flusher_and_it_goes_with_the_loop() -> None:
    """Tests run servers on loops in several threads: a socket is only written from its
    own loop's flusher, and a loop that is gone leaves no flusher (or gathered frames)
    behind."""
    import gc

    first, second = asyncio.new_event_loop(), asyncio.new_event_loop()
    assert Flusher.of(first) is Flusher.of(first)
    assert Flusher.of(first) is not Flusher.of(second)
    count = len(_FLUSHERS)
    first.close()
    del first
    gc.collect()
    assert len(_FLUSHERS) == count - 1
    second.close()


@pytest.mark.parametrize("direct", [False, True], ids=["writer", "send-now-refused"])
def test_a_slow_reader_is_disconnected_when_its_buffer_passes_the_byte_bound(
    direct: bool,
) -> None:
    """A client that does not read: its frames wait until the byte bound disconnects it;
    the same when our socket's ``send_now`` refuses (its buffer is full)."""

    class Stuck:
        """A socket whose client does not read: every send waits until released."""

        def __init__(self) -> None:
            from starlette.websockets import WebSocketState

            self.application_state = WebSocketState.CONNECTED
            self.release = asyncio.Event()
            self.sent: list[str] = []
            self.closed: int | None = None

        async def send_text(self, data: str) -> None:
            await self.release.wait()
            self.sent.append(data)

        async def close(self, code: int = 1000) -> None:
            self.closed = code

    async def run() -> tuple[Conn, Stuck, int]:
        c = Conn(Player("slow", "slow"), max_messages=4096, max_bytes=16384, batch=True)
        if direct:
            c.send_now_with(lambda frame: False)  # the transport paused writing
        ws = Stuck()
        writer = asyncio.create_task(_writer(ws, c))  # type: ignore[arg-type]
        msg = b'{"t":"pong","v":2,"seq":1,"pad":"' + b"p" * 1000 + b'"}'
        sent = 0
        while c.open:
            c.send(msg)
            sent += 1
            await asyncio.sleep(0)
        assert sent < 40  # about 16 KiB, not a message count
        ws.release.set()
        await asyncio.wait_for(writer, 5)
        return c, ws, sent

    c, ws, _sent = asyncio.run(run())
    assert not c.open and c.close_code == 1000 and ws.closed == 1000
    assert c.pending_bytes == 0 and not c.pending  # what waited for it was dropped
    assert len(ws.sent) == 1  # only the frame already on its way


# ---------------------------------------------------------------------------- live


def test_a_batch_client_gets_one_frame_per_command_and_others_one_message_a_frame(
    tmp_path: Any,
) -> None:
    from websockets.sync.client import connect

    with live_server(fast_settings(str(tmp_path))) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"])
        c = Client(base, room["code"], ann["token"])  # says batch: true
        c.wait(lambda m: m["t"] == "snapshot")
        first = c.frames[0]
        assert isinstance(first, list) and [m["t"] for m in first][:2] == ["welcome", "snapshot"]
        with connect(base.replace("http", "ws") + f"/ws/{room['code']}") as ws:
            ws.send(json.dumps({"t": "hello", "v": 2, "token": ann["token"]}))
            assert json.loads(ws.recv(timeout=10))["t"] == "welcome"
            assert json.loads(ws.recv(timeout=10))["t"] == "snapshot"
        c.close()
