"""``/metrics`` (Prometheus text), ``/readyz`` (database, storage, Redis: 503 otherwise)
and ``/healthz`` staying liveness."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from shengji import __version__
from shengji.server import metrics
from shengji.server.http.ready import readiness
from shengji.server.store.storage import Store
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _scrape(base: str) -> Samples:
    r = httpx.get(f"{base}/metrics", timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: Samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def test_metrics_count_actions_tables_and_connections(server: str) -> None:
    before = _scrape(server)
    assert _value(before, "shengji_build_info", version=__version__) == 1
    assert ("shengji_lease_changes_total", ()) in before  # counted per process: other
    # tests in this process may have moved it (test_lease_live); this one moves no lease
    assert ("shengji_database_errors_total", ()) in before
    assert ("process_resident_memory_bytes", ()) in before
    me = new_player(server, "metrics")
    room = new_room(server, me["token"], preset="classic", bots={1: "random", 2: "random",
                                                                 3: "random"})
    client = Client(server, room["code"], me["token"])
    try:
        client.send({"t": "sit", "v": 1, "seat": 0})
        client.send({"t": "ready", "v": 1})
        updates = 0
        while updates < 20:  # twenty rounds of dealt cards (every card an action, logged)
            if client.recv()["t"] == "update":
                updates += 1
        during = _scrape(server)
        assert _value(during, "shengji_connections") >= 1
        assert _value(during, "shengji_tables", status="playing") >= 1
        assert ("shengji_tables", (("status", "waiting"),)) in during
        actions = _value(during, "shengji_actions_total") - _value(
            before, "shengji_actions_total")
        timed = _value(during, "shengji_action_seconds_count") - _value(
            before, "shengji_action_seconds_count")
        assert actions >= 4 * 19 and timed == actions  # one latency sample per action
        assert _value(during, "shengji_action_seconds_bucket", le="+Inf") >= timed
        assert _value(during, "shengji_action_seconds_sum") > 0
        commits = _value(during, "shengji_log_commits_total") - _value(
            before, "shengji_log_commits_total")
        assert 1 <= commits <= actions  # every action logged, several in one commit
        assert _value(during, "shengji_lease_changes_total") == _value(
            before, "shengji_lease_changes_total")  # one process: no room adopted or lost
    finally:
        client.close()
    deadline = time.monotonic() + 30
    open_during = _value(during, "shengji_connections")
    while _value(_scrape(server), "shengji_connections") > open_during - 1:
        assert time.monotonic() < deadline, "the closed connection is still counted"
        time.sleep(0.05)


def test_readyz_checks_the_database_and_healthz_stays_liveness(server: str) -> None:
    r = httpx.get(f"{server}/readyz", timeout=10)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ready"] is True and "redis" not in body["checks"]
    assert body["checks"]["database"]["ok"] is True and body["checks"]["storage"]["ok"] is True
    assert r.headers["cache-control"] == "no-store"
    assert "default-src 'none'" in r.headers["content-security-policy"]  # the API's policy
    assert httpx.get(f"{server}/healthz", timeout=10).status_code == 200


def test_readyz_is_503_while_redis_does_not_answer(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    settings = fast_settings(str(tmp_path), redis_url=f"redis://127.0.0.1:{closed}/0",
                             bus_secret="a test bus secret")
    with live_server(settings) as base:
        r = httpx.get(f"{base}/readyz", timeout=10)
        assert r.status_code == 503 and r.headers["retry-after"]
        redis = r.json()["checks"]["redis"]
        assert redis["ok"] is False and redis["reason"]
        assert r.json()["checks"]["database"]["ok"] is True
        assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200  # still alive


def test_readyz_with_a_redis_that_answers(tmp_path: Path) -> None:
    if not _redis_answers():
        pytest.skip("no Redis answers on 127.0.0.1:6379")
    settings = fast_settings(str(tmp_path), redis_url="redis://127.0.0.1:6379/0",
                             bus_secret="a test bus secret")
    with live_server(settings) as b:
        r = httpx.get(f"{b}/readyz", timeout=10)
        assert r.status_code == 200 and r.json()["checks"]["redis"]["ok"] is True


def test_a_database_that_does_not_answer_is_not_ready() -> None:
    pytest.importorskip("asyncpg")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]

    async def check() -> dict[str, object]:
        store = Store(f"postgresql+asyncpg://nobody@127.0.0.1:{closed}/none")
        try:
            return await readiness(store, None)
        finally:
            await store.engine.dispose()

    body = asyncio.run(check())
    assert body["ready"] is False
    database = body["checks"]["database"]  # type: ignore[index]
    assert database["ok"] is False and database["reason"]


def test_failing_writes_count_as_database_errors_and_make_it_unready(tmp_path: Path) -> None:
    async def check() -> dict[str, object]:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
        try:
            store.health.failed(OSError(28, "No space left on device"))
            return await readiness(store, None)
        finally:
            await store.health.close()
            await store.engine.dispose()

    before = metrics.REGISTRY.get_sample_value("shengji_database_errors_total") or 0.0
    body = asyncio.run(check())
    after = metrics.REGISTRY.get_sample_value("shengji_database_errors_total") or 0.0
    assert after >= before + 1
    assert body["ready"] is False
    storage = body["checks"]["storage"]  # type: ignore[index]
    assert storage == {"ok": False, "reason": "OSError: [Errno 28] No space left on device"}
    assert body["checks"]["database"]["ok"] is True  # type: ignore[index]


def test_a_redis_url_must_look_like_one(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="redis://"):
        fast_settings(str(tmp_path), redis_url="127.0.0.1:6379")
