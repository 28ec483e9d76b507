"""Cluster load (issue 16): tables held at p99 < 100 ms with 1, 2 and 3 ``shengji serve``
processes on this machine, sharing one PostgreSQL database and one Redis.

Each table's room is created on one process (round robin); its creator (seat 0) plays
through that process and seats 1–3 through the *other* processes, so with two or more
processes three sockets in four are routed through Redis to the room's owner. Every seat is
a WebSocket client playing hinted actions (``seat_client`` below); latency is from
sending ``act`` to receiving the ``update`` that carries it (the durable write and, for a
routed seat, two trips through Redis included). Each configuration runs at every count of
a ladder, the configurations in turn at each count (the load of a
shared machine drifts over all of them alike); the largest count below which every run kept
p99 < 100 ms is "held", and p50 is compared with one process at each count. The
``1 (no Redis)`` row is the single process as the README runs it (no routing at all).

    python bench/cluster_load.py --ladder 2,4,8 --seconds 20

Writes ``bench/results/cluster_load.json`` and ``bench/results/cluster_load.svg``. On a
small machine the clients, the servers, PostgreSQL and Redis share the same cores, and so
do other programs: the figures are a floor, noisy, and show the cost of routing more than
any gain from more processes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from load_server import free_port
from server_load import percentile

RESULTS = Path(__file__).resolve().parent / "results"
MIN_SAMPLES = 30
"""A run with fewer latency samples than this is run again once (then taken as it is)."""


def reset_database(admin_url: str, name: str, durable: bool) -> None:
    """Drop and create database ``name`` (a fresh one for every run); unless ``durable``,
    its commits are not waited for on disk (``synchronous_commit = off``), so the disk of a
    shared machine does not drown what is measured (routing)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(admin_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{name}"')
            if not durable:
                await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        finally:
            await conn.close()

    asyncio.run(run())


def start_instance(
    port: int, database_url: str, redis_url: str | None, prefix: str, name: str, pacing: float
) -> subprocess.Popen[bytes]:
    """One ``shengji serve``; returns once ``/healthz`` answers."""
    env = dict(os.environ)
    env.update(
        SHENGJI_DEAL_PACING_S=str(pacing),
        SHENGJI_BOT_DELAY_S="0",
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_RATE_PER_S="10000",
        SHENGJI_RATE_BURST="10000",
        SHENGJI_SEAT_GRACE_S="600",
        SHENGJI_SIGNUP_RATE="1000000/minute",
        SHENGJI_ROOM_RATE_PER_ADDRESS="1000000/minute",
        SHENGJI_REDIS_PREFIX=prefix,
        SHENGJI_INSTANCE_ID=name,
    )
    cmd = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--database-url", database_url, "--log-level", "warning"]
    if redis_url:
        cmd += ["--redis-url", redis_url]
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError(f"instance {name} did not start")


def make_tables(bases: list[str], n: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """N rooms, room i on process i % P; each seat's (base, token): seat 0 on the owner,
    seats 1–3 on the other processes in turn (all on the owner when P is 1)."""
    out = []
    clients = [httpx.Client(base_url=b, timeout=30) for b in bases]
    try:
        for i in range(n):
            owner = i % len(bases)
            others = [j for j in range(len(bases)) if j != owner] or [owner]
            where = [owner] + [others[(i + s) % len(others)] for s in range(3)]
            tokens = [
                clients[where[s]].post("/api/players", json={"name": f"b{i}-{s}"}).json()["token"]
                for s in range(4)
            ]
            code = clients[owner].post(
                "/api/rooms", json={}, headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()["code"]
            out.append((code, [(bases[where[s]], tokens[s]) for s in range(4)]))
    finally:
        for c in clients:
            c.close()
    return out


async def seat_client(
    ws_base: str, code: str, token: str, seat: int, stop_at: float, stats: dict[str, Any]
) -> None:
    """One seat: sit, ready, and play hinted actions until ``stop_at`` (pressing "next deal"
    as soon as a deal's summary comes)."""
    loop = asyncio.get_running_loop()
    async with connect(f"{ws_base}/ws/{code}", max_queue=None, max_size=None) as ws:
        await ws.send(json.dumps({"t": "hello", "v": 1, "token": token}))
        await ws.send(json.dumps({"t": "sit", "v": 1, "seat": seat}))
        await ws.send(json.dumps({"t": "ready", "v": 1}))
        sent_at: float | None = None
        lat: list[float] = stats["lat"]
        while True:
            left = stop_at - loop.time()
            if left <= 0:
                break
            try:
                raw = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            m = json.loads(raw)
            t = m["t"]
            if t == "update":
                now = loop.time()
                if seat == 0:
                    stats["updates"] += 1
                if sent_at is not None:
                    lat.append(now - sent_at)
                    sent_at = None
                if any(e["type"] == "deal_ended" for e in m["events"]):
                    await ws.send('{"t":"next_deal","v":2}')  # read the summary at once
                if m["to_act"] == seat and m["phase"] != "dealing":
                    await ws.send('{"t":"hint","v":1}')
            elif t == "hint" and m["action"]:
                sent_at = loop.time()
                stats["acts"] += 1
                await ws.send(json.dumps({"t": "act", "v": 1, "action": m["action"]}))
            elif t == "error":
                stats["errors"] += 1
            elif t == "room" and m["room"]["status"] == "waiting" and m["room"]["match_no"]:
                await ws.send(json.dumps({"t": "ready", "v": 1}))


async def seat(ws_base: str, code: str, token: str, n: int, stop_at: float,
               stats: dict[str, Any]) -> None:
    """One seat until ``stop_at``; a dropped socket (a server told to stop, a lost link:
    close codes 1012, 1013) reconnects, as the browser does, and is counted."""
    loop = asyncio.get_running_loop()
    while loop.time() < stop_at:
        try:
            await seat_client(ws_base, code, token, n, stop_at, stats)
        except (ConnectionClosed, OSError) as e:
            stats["drops"].append(getattr(getattr(e, "rcvd", None), "code", None))
            await asyncio.sleep(0.2)


def run_clients(tables: list[tuple[str, list[tuple[str, str]]]], seconds: float) -> Any:
    """Every seat of every table in this process until ``seconds`` have passed."""

    async def main() -> dict[str, Any]:
        stats: dict[str, Any] = {"lat": [], "updates": 0, "acts": 0, "errors": 0, "drops": []}
        stop_at = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(
            *(
                seat(base.replace("http://", "ws://"), code, tok, n, stop_at, stats)
                for code, seats in tables
                for n, (base, tok) in enumerate(seats)
            )
        )
        return stats

    return asyncio.run(main())


def run_one(
    procs: int, redis: bool, n: int, args: argparse.Namespace
) -> dict[str, Any]:
    """One run: ``procs`` fresh processes on a fresh database, ``n`` tables."""
    reset_database(args.admin_url, args.database, args.durable)
    database_url = f"postgresql+asyncpg://{args.db_user}@127.0.0.1:5432/{args.database}"
    prefix = f"route:bench:{secrets.token_hex(3)}:"
    ports = [free_port() for _ in range(procs)]
    servers: list[subprocess.Popen[bytes]] = []
    try:
        for i, port in enumerate(ports):
            servers.append(start_instance(port, database_url, args.redis_url if redis else None,
                                          prefix, f"i{i}", args.pacing))
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        tables = make_tables(bases, n)
        ps = [psutil.Process(s.pid) for s in servers]
        for p in ps:
            p.cpu_percent(None)
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        stats = run_clients(tables, args.seconds)
        elapsed = time.monotonic() - t0
        cpu = [p.cpu_percent(None) for p in ps]
    finally:
        for s in servers:
            s.send_signal(signal.SIGTERM)
        for s in servers:
            try:
                s.wait(15)
            except subprocess.TimeoutExpired:
                s.kill()
    lat = stats["lat"]
    routed = sum(1 for _, seats in tables for base, _ in seats[1:] if base != seats[0][0])
    return {
        "processes": procs,
        "redis": redis,
        "tables": n,
        "routed_sockets": routed,
        "sockets": 4 * n,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(stats["updates"] / elapsed, 1),
        "client_actions_per_s": round(stats["acts"] / elapsed, 1),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "samples": len(lat),
        "errors": stats["errors"],
        "drops": stats["drops"],
        "server_cpu_percent": [round(c, 1) for c in cpu],
        "load_before": round(load, 2),
    }


def chart(configs: list[dict[str, Any]]) -> str:
    """A small SVG: p99 against tables for each configuration, the 100 ms line, and the
    tables each one held."""
    w, h, left, top, pw, ph = 640, 300, 50, 30, 380, 220
    colours = ["#555555", "#1f77b4", "#2ca02c", "#d62728"]
    most = max(r["tables"] for c in configs for r in c["runs"]) or 1
    cap = 400.0

    def x(t: float) -> float:
        return left + pw * t / most

    def y(ms: float) -> float:
        return top + ph - ph * min(ms, cap) / cap

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'font-family="sans-serif" font-size="11">',
        f'<text x="{left}" y="16" font-size="13">cluster_load: p99 action latency (ms) '
        f"against tables</text>",
        f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#000"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#000"/>',
        f'<line x1="{left}" y1="{y(100):.1f}" x2="{left + pw}" y2="{y(100):.1f}" '
        f'stroke="#999" stroke-dasharray="4 3"/>',
        f'<text x="{left + pw + 4}" y="{y(100) + 4:.1f}" fill="#666">100 ms</text>',
    ]
    for ms in (0, 100, 200, 300, 400):
        parts.append(f'<text x="{left - 6}" y="{y(ms) + 4:.1f}" text-anchor="end">{ms}</text>')
    ticks = sorted({r["tables"] for c in configs for r in c["runs"]})
    for t in ticks:
        parts.append(f'<text x="{x(t):.1f}" y="{top + ph + 14}" text-anchor="middle">{t}</text>')
    parts.append(f'<text x="{left + pw / 2}" y="{top + ph + 28}" text-anchor="middle">'
                 "tables (4 WebSocket seats each)</text>")
    for i, c in enumerate(configs):
        colour = colours[i % len(colours)]
        pts = " ".join(f"{x(r['tables']):.1f},{y(r['p99_ms']):.1f}" for r in c["runs"])
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                     'stroke-width="2"/>')
        for r in c["runs"]:
            parts.append(f'<circle cx="{x(r["tables"]):.1f}" cy="{y(r["p99_ms"]):.1f}" r="3" '
                         f'fill="{colour}"/>')
        ly = top + 14 + 18 * i
        parts.append(f'<rect x="{left + pw + 50}" y="{ly - 9}" width="10" height="10" '
                     f'fill="{colour}"/>')
        parts.append(f'<text x="{left + pw + 64}" y="{ly}">{c["label"]}: held '
                     f'{c["held"]}</text>')
    parts.append(f'<text x="{left + pw + 50}" y="{top + 14 + 18 * len(configs) + 10}" '
                 'fill="#666">p99 above 400 ms drawn at 400</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def save(configs: list[dict[str, Any]], ladder: list[int], args: argparse.Namespace,
         final: bool = False) -> None:
    """Work out what each configuration held and write the JSON and the chart (after every
    run, so a run cut short keeps what it measured); ``final``: print the summary too."""
    for c in configs:  # held: the largest count below which every run kept p99 < 100 ms
        c["held"] = 0
        for r in c["runs"]:
            if not r["p99_ms"] < 100:
                break
            c["held"] = r["tables"]
    base = next((c for c in configs if c["redis"] and c["processes"] == 1), None)
    for c in configs:
        c["ratio_held_to_1_with_redis"] = (
            round(c["held"] / base["held"], 2) if base and base["held"] else None
        )
        c["p50_ratio_to_1_with_redis"] = [
            round(r["p50_ms"] / b["p50_ms"], 2) if base and b["p50_ms"] else None
            for r, b in zip(c["runs"], base["runs"] if base else c["runs"], strict=False)
        ]
        if final:
            print(f"{c['label']:>14}: held {c['held']} tables at p99 < 100 ms (ratio to 1 "
                  f"process with Redis: {c['ratio_held_to_1_with_redis']}); p50 against 1 "
                  f"process with Redis at each count: {c['p50_ratio_to_1_with_redis']}")
    doc = {
        "bench": "cluster_load",
        "cpus": os.cpu_count(),
        "seconds": args.seconds,
        "pacing_s": args.pacing,
        "synchronous_commit": "on" if args.durable else "off",
        "ladder": ladder,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "complete": final,
        "configs": configs,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(doc, indent=1) + "\n")
    out.with_suffix(".svg").write_text(chart(configs))
    if final:
        print(f"saved {out.with_suffix('.json')} and {out.with_suffix('.svg')}")


def main(argv: list[str] | None = None) -> int:
    """Climb the ladder for each configuration; print, then save JSON and the chart."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ladder", default="2,4,8", help="table counts, in order")
    ap.add_argument("--processes", default="1,2,3", help="process counts (with Redis)")
    ap.add_argument("--no-baseline", action="store_true", help="skip 1 process without Redis")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--pacing", type=float, default=0.01, help="server seconds per dealt card")
    ap.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--admin-url", default="postgresql://root@127.0.0.1:5432/postgres",
                    help="PostgreSQL to drop and create the bench database in")
    ap.add_argument("--database", default="sj_route", help="the bench database (dropped!)")
    ap.add_argument("--db-user", default="root")
    ap.add_argument("--durable", action="store_true",
                    help="keep synchronous_commit on (commits wait for the disk)")
    ap.add_argument("--out", default=str(RESULTS / "cluster_load"))
    args = ap.parse_args(argv)
    ladder = [int(t) for t in args.ladder.split(",")]
    plan = [] if args.no_baseline else [("1 (no Redis)", 1, False)]
    plan += [(f"{p} with Redis", p, True) for p in (int(x) for x in args.processes.split(","))]
    print(f"cpus={os.cpu_count()} seconds={args.seconds} pacing={args.pacing}s "
          f"load={os.getloadavg()[0]:.2f}", flush=True)
    configs: list[dict[str, Any]] = [
        {"label": label, "processes": procs, "redis": redis, "held": 0, "runs": []}
        for label, procs, redis in plan
    ]
    for n in ladder:  # every configuration at each count in turn: the machine's load
        for c in configs:  # drifts, and then drifts over all of them alike
            label = c["label"]
            r = run_one(c["processes"], c["redis"], n, args)
            if r["samples"] < MIN_SAMPLES:  # a stalled start on a busy machine: once more
                print(f"{label:>14}  N={n:3d}  only {r['samples']} samples: again", flush=True)
                r = run_one(c["processes"], c["redis"], n, args)
            c["runs"].append(r)
            save(configs, ladder, args)
            print(f"{label:>14}  N={n:3d}  routed={r['routed_sockets']:3d}/{r['sockets']:3d}  "
                  f"actions/s={r['actions_per_s']:7.1f}  p50={r['p50_ms']:7.2f} ms  "
                  f"p99={r['p99_ms']:8.2f} ms  samples={r['samples']:5d}  "
                  f"errors={r['errors']}  drops={r['drops']}  cpu={r['server_cpu_percent']}  "
                  f"load={r['load_before']}", flush=True)
    save(configs, ladder, args, final=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
