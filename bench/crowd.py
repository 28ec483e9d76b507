"""A crowd arriving at one room, and what it costs another table (issue 11's probe: 400
guests in one room cut an unrelated table from 130 to 4.5 updates/s).

    python bench/crowd.py --guests 400,1000
    python bench/crowd.py --guests 1000 --env SHENGJI_MAX_SPECTATORS=100000 \\
        --env SHENGJI_PRESENCE_INTERVAL_S=0       # no cap, presence per join (as before)

A ``shengji serve`` process (fresh SQLite data dir per run) holds room A, empty, and
room B, four random bots playing (``--bot-delay`` s per move, a watcher connected). The
guests sign up first; then all of them open a WebSocket to room A at once and say hello.
Reported per run: room B's actions/s (the server's ``shengji_actions_total``; room A plays
nothing) over ``--window`` s before the crowd, while it arrives and ``--window`` s after;
how long the arrival took; what the guests were answered (``welcome``, ``error:room-full``
…) and any that failed; ``/healthz`` and its latency after. The clients share the machine
with the server: on a loaded machine the figures are noisy (the load average is recorded).

Results: ``bench/results/crowd.json`` (one entry per run, appended by ``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _actions(h: httpx.AsyncClient) -> float:
    text = (await h.get("/metrics")).text
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("shengji_actions_total")
    )


async def _watch(url: str, token: str) -> None:
    """Stay connected to room B, reading everything (a bots-only room plays for it)."""
    async with websockets.connect(url, max_queue=None, max_size=None) as ws:
        await ws.send(json.dumps({"t": "hello", "v": 2, "token": token}))
        async for _ in ws:
            pass


async def _guest(url: str, token: str, outcome: dict[str, int], kept: list[Any]) -> None:
    ws = await websockets.connect(url, max_queue=None, max_size=None, open_timeout=120)
    kept.append(ws)
    await ws.send(json.dumps({"t": "hello", "v": 2, "token": token}))
    first = json.loads(await asyncio.wait_for(ws.recv(), 120))
    kind = first["t"] if first["t"] != "error" else f"error:{first['code']}"
    outcome[kind] = outcome.get(kind, 0) + 1

    async def drain() -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:
                pass

    kept.append(asyncio.create_task(drain()))


async def run(guests: int, env: dict[str, str], bot_delay: float, window: float) -> dict[str, Any]:
    data, port = tempfile.mkdtemp(prefix="crowd-"), _free_port()
    base = f"http://127.0.0.1:{port}"
    server_env = dict(
        os.environ,
        PYTHONPATH=str(ROOT / "src"),
        SHENGJI_DEAL_PACING_S="0",
        SHENGJI_BOT_DELAY_S=str(bot_delay),
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_NEXT_DEAL_S="0",
        SHENGJI_SIGNUP_RATE="1000000/minute",
        **env,
    )
    cmd = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--data-dir", data, "--log-level", "warning"]
    proc = subprocess.Popen(cmd, env=server_env, stdout=subprocess.DEVNULL)
    kept: list[Any] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120) as h:
            for _ in range(600):
                try:
                    if (await h.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            ann = (await h.post("/api/players", json={"name": "ann"})).json()
            auth = {"Authorization": f"Bearer {ann['token']}"}
            room_a = (await h.post("/api/rooms", json={}, headers=auth)).json()
            bots = {str(i): "random" for i in range(4)}
            room_b = (await h.post("/api/rooms", json={"bots": bots}, headers=auth)).json()
            tokens: list[str] = []
            for i in range(0, guests, 50):
                batch = [h.post("/api/players", json={"name": f"g{j}"})
                         for j in range(i, min(guests, i + 50))]
                tokens += [r.json()["token"] for r in await asyncio.gather(*batch)]
            ws_base = base.replace("http://", "ws://")
            watcher = asyncio.create_task(_watch(f"{ws_base}/ws/{room_b['code']}", ann["token"]))
            await asyncio.sleep(2.0)
            marks = [(time.monotonic(), await _actions(h))]
            await asyncio.sleep(window)
            marks.append((time.monotonic(), await _actions(h)))
            outcome: dict[str, int] = {}
            url_a = f"{ws_base}/ws/{room_a['code']}"
            done = await asyncio.gather(
                *[_guest(url_a, t, outcome, kept) for t in tokens], return_exceptions=True
            )
            marks.append((time.monotonic(), await _actions(h)))
            await asyncio.sleep(window)
            marks.append((time.monotonic(), await _actions(h)))
            t0 = time.monotonic()
            health = await h.get("/healthz")
            health_s = time.monotonic() - t0
            watcher.cancel()

        def rate(i: int) -> float:
            (ta, a), (tb, b) = marks[i], marks[i + 1]
            return round((b - a) / (tb - ta), 1)

        failed = [repr(x)[:120] for x in done if isinstance(x, BaseException)]
        return {
            "guests": guests,
            "env": env,
            "bot_delay_s": bot_delay,
            "b_actions_per_s": {"before": rate(0), "arriving": rate(1), "after": rate(2)},
            "arrival_s": round(marks[2][0] - marks[1][0], 2),
            "answers": outcome,
            "failed": len(failed),
            "failures": failed[:3],
            "healthz": health.status_code,
            "healthz_s": round(health_s, 3),
            "load_average": os.getloadavg(),
        }
    finally:
        for x in kept:
            if isinstance(x, asyncio.Task):
                x.cancel()
            else:
                with contextlib.suppress(Exception):
                    await x.close()
        proc.terminate()
        proc.wait(60)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--guests", default="400", help="comma-separated crowd sizes")
    p.add_argument("--env", action="append", default=[], help="KEY=VALUE for the server")
    p.add_argument("--bot-delay", type=float, default=0.02, help="room B's bot delay (s)")
    p.add_argument("--window", type=float, default=6.0, help="seconds measured before/after")
    p.add_argument("--out", type=Path, default=None, help="append the results to this JSON")
    a = p.parse_args()
    env = dict(kv.split("=", 1) for kv in a.env)
    results = []
    for n in (int(x) for x in a.guests.split(",")):
        r = asyncio.run(run(n, env, a.bot_delay, a.window))
        print(json.dumps(r), flush=True)
        results.append(r)
    if a.out is not None:
        old = json.loads(a.out.read_text()) if a.out.exists() else []
        a.out.write_text(json.dumps(old + results, indent=1) + "\n")


if __name__ == "__main__":
    main()
