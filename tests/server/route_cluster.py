"""Several ``shengji serve`` processes on loopback sharing one PostgreSQL schema and one Redis
(issue 16): the platform as a host runs it.

PostgreSQL: ``SHENGJI_TEST_DATABASE_URL`` or the default at 127.0.0.1:5432 (tests/pg.py: a
role and schema of the test's own, dropped after). Redis: a private ``redis-server`` on a
free port when Debian's binary is installed (so a test may stop it), else
``SHENGJI_TEST_REDIS_URL`` or ``redis://127.0.0.1:6379/0``. Each group of processes has a
key and channel prefix of its own, so tests sharing a Redis never meet. Either service
missing: the test is skipped, saying which.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests import pg

REDIS_ENV = "SHENGJI_TEST_REDIS_URL"
BUS_SECRET = "the test cluster's bus secret"
"""What every process of a test group seals its Redis messages with."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@dataclass
class Redis:
    """A Redis for a test: its URL and, when private, its process (to stop and start)."""

    url: str
    port: int
    data: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    password: str | None = None
    """A private server's ``requirepass`` (its URL carries it)."""

    @property
    def private(self) -> bool:
        return self.data is not None

    def start(self) -> None:
        """Start the private server (again) on its port."""
        assert self.data is not None
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.data),
             *(["--requirepass", self.password] if self.password else [])],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while not _answers("127.0.0.1", self.port):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the private server at once (SIGKILL: as a crash)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@contextmanager
def redis_or_skip(tmp: Path) -> Iterator[Redis]:
    """A Redis the test may use (private when possible); skips when there is none."""
    if shutil.which("redis-server"):
        port = free_port()
        data = tmp / "redis"
        data.mkdir()
        password = secrets.token_hex(16)
        r = Redis(f"redis://:{password}@127.0.0.1:{port}/0", port, data, password=password)
        r.start()
        try:
            yield r
        finally:
            r.stop()
        return
    url = os.environ.get(REDIS_ENV) or "redis://127.0.0.1:6379/0"
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    host, _, port_s = host_port.rpartition(":")
    if not _answers(host or "127.0.0.1", int(port_s or 6379)):
        pytest.skip(f"no Redis: redis-server is not installed and {url} does not answer "
                    f"(set {REDIS_ENV})")
    yield Redis(url, int(port_s or 6379))


@dataclass
class Instance:
    """One ``shengji serve`` of the group."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


@dataclass
class Cluster:
    """A group of processes on one database and one Redis."""

    database_url: str
    redis: Redis
    prefix: str
    env: dict[str, str]
    tmp: Path
    instances: list[Instance] = field(default_factory=list)

    def start(self, name: str, port: int | None = None) -> Instance:
        """Start one more process; returns once its ``/readyz`` answers 200 naming it (the
        database and Redis reachable, its channels subscribed; and the port is really its
        own: another program may take a free port first, then another is tried)."""
        for _ in range(3):
            inst = self._launch(name, port or free_port())
            if inst is not None:
                self.instances.append(inst)
                return inst
            if port is not None:
                break
        raise RuntimeError(f"{name} did not start: {self.log(name)[-2000:]}")

    def _launch(self, name: str, port: int) -> Instance | None:
        env = dict(os.environ)
        env.update(self.env)
        env.update(SHENGJI_INSTANCE_ID=name)
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 (the process keeps it)
        proc = subprocess.Popen(
            [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--database-url", self.database_url, "--redis-url", self.redis.url,
             "--log-level", os.environ.get("SJ_CLUSTER_LOG", "warning")],
            env=env, stdout=log, stderr=log,
        )
        inst = Instance(name, port, proc)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                r = httpx.get(f"{inst.base}/readyz", timeout=2)
                if r.status_code == 200 and r.json()["checks"]["routing"]["instance"] == name:
                    return inst
            except (httpx.HTTPError, KeyError, ValueError):
                pass
            time.sleep(0.1)
        inst.kill()
        return None

    def log(self, name: str) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


FAST_ENV = {
    "SHENGJI_DEAL_PACING_S": "0",
    "SHENGJI_BOT_DELAY_S": "0",
    "SHENGJI_DEAL_END_PAUSE_S": "0",
    "SHENGJI_TURN_S": "0",
    "SHENGJI_LONG_TURN_S": "0",
    "SHENGJI_NEXT_DEAL_S": "0",
    "SHENGJI_RATE_PER_S": "1000",
    "SHENGJI_RATE_BURST": "1000",
    "SHENGJI_SEAT_GRACE_S": "60",
    "SHENGJI_PRESENCE_INTERVAL_S": "0.05",
}


@contextmanager
def cluster(tmp: Path, names: list[str], **env: str) -> Iterator[Cluster]:
    """Processes ``names`` on a fresh PostgreSQL schema and a Redis (skips without
    either); every process is killed at the end. They run in the PostgreSQL pass
    (``make test-postgres``), or whenever ``SHENGJI_TEST_CLUSTER=1``."""
    if pg.configured_url() is None and os.environ.get("SHENGJI_TEST_CLUSTER") != "1":
        pytest.skip(f"multi-process tests run in the PostgreSQL pass (make test-postgres, "
                    f"{pg.ENV}) or with SHENGJI_TEST_CLUSTER=1")
    admin = pg.admin_url_or_skip()
    with ExitStack() as stack:
        url = stack.enter_context(pg.fresh_schema(admin))
        redis = stack.enter_context(redis_or_skip(tmp))
        prefix = f"t{secrets.token_hex(4)}:"
        group = Cluster(url, redis, prefix, {**FAST_ENV, "SHENGJI_REDIS_PREFIX": prefix,
                                             "SHENGJI_BUS_SECRET": BUS_SECRET, **env}, tmp)
        try:
            for name in names:
                group.start(name)
            yield group
        finally:
            for inst in group.instances:
                inst.kill()
