"""The socket floor: what one game action costs the server when the game costs nothing.

``bench/server_load.py`` measures the whole server; this bench measures the part of it no
game logic can remove: uvicorn with the server's own WebSocket protocol
(``server/live/ws_protocol.py``, reading and ``send_now``) and an app that does nothing but the
I/O of an action. A table is five sockets (four seats and a spectator); when the seat whose
turn it is sends its action, the app encodes one message per socket (``--bytes`` of JSON,
about the size of a seat's real ``update``) and writes each at once with ``send_now``.
With ``--commit`` (the second configuration of each run) it first commits a row per action
to SQLite in a writer thread, grouped as the server's log writer groups them
(``server/store/group_commit.py``), and sends only once the row is durable: the shell's floor,
persist-before-send included.

The clients (``websockets``, in this process, pinned to the other core) act as
``server_load.py``'s do: at the bench's pace a seat acts as soon as all five sockets hold
the previous message; at human pace (``--human``) it first thinks 2–4 s. Per point it
prints actions/s, latency from an action to all five sockets holding its message (p50/p99)
and the server's CPU per action (µs, ``/proc/<pid>/stat``), and saves
``bench/results/<name>.json``.

    python bench/io_floor.py                              # 100 and 200 tables, bench pace
    python bench/io_floor.py --tables 1500 --human        # human pace

What it says: the server's CPU per action can only approach this floor; a target below it
needs sockets handled outside Python (docs/deploy.md, "The socket floor").
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

if not __package__:  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_server import free_port, pin, raise_open_files

from shengji.server.live.ws_layer import http_protocol
from shengji.server.live.ws_protocol import WebSocketProtocol, send_now_of
from shengji.server.loop_nap import loop_factory

RESULTS = Path(__file__).resolve().parent / "results"
SOCKETS = 5
"""Per table: four seats and a spectator (socket 4, which never acts)."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------ the server side


