"""Load test of the multiplayer server: N tables of four bot-driven WebSocket clients.

Starts ``shengji serve`` as a subprocess on 127.0.0.1 (a fresh SQLite data dir per run),
opens N tables whose four seats are WebSocket clients that play by asking the server for a
hint (a random legal action) and sending it, plays for a fixed time, and prints actions/s,
p50/p99 action-to-broadcast latency (from sending ``act`` to receiving the ``update`` that
carries it, so it includes the database commit) and the server's CPU and memory.

    python bench/server_load.py --tables 10,50,100 --seconds 20

The clients run in ``--procs`` processes (default 1) on the same machine, so on a small
machine they compete with the server for CPU: the figures are a floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(data_dir: str, port: int, pacing: float) -> subprocess.Popen[bytes]:
    """``shengji serve`` on loopback; returns once /healthz answers."""
    env = dict(os.environ)
    env.update(
        SHENGJI_DEAL_PACING_S=str(pacing),
        SHENGJI_BOT_DELAY_S="0",
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_RATE_PER_S="10000",
        SHENGJI_RATE_BURST="10000",
        SHENGJI_SEAT_GRACE_S="600",
        # every guest and room comes from loopback: lift the per-address quotas
        SHENGJI_SIGNUP_RATE="1000000/minute",
        SHENGJI_ROOM_RATE_PER_ADDRESS="1000000/minute",
    )
    cmd = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--data-dir", data_dir, "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def make_tables(base: str, n: int) -> list[tuple[str, list[str]]]:
    """N rooms, each with four guest tokens."""
    out = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for i in range(n):
            tokens = [
                http.post("/api/players", json={"name": f"b{i}-{s}"}).json()["token"]
                for s in range(4)
            ]
            code = http.post(
                "/api/rooms", json={}, headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()["code"]
            out.append((code, tokens))
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


def run_clients(ws_base: str, tables: list[tuple[str, list[str]]], seconds: float) -> Any:
    """All seats of ``tables`` in one process; returns latencies and counts."""

    async def main() -> dict[str, Any]:
        stats: dict[str, Any] = {"lat": [], "updates": 0, "acts": 0, "errors": 0}
        stop_at = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(
            *(
                seat_client(ws_base, code, tok, seat, stop_at, stats)
                for code, toks in tables
                for seat, tok in enumerate(toks)
            )
        )
        return stats

    return asyncio.run(main())


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of xs."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def run_one(n: int, seconds: float, pacing: float, procs: int) -> dict[str, Any]:
    """One load run with ``n`` tables on a fresh server."""
    with tempfile.TemporaryDirectory() as data_dir:
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(data_dir, port, pacing)
        try:
            ps = psutil.Process(server.pid)
            tables = make_tables(base, n)
            ps.cpu_percent(None)
            chunks = [tables[i::procs] for i in range(procs)]
            ws_base = base.replace("http://", "ws://")
            t0 = time.monotonic()
            with multiprocessing.Pool(procs) as pool:
                parts = pool.starmap(run_clients, [(ws_base, c, seconds) for c in chunks if c])
            elapsed = time.monotonic() - t0
            cpu = ps.cpu_percent(None)
            rss = ps.memory_info().rss / 2**20
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    lat = [x for p in parts for x in p["lat"]]
    return {
        "tables": n,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(sum(p["updates"] for p in parts) / elapsed, 1),
        "client_actions_per_s": round(sum(p["acts"] for p in parts) / elapsed, 1),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "errors": sum(p["errors"] for p in parts),
        "server_cpu_percent": round(cpu, 1),
        "server_rss_mib": round(rss, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the load for each table count and report the largest with p99 < 100 ms."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="10,50,100", help="comma-separated table counts")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--pacing", type=float, default=0.05, help="server seconds per dealt card")
    ap.add_argument("--procs", type=int, default=1, help="client processes")
    ap.add_argument("--json", action="store_true", help="one JSON object per run")
    args = ap.parse_args(argv)
    best = None
    print(f"cpus={os.cpu_count()} pacing={args.pacing}s seconds={args.seconds}")
    for n in (int(x) for x in args.tables.split(",")):
        r = run_one(n, args.seconds, args.pacing, args.procs)
        if args.json:
            print(json.dumps(r))
        else:
            print(
                f"N={r['tables']:4d}  actions/s={r['actions_per_s']:8.1f}  "
                f"client acts/s={r['client_actions_per_s']:7.1f}  p50={r['p50_ms']:7.2f} ms  "
                f"p99={r['p99_ms']:8.2f} ms  errors={r['errors']}  "
                f"server cpu={r['server_cpu_percent']:5.1f}%  rss={r['server_rss_mib']:.0f} MiB",
                flush=True,
            )
        if r["p99_ms"] < 100:
            best = n
    print(f"largest N with p99 < 100 ms: {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
