"""The Redis link (server/cluster/bus.py) against a real ``redis-server`` that is killed and started
again at random points: what one process publishes to a channel arrives at the listener in
order, and a message is never lost without the listener being told the link was down (so
the sessions that could have lost it are closed and resume by ``last_seq``)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.server.cluster import route_wire as rw
from shengji.server.cluster.bus import Bus
from shengji.server.cluster.bus_auth import BusKey
from tests.server.route_cluster import Redis, redis_or_skip

DOWN = -1
KEY = BusKey("test secret of the bus tests")


def _n(key: bytes) -> int:
    return int.from_bytes(key, "big")


def _key(n: int) -> bytes:
    return n.to_bytes(rw.KEY_BYTES, "big")


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_or_skip(tmp_path_factory.mktemp("bus")) as r:
        if not r.private:
            pytest.skip("needs a Redis of its own to kill (redis-server is not installed)")
        yield r


async def _until(pred: object, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not pred():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def _segments(log: list[int]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for x in log:
        if x == DOWN:
            out.append([])
        else:
            out[-1].append(x)
    return out


Step = tuple[str, int]
steps = st.lists(
    st.one_of(
        st.tuples(st.just("send"), st.integers(1, 40)),
        st.tuples(st.just("kill"), st.integers(0, 1)),
        st.tuples(st.just("pause"), st.integers(0, 3)),
    ),
    min_size=1,
    max_size=6,
)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps)
def test_messages_arrive_in_order_or_the_link_says_it_was_down(
    redis: Redis, plan: list[Step]
) -> None:
    asyncio.run(_run(redis, plan))


async def _run(redis: Redis, plan: list[Step]) -> None:
    if redis.proc is None:
        redis.start()
    prefix = f"bus{secrets.token_hex(3)}:"
    a, b = Bus(redis.url, prefix, "a", KEY), Bus(redis.url, prefix, "b", KEY)
    log: list[int] = []
    for bus in (a, b):
        bus.own_handler = lambda data, bus=bus: bus.pong()  # type: ignore[misc]
    a.on_down.append(lambda why: log.append(DOWN))

    def heard(payload: bytes) -> None:
        log.extend(_n(m.conn) for m in rw.decode(payload) if isinstance(m, rw.Frame))

    await a.start()
    await b.start()
    channel = a.room_channel("r")
    await a.listen(channel, heard)
    sent = 0
    try:
        for op, n in plan:
            if op == "send":
                for _ in range(n):
                    sent += 1
                    b.publish(channel, rw.Frame(_key(sent), "b", b"x"))
                    if sent % 7 == 0:
                        await asyncio.sleep(0)
            elif op == "kill":
                await asyncio.sleep(0.01 * n)
                redis.stop()
                await _until(lambda: not a.up and not b.up)
                redis.start()
                await _until(lambda: a.up and b.up)
            else:
                await asyncio.sleep(0.05 * n)
        sent += 1
        b.publish(channel, rw.Frame(_key(sent), "b", b"last"))
        await _until(lambda: sent in log or not (a.up and b.up))
    finally:
        await a.stop()
        await b.stop()
    for seg in _segments(log):
        if seg:
            assert seg == list(range(seg[0], seg[0] + len(seg))), (plan, log)
    got = [x for x in log if x != DOWN]
    assert len(got) == len(set(got)), log
    if DOWN not in log:
        assert got == list(range(1, sent + 1)), (plan, log)


def test_a_batch_round_trips() -> None:
    k, q = rw.new_key(), rw.new_key()
    batch: list[rw.BusMsg] = [
        rw.Open(k, "e", b'{"t":"hello"}'),
        rw.Frame(k, "e", b"\xff"),
        rw.Left(k, "e"),
        rw.Ask(q, "e", "replay", None),
        rw.Out(k, b"{}"),
        rw.Shut(k, 1012),
        rw.Answer(q, 404, b'{"detail":"x"}'),
        rw.Ping(3),
    ]
    assert rw.decode(rw.encode(batch)) == batch


def test_a_redis_that_does_not_answer_stalls_nothing(tmp_path: Path) -> None:
    async def run() -> None:
        from tests.server.route_cluster import free_port

        bus = Bus(f"redis://127.0.0.1:{free_port()}/0", "x:", "a", KEY)
        started = time.monotonic()
        await bus.start(wait_s=1.0)
        assert not bus.up and bus.reason
        missed: list[int] = []
        bus.publish("x:room:r", rw.Ping(1), lambda: missed.append(1))
        await bus.listen("x:room:r", lambda p: None)  # returns at once; subscribed when up
        await asyncio.sleep(0.05)
        assert missed == [1]
        with pytest.raises(ConnectionError):
            await bus.listeners(["x:room:r"])
        await bus.stop()
        assert time.monotonic() - started < 5

    asyncio.run(run())