class Writer:
    """Rows committed to SQLite in one thread, grouped: whatever waits when a commit starts
    goes in it, and at least ``gap_s`` separates two commits' starts (as the log writer)."""

    def __init__(self, path: str, gap_s: float) -> None:
        self.gap_s = gap_s
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS log (room INT, seq INT, body TEXT)")
        self.pending: list[tuple[tuple[int, int, str], asyncio.Future[None]]] = []
        self.ready = asyncio.Event()

    def write(self, row: tuple[int, int, str]) -> asyncio.Future[None]:
        fut = asyncio.get_running_loop().create_future()
        self.pending.append((row, fut))
        self.ready.set()
        return fut

    def _commit(self, rows: list[tuple[int, int, str]]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        self.db.executemany("INSERT INTO log VALUES (?, ?, ?)", rows)
        self.db.execute("COMMIT")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        started = -1.0
        while True:
            if not self.pending:
                self.ready.clear()
                await self.ready.wait()
                continue
            wait = started + self.gap_s - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            started = loop.time()
            group, self.pending = self.pending, []
            await loop.run_in_executor(self.pool, self._commit, [r for r, _ in group])
            for _, fut in group:
                fut.set_result(None)


class FloorApp:
    """An ASGI app of tables: ``/ws/<table>.<socket>`` (a room socket's path, so picows
    serves it where it is the layer); an action fans out to the table."""

    def __init__(self, size: int, writer: Writer | None) -> None:
        self.pad = "x" * size
        self.writer = writer
        self.tables: dict[int, list[Any]] = {}
        self.seqs: dict[int, int] = {}
        self.actions = 0
        self.refused = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] == "http":  # the bench's counter
            body = json.dumps({"actions": self.actions, "refused": self.refused}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        table_s, _, sock_s = scope["path"].rsplit("/", 1)[1].partition(".")
        table, sock = int(table_s), int(sock_s)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        sends = self.tables.setdefault(table, [None] * SOCKETS)
        sends[sock] = send_now_of(scope)
        while True:
            msg = await receive()
            if msg["type"] != "websocket.receive":
                return
            await self.act(table, msg.get("text") or "")

    async def act(self, table: int, text: str) -> None:
        seq = self.seqs.get(table, 0) + 1
        self.seqs[table] = seq
        if self.writer is not None:
            await self.writer.write((table, seq, text))
        self.actions += 1
        turn = seq % 4
        for sock, send_now in enumerate(self.tables[table]):
            data = msgspec.json.encode({"seq": seq, "turn": turn, "you": sock, "pad": self.pad})
            if send_now is None or not send_now(data):
                self.refused += 1  # closing, or its buffer full: counted, not waited for


def serve(port: int, size: int, commit: bool, db: str, gap_s: float, ping_s: float,
          keepalive: str, tick: float, layer: str = "uvicorn") -> None:
    """Run the floor server (a child process) until killed."""
    if keepalive == "all":  # uvicorn's own: every socket pinged every interval
        base = WebSocketProtocol.__mro__[1]
        WebSocketProtocol.send_keepalive_ping = base.send_keepalive_ping  # type: ignore
    if keepalive == "off":
        ping_s = 0.0
    async def main() -> None:
        writer = Writer(db, gap_s) if commit else None
        if writer is not None:
            asyncio.get_running_loop().create_task(writer.run())
        config = uvicorn.Config(
            FloorApp(size, writer), host="127.0.0.1", port=port, ws=WebSocketProtocol,
            http=http_protocol("picows" if layer == "picows" else "uvicorn"),
            log_level="warning", ws_per_message_deflate=False, backlog=4096,
            ws_ping_interval=ping_s or None, ws_ping_timeout=ping_s or None,
        )
        await uvicorn.Server(config).serve()

    # tick > 0: the server's coalesced wake-ups (server/loop_nap.py, setting loop_nap_ms)
    with asyncio.Runner(loop_factory=loop_factory(tick * 1000)) as runner:
        runner.run(main())


# ------------------------------------------------------------------ the client side


class Table:
    """One table's five sockets and its timing."""

    def __init__(self, n: int, think: tuple[float, float] | None, rng: random.Random) -> None:
        self.n = n
        self.think = think
        self.rng = rng
        self.socks: list[ClientConnection] = []
        self.got = 0
        self.sent_at = 0.0
        self.latencies: list[float] = []
        self.closed = False

    async def act(self, turn: int) -> None:
        if self.think is not None:
            await asyncio.sleep(self.rng.uniform(*self.think))
        if self.closed:
            return
        self.got = 0
        self.sent_at = time.perf_counter()
        await self.socks[turn].send("act")

    async def listen(self, sock: int) -> None:
        async for raw in self.socks[sock]:
            msg = json.loads(raw)
            self.got += 1
            if self.got == SOCKETS:
                self.latencies.append(time.perf_counter() - self.sent_at)
                # all five hold it: the seat whose turn it is acts (after thinking)
                asyncio.get_running_loop().create_task(self.act(msg["turn"]))


async def run_point(port: int, tables: int, think: tuple[float, float] | None,
                    warm_s: float, window_s: float, pid: int) -> dict[str, Any]:
    rng = random.Random(tables)
    ts = [Table(i, think, rng) for i in range(tables)]
    for t in ts:
        for s in range(SOCKETS):
            t.socks.append(await connect(
                f"ws://127.0.0.1:{port}/ws/{t.n}.{s}", compression=None, ping_interval=None,
                max_queue=None, open_timeout=60,
            ))
    listeners = [asyncio.create_task(t.listen(s)) for t in ts for s in range(SOCKETS)]
    for t in ts:
        asyncio.get_running_loop().call_later(
            rng.uniform(*(think or (0.0, 0.2))), lambda t=t: asyncio.create_task(t.act(0))
        )
    await asyncio.sleep(warm_s)
    for t in ts:
        t.latencies.clear()
    cpu0, wall0, c0 = _cpu(pid), time.perf_counter(), await _counts(port)
    await asyncio.sleep(window_s)
    cpu1, wall1, c1 = _cpu(pid), time.perf_counter(), await _counts(port)
    for task in listeners:
        task.cancel()
    for t in ts:
        t.closed = True
        for sock in t.socks:
            await sock.close()
    lat = sorted(x for t in ts for x in t.latencies)
    actions = max(1, c1["actions"] - c0["actions"])
    return {
        "tables": tables,
        "pace": "human" if think else "bench",
        "actions_per_s": round(actions / (wall1 - wall0), 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 2) if lat else None,
        "p99_ms": round(1000 * lat[int(0.99 * len(lat))], 2) if lat else None,
        "server_cpu_us_per_action": round(1e6 * (cpu1 - cpu0) / actions, 1),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / (wall1 - wall0), 1),
        "refused_sends": c1["refused"] - c0["refused"],
    }


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


async def _counts(port: int) -> dict[str, int]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /count HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    body = (await reader.read()).split(b"\r\n\r\n", 1)[1]
    writer.close()
    counts: dict[str, int] = json.loads(body)
    return counts


