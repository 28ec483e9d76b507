"""The server side of ``bench/server_load.py``: ``shengji serve`` in its own process, from a
chosen source tree, pinned to chosen cores, and what the kernel says it spent.

``ServerProcess.start`` runs ``python -m shengji serve`` with ``PYTHONPATH=<src>/src:<src>``
(so one run can compare two checkouts), on a fresh SQLite data dir (or ``database_url``),
with the limits that stop hostile guests lifted (every bench client is on loopback).
``cpu_seconds`` reads utime + stime from ``/proc/<pid>/stat`` (threads included),
``rss_bytes`` reads ``VmRSS`` from ``/proc/<pid>/status``, ``actions_total`` reads the
server's own ``shengji_actions_total`` counter from ``/metrics``.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def raise_open_files() -> int:
    """Lift this process's (and so its children's) open-file limit as far as allowed:
    thousands of tables are tens of thousands of sockets. Returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for want in (1 << 20, 262144, 65536, hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft), max(want, hard)))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def launcher(cpus: set[int] | None, nice: int) -> list[str]:
    """A command prefix that starts a process on ``cpus`` at priority ``nice`` (threads
    made later inherit both): ``taskset`` and ``nice`` where installed, else nothing."""
    out: list[str] = []
    if cpus and shutil.which("taskset"):
        out += ["taskset", "-c", ",".join(str(c) for c in sorted(cpus))]
    if nice and shutil.which("nice"):
        out += ["nice", "-n", str(nice)]
    return out


def own_autogroup(nice: int) -> bool:
    """Put this process in a scheduling group of its own (a new session) at priority
    ``nice``: with Linux's autogroup on, ``nice`` alone only ranks processes within their
    session, so on a machine shared with other sessions it changes nothing. Whether it did."""
    path = Path("/proc/self/autogroup")
    if not nice or not path.exists():
        return False
    try:
        if os.getsid(0) != os.getpid():
            os.setsid()
        path.write_text(str(nice))
    except OSError:
        return False
    return True


def pin(pid: int, cpus: set[int] | None) -> bool:
    """Pin ``pid`` to ``cpus`` where the platform allows; whether it did."""
    if not cpus or not hasattr(os, "sched_setaffinity"):
        return False
    try:
        os.sched_setaffinity(pid, cpus)
    except OSError:
        return False
    return True


BENCH_ENV = {
    "SHENGJI_BOT_DELAY_S": "0",
    "SHENGJI_RATE_PER_S": "10000",
    "SHENGJI_RATE_BURST": "10000",
    "SHENGJI_SEAT_GRACE_S": "600",
    "SHENGJI_SIGNUP_RATE": "1000000/minute",
    "SHENGJI_ROOM_RATE": "1000000/minute",
    "SHENGJI_ROOM_RATE_PER_ADDRESS": "1000000/minute",
    "SHENGJI_MAX_ROOMS_PER_PLAYER": "1000000",
    "SHENGJI_MAX_ROOMS": "1000000",
    "SHENGJI_LOG_LEVEL": "warning",
}
"""Settings every bench server gets: no bot delay, and the per-address and per-player
quotas lifted (every bench client is one loopback address and five players)."""


@dataclass
class ServerProcess:
    """A running ``shengji serve``."""

    proc: subprocess.Popen[bytes]
    base: str
    pinned: bool

    @classmethod
    def start(
        cls,
        src: str,
        data_dir: str,
        *,
        pacing: float,
        cpus: set[int] | None = None,
        database_url: str | None = None,
        extra_env: dict[str, str] | None = None,
        log: str | None = None,
        nice: int = 0,
        gc_log: str | None = None,
    ) -> ServerProcess:
        """Start the server from source tree ``src`` on ``cpus`` at priority ``nice`` (with
        ``gc_log``, each full garbage collection logged there); return once ``/healthz``
        answers."""
        port = free_port()
        root = Path(src).resolve()
        env = dict(os.environ)
        paths = [str(root / "src"), str(root)]
        if gc_log:  # bench/gc_probe/sitecustomize.py logs the full collections
            paths.insert(0, str(Path(__file__).resolve().parent / "gc_probe"))
            env["SHENGJI_BENCH_GC_LOG"] = gc_log
        env["PYTHONPATH"] = os.pathsep.join(paths)
        env.update(BENCH_ENV)
        env["SHENGJI_DEAL_PACING_S"] = str(pacing)
        env.update(extra_env or {})
        cmd = [*launcher(cpus, nice), sys.executable, "-m", "shengji", "serve"]
        cmd += ["--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--data-dir", data_dir]
        if database_url:
            cmd += ["--database-url", database_url]
        out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the child owns it
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=out, cwd=str(root))
        pinned = pin(proc.pid, cpus) or bool(cpus and launcher(cpus, 0))
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server from {src} exited with {proc.returncode}")
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    return cls(proc, base, pinned)
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        proc.kill()
        raise RuntimeError(f"server from {src} did not start")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu_seconds(self) -> float:
        """User + system CPU seconds of the server process so far (all its threads)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime

    def wait_seconds(self) -> float:
        """Seconds the server's threads have spent runnable but waiting for a CPU (the
        scheduler's run-queue delay, ``/proc/<pid>/task/*/schedstat``): on a shared machine,
        how much the other processes held it back."""
        total = 0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                total += int((task / "schedstat").read_text().split()[1])
            except (OSError, IndexError, ValueError):
                continue
        return total / 1e9

    def rss_bytes(self) -> int:
        """Resident memory of the server process now."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0

    def actions_total(self) -> float:
        """The server's ``shengji_actions_total`` counter (game actions applied)."""
        text = httpx.get(f"{self.base}/metrics", timeout=30).text
        for line in text.splitlines():
            if line.startswith("shengji_actions_total "):
                return float(line.split()[1])
        return float("nan")

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