def measure(args: argparse.Namespace, tables: int, keepalive: str, commit: bool,
            db: str, layer: str = "uvicorn") -> dict[str, Any]:
    """One point: a fresh floor server pinned to core 0, the clients here on core 1."""
    port = free_port()
    cmd = [sys.executable, __file__, "--serve", str(port), "--bytes", str(args.bytes),
           "--gap", str(args.gap), "--ping", str(args.ping), "--keepalive", keepalive,
           "--tick-ms", str(args.tick_ms), "--db", db, "--layer", layer,
           *(["--commit"] if commit else [])]
    proc = subprocess.Popen(cmd)
    pin(proc.pid, {0})
    think = (2.0, 4.0) if args.human else None
    try:
        for _ in range(100):
            try:
                asyncio.run(_counts(port))
                break
            except OSError:
                time.sleep(0.1)
        point = asyncio.run(run_point(port, tables, think, args.warm, args.seconds, proc.pid))
    finally:
        proc.terminate()
        proc.wait()
    return {**point, "commit": commit, "bytes": args.bytes, "ping_s": args.ping,
            "keepalive": keepalive, "tick_ms": args.tick_ms, "layer": layer}


def _summary(points: list[dict[str, Any]]) -> None:
    """Medians per configuration (tables, pace, commit, layer) over the repeats."""
    groups: dict[tuple[Any, ...], list[float]] = {}
    for p in points:
        key = (p["tables"], p["pace"], p["commit"], p["keepalive"], p["layer"])
        groups.setdefault(key, []).append(p["server_cpu_us_per_action"])
    for (n, pace, commit, keepalive, layer), cpu in groups.items():
        print(f"  median of {len(cpu)}: {layer:>7} {'+commit' if commit else '':>7} "
              f"{keepalive:>6} {pace:>5} N={n:5}  cpu/act={statistics.median(cpu):6.0f} us")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", default="100,200", help="table counts, comma-separated")
    ap.add_argument("--human", action="store_true", help="seats think 2-4 s per action")
    ap.add_argument("--bytes", type=int, default=1800, help="each socket's message size")
    ap.add_argument("--warm", type=float, default=5.0)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--gap", type=float, default=0.004, help="s between commits' starts")
    ap.add_argument("--ping", type=float, default=20.0,
                    help="s between keepalive pings per socket (uvicorn's and the server's "
                         "default: 20); 0: none")
    ap.add_argument("--keepalive", default="silent",
                    help="comma-separated: silent (ours: ping sockets silent for an interval), "
                         "all (uvicorn's: ping every socket), off")
    ap.add_argument("--tick-ms", type=float, default=0.0,
                    help="the server naps this long before each select that would block, "
                         "so that wake-ups coalesce (server/loop_nap.py; 0: asyncio's own)")
    ap.add_argument("--layer", default="uvicorn,picows",
                    help="comma-separated WebSocket layers (server/ws_layer.py), alternated "
                         "at each point: uvicorn (its sans-I/O protocol), picows")
    ap.add_argument("--commit-too", default="yes", choices=("yes", "no"),
                    help="also measure each point with the commit (default yes)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure each configuration this many times, alternated")
    ap.add_argument("--name", default="io_floor")
    ap.add_argument("--out", default=str(RESULTS))
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--commit", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--db", help=argparse.SUPPRESS)
    args = ap.parse_args()
    raise_open_files()
    if args.serve:
        serve(args.serve, args.bytes, args.commit, args.db, args.gap, args.ping, args.keepalive,
              args.tick_ms / 1000, args.layer)
        return
    pin(os.getpid(), {1})
    points = []
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as d:
        commits = (False, True) if args.commit_too == "yes" else (False,)
        runs = itertools.product(
            [int(x) for x in args.tables.split(",")], range(args.repeat), commits,
            args.keepalive.split(","), args.layer.split(","),
        )
        for n, _, commit, keepalive, layer in runs:  # the layers alternate, point by point
            point = measure(args, n, keepalive, commit, f"{d}/log-{len(points)}.db", layer)
            points.append(point)
            print(f"  {layer:>7} {'sockets+commit' if commit else 'sockets':>14} "
                  f"{keepalive:>6} {point['pace']:>5} N={n:5}  "
                  f"act/s={point['actions_per_s']:8.1f}  "
                  f"p50={point['p50_ms']} ms  p99={point['p99_ms']} ms  "
                  f"cpu/act={point['server_cpu_us_per_action']:6.0f} us  "
                  f"srv={point['server_cpu_percent']}%  refused={point['refused_sends']}",
                  flush=True)
    _summary(points)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.name}.json").write_text(json.dumps({
        "machine": {"cpus": os.cpu_count(), "load_avg": os.getloadavg(),
                    "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        "points": points,
    }, indent=1))


if __name__ == "__main__":
    main()
