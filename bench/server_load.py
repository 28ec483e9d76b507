"""Load test of the multiplayer server: N tables of scripted WebSocket clients against a
server in its own process, pinned to one core, with the clients on the other cores.

    python bench/server_load.py --tables 10,50,100,200,400 --human
    python bench/server_load.py --server before=/work/wt-before --server after=. --tables 50,200

Each ``--server LABEL=PATH`` is a source tree run as ``python -m shengji serve`` with
``PYTHONPATH=PATH/src`` (default: this checkout), so BEFORE and AFTER run in one session,
interleaved table count by table count. A table is four scripted seats and a spectator
(``bench/load_clients.py``); the server gets a fresh SQLite data dir per point (or
``--database-url``; its tables are dropped between points).

Two paces:

- **the bench's pace** (``--tables``): a seat acts as soon as it is its turn; deals are
  dealt at ``--pacing`` s per card. The server is as busy as the clients can make it.
- **human pace** (``--human``): a seat thinks 2–4 s (``--think``) before each action;
  deals at the server's default pace. Starting at ``--human-start`` tables it doubles the
  count until p99 passes ``--target-ms`` (or ``--human-max``), then bisects: the largest
  count that passed is what one core holds.

Per point it reports: actions/s (the server's ``shengji_actions_total``, dealt cards
included), p50/p99 latency from a seat's ``act`` to the moment all five clients of the
table hold the ``update`` carrying it, server CPU per applied action (µs, from
``/proc/<pid>/stat`` over the measuring window), server CPU %, RSS per table (the server's
RSS growth since it started, ÷ tables) and the clients' own CPU % and event-loop lag: a
point where the client core is saturated (lag p99 > ``--client-lag-ms``) measures the
clients, not the server, and is marked ``client_bound``.

With ``--floor uvicorn,picows`` each point also measures the socket floor
(``bench/io_floor.py``: the same tables, pace and message size, sockets and their commit
only, on each WebSocket layer), so the floor and the whole server stand side by side in the
output and in ``--summary``; repeat a count in ``--tables`` to alternate the servers more
than once (the summary gives medians).

Results go to ``bench/results/<name>.json`` and ``<name>.svg`` (p99 and CPU per action
against tables, one line per server). On a shared machine the figures are noisy: the load
average is recorded at each point.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

if not __package__:  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.load_chart import write_svg
from bench.load_server import (
    ServerProcess,
    launcher,
    own_autogroup,
    pin,
    raise_open_files,
)

from bench import io_floor

RESULTS = Path(__file__).resolve().parent / "results"
CLIENTS = Path(__file__).resolve().parent / "load_clients.py"
HERE = Path(__file__).resolve().parent.parent


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``xs`` (nan when empty).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
    3.0
    """
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def split_cpus(server_cpus: str | None) -> tuple[set[int] | None, set[int] | None]:
    """The cores for the server and for the clients: the server on one core (the first
    allowed, or ``--server-cpus``), the clients on the rest; nothing pinned on one core."""
    if not hasattr(os, "sched_getaffinity"):
        return None, None
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        return None, None
    server = {int(c) for c in server_cpus.split(",")} if server_cpus else {allowed[0]}
    clients = set(allowed) - server
    return server, clients or None


async def _make_tables(base: str, n: int, concurrency: int = 16) -> list[list[Any]]:
    """``n`` rooms owned by one guest, and five guests (four seats and a spectator) who
    sit at every table: ``[[code, [5 tokens]], ...]``."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        tokens = []
        for who in ("north", "east", "south", "west", "watcher"):
            r = await http.post("/api/players", json={"name": who})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        gate = asyncio.Semaphore(concurrency)
        auth = {"Authorization": f"Bearer {tokens[0]}"}

        async def room() -> str:
            async with gate:
                r = await http.post("/api/rooms", json={}, headers=auth)
                r.raise_for_status()
                code: str = r.json()["code"]
                return code

        codes = await asyncio.gather(*(room() for _ in range(n)))
    return [[code, tokens] for code in codes]


def _reset_database(url: str) -> None:
    """Empty the bench's own PostgreSQL database (``public`` dropped and made again), so each
    point starts fresh. Give the bench a database of its own."""
    import asyncpg

    async def reset() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
        finally:
            await conn.close()

    asyncio.run(reset())


def speaks_batch(ws_base: str, table: list[Any]) -> bool:
    """Whether the server takes ``batch: true`` in ``hello`` (frames of several messages,
    issue 15): the spectator of ``table`` asks once; an older server refuses the field."""
    from websockets.sync.client import connect

    code, tokens = table
    with connect(f"{ws_base}/ws/{code}", open_timeout=60) as ws:
        ws.send(json.dumps({"t": "hello", "v": 2, "token": tokens[4], "batch": True}))
        first = ws.recv(timeout=60)
    assert isinstance(first, str)
    return '"t":"welcome"' in first


def run_point(
    label: str, src: str, n: int, args: argparse.Namespace, *, human: bool
) -> dict[str, Any]:
    """One server, ``n`` tables, one measuring window: the figures of that point."""
    server_cpus, client_cpus = args.cpu_split
    pacing = args.human_pacing if human else args.pacing
    think = args.think if human else (0.0, 0.0)
    ramp = max(args.ramp, n / args.connect_rate) if human else max(1.0, n / args.connect_rate)
    warm = args.human_warm if human else args.warm
    seconds = args.human_seconds if human else args.seconds
    if args.database_url:
        _reset_database(args.database_url)
    with tempfile.TemporaryDirectory(prefix="sj-load-", dir=args.data_root) as data_dir:
        server = ServerProcess.start(
            src,
            data_dir,
            pacing=pacing,
            cpus=server_cpus,
            database_url=args.database_url,
            log=args.server_log,
            nice=args.nice,
            extra_env=args.server_env.get(label),
            gc_log=str(Path(data_dir) / "gc.log"),
        )
        clients: list[subprocess.Popen[str]] = []
        try:
            rss0 = server.rss_bytes()
            made = time.monotonic()
            tables = asyncio.run(_make_tables(server.base, n))
            made = time.monotonic() - made
            ws_base = server.base.replace("http://", "ws://")
            batch = speaks_batch(ws_base, tables[0]) if args.batch == "auto" else (
                args.batch == "on"
            )
            start = time.monotonic() + 1.0
            procs = max(1, min(max(args.client_procs, math.ceil(n / per_proc(args))), n))
            for i in range(procs):
                cfg = {
                    "ws_base": ws_base,
                    "tables": tables[i::procs],
                    "start": start,
                    "ramp_s": ramp,
                    "think": think,
                    "seed": i,
                    "start_timeout_s": args.start_timeout,
                    "batch": batch,
                    "protocol": args.protocol,
                }
                p = subprocess.Popen(
                    [*launcher(client_cpus, args.nice), sys.executable, str(CLIENTS)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    env={**os.environ, "PYTHONPATH": _client_path()},
                )
                assert p.stdin is not None
                p.stdin.write(json.dumps(cfg) + "\n")
                p.stdin.flush()
                clients.append(p)
            started = 0
            for p in clients:  # every table's first deal has begun (or the time is up)
                assert p.stdout is not None
                started += int(p.stdout.readline().split()[1])
            ready = time.monotonic() - start
            window = (time.monotonic() + warm, time.monotonic() + warm + seconds)
            for p in clients:
                assert p.stdin is not None
                p.stdin.write(f"{window[0]} {window[1]}\n")
                p.stdin.close()
            time.sleep(max(0.0, window[0] - time.monotonic()))
            cpu0, act0, t0 = server.cpu_seconds(), server.actions_total(), time.monotonic()
            wait0 = server.wait_seconds()
            load0 = os.getloadavg()[0]
            time.sleep(max(0.0, window[1] - time.monotonic()))
            cpu1, act1, t1 = server.cpu_seconds(), server.actions_total(), time.monotonic()
            wait1 = server.wait_seconds()
            rss1 = server.rss_bytes()
            gcs = _full_collections(Path(data_dir) / "gc.log", t0, t1)
            parts = []
            for p in clients:
                assert p.stdout is not None
                out = p.stdout.read()
                p.wait(timeout=60)
                parts.append(json.loads(out.strip().splitlines()[-1]))
        finally:
            for p in clients:
                if p.poll() is None:
                    p.kill()
            server.stop()
    elapsed = t1 - t0
    actions = act1 - act0
    cpu = cpu1 - cpu0
    lat = [x for p in parts for x in p["lat"]]
    first = [x for p in parts for x in p.get("first", [])]
    lag = [x for p in parts for x in p["lag"]]
    client_cpu = sum(p["cpu_s"] for p in parts)
    client_span = ready + 1 + warm + seconds + 2
    lag99 = percentile(lag, 0.99) * 1000
    codes: dict[str, int] = {}
    for p in parts:
        for k, v in p["error_codes"].items():
            codes[k] = codes.get(k, 0) + v
    return {
        "server": label,
        "src": src,
        "pace": "human" if human else "bench",
        "tables": n,
        "window_s": round(elapsed, 2),
        "started": started,
        "start_s": round(ready, 1),
        "actions": int(actions),
        "actions_per_s": round(actions / elapsed, 1),
        "client_actions": sum(p["acts_in_window"] for p in parts),
        "latency_samples": len(lat),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 2),
        "p90_ms": round(percentile(lat, 0.9) * 1000, 2),
        "first_p50_ms": round(percentile(first, 0.5) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "max_ms": round(max(lat) * 1000, 2) if lat else float("nan"),
        "server_cpu_us_per_action": round(cpu / actions * 1e6, 1) if actions else float("nan"),
        "server_cpu_percent": round(cpu / elapsed * 100, 1),
        # runnable but not running (other processes had the core): contention, not work
        "server_wait_percent": round((wait1 - wait0) / elapsed * 100, 1),
        # the tables that would fill one core at this load (CPU alone, no latency margin)
        "tables_per_core_by_cpu": round(n / (cpu / elapsed)) if cpu > 0 else None,
        "server_rss_mib": round(rss1 / 2**20, 1),
        "rss_per_table_kib": round((rss1 - rss0) / n / 1024, 1),
        "client_cpu_percent": round(client_cpu / client_span * 100, 1),
        "client_lag_p99_ms": round(lag99, 1),
        "client_lag_max_ms": round(1000 * max((p.get("lag_max", 0.0) for p in parts),
                                              default=0.0), 1),
        "client_full_gc": sum(p.get("full_gc", 0) for p in parts),
        "client_full_gc_max_ms": round(1000 * max((p.get("full_gc_max", 0.0) for p in parts),
                                                  default=0.0), 1),
        "client_bound": bool(lag99 > args.client_lag_ms),
        "client_choose_ms_max": max((p["choose_ms_max"] or 0.0) for p in parts),
        "full_gc": gcs["count"],
        "full_gc_max_ms": gcs["max_ms"],
        "full_gc_ms_total": gcs["total_ms"],
        "slow_actions": sorted(x for p in parts for x in p.get("slow", []))[:200],
        "errors": sum(p["errors"] for p in parts),
        "error_codes": codes,
        "fallbacks": sum(p["fallbacks"] for p in parts),
        "lost": sum(p["lost"] for p in parts),
        "disconnects": sum(p["disconnects"] for p in parts),
        "connected": sum(p["connected"] for p in parts),
        "server_pinned": server.pinned,
        "setup_s": round(made, 1),
        "load_avg_1m": round(load0, 2),
        "think_s": list(think),
        "batch": batch,
        "protocol": args.protocol,
        "pacing_s": pacing,
    }


def _full_collections(path: Path, t0: float, t1: float) -> dict[str, Any]:
    """The server's full garbage collections that began in [t0, t1) (bench/gc_probe)."""
    pauses = []
    if path.exists():
        for row in path.read_text().splitlines():
            start, took, _ = row.split()
            if t0 <= float(start) < t1:
                pauses.append(float(took) * 1000)
    return {
        "count": len(pauses),
        "max_ms": round(max(pauses), 1) if pauses else 0.0,
        "total_ms": round(sum(pauses), 1),
    }


def per_proc(args: argparse.Namespace) -> int:
    """Tables one client process may hold under the open-file limit (five sockets each)."""
    return max(1, (int(args.open_files) - 256) // 5)


def _client_path() -> str:
    """The clients use this checkout's engine (only to pick legal cards)."""
    return os.pathsep.join([str(HERE / "src"), str(HERE)])


def passes(r: dict[str, Any], target_ms: float) -> bool:
    """A human-pace point holds: p99 under target, every client connected, nothing lost."""
    return (
        r["p99_ms"] < target_ms
        and r["connected"] == 5 * r["tables"]
        and r["started"] == r["tables"]
        and r["disconnects"] == 0
        and r["lost"] <= max(1, r["latency_samples"] // 1000)
    )


def human_search(
    label: str, src: str, args: argparse.Namespace, show: Any
) -> tuple[int | None, list[dict[str, Any]]]:
    """Double from ``--human-start`` until a point fails (or halve until one holds), then
    bisect to within ``--human-step`` tables (or ``--human-step-frac`` of the count)."""
    points: list[dict[str, Any]] = []

    def probe(n: int) -> bool:
        r = run_point(label, src, n, args, human=True)
        points.append(r)
        show(r)
        return passes(r, args.target_ms)

    good: int | None = None
    bad: int | None = None
    n = args.human_start
    if probe(n):
        good = n
        while n < args.human_max:
            n = min(n * 2, args.human_max)
            if not probe(n):
                bad = n
                break
            good = n
    else:
        bad = n
        while n > 1:
            n //= 2
            if probe(n):
                good = n
                break
            bad = n
    if good is None or bad is None:
        return good, points
    while bad - good > max(args.human_step, good * args.human_step_frac):
        mid = (good + bad) // 2
        if probe(mid):
            good = mid
        else:
            bad = mid
    return good, points


def line(r: dict[str, Any]) -> str:
    """One point as a line of text."""
    flags = " CLIENT-BOUND" if r["client_bound"] else ""
    return (
        f"{r['server']:>8} {r['pace']:>5} N={r['tables']:5d}  act/s={r['actions_per_s']:7.1f}  "
        f"p50={r['p50_ms']:7.1f} ms  p99={r['p99_ms']:7.1f} ms  "
        f"cpu/act={r['server_cpu_us_per_action']:6.0f} us  srv={r['server_cpu_percent']:5.1f}% "
        f"(+{r.get('server_wait_percent', 0):4.1f}% waiting)  "
        f"rss/table={r['rss_per_table_kib']:7.1f} KiB  cli={r['client_cpu_percent']:5.1f}% "
        f"lag99={r['client_lag_p99_ms']:5.1f} ms (max {r.get('client_lag_max_ms', 0):.0f}, "
        f"{r.get('client_full_gc', 0)} full gc)  err={r['errors']} fb={r['fallbacks']} "
        f"lost={r['lost']} disc={r['disconnects']} conn={r['connected']} "
        f"started={r['started']} in {r['start_s']}s "
        f"fullgc={r.get('full_gc', 0)}x max {r.get('full_gc_max_ms', 0)} ms "
        f"setup={r['setup_s']}s load={r['load_avg_1m']}{flags}"
    )


def no_nan(x: Any) -> Any:
    """``x`` with every NaN float as None, so the file is strict JSON.

    >>> no_nan({"a": [float("nan"), 1.0]})
    {'a': [None, 1.0]}
    """
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: no_nan(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [no_nan(v) for v in x]
    return x


def _median_point(rs: list[dict[str, Any]]) -> dict[str, Any]:
    """The medians of repeated points' figures (the first point's other fields).

    >>> _median_point([{"p99_ms": 3.0}, {"p99_ms": 1.0}, {"p99_ms": 2.0}])["p99_ms"]
    2.0
    """
    out = dict(rs[0])
    for key, value in rs[0].items():
        values = [r.get(key) for r in rs]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and all(
            isinstance(v, (int, float)) and not math.isnan(v) for v in values
        ):
            out[key] = round(sorted(values)[len(values) // 2], 1)  # type: ignore[type-var]
    out["repeats"] = len(rs)
    return out


def summary(result: dict[str, Any]) -> str:
    """A Markdown table of a results file: per table count, each server's figures side by
    side (medians where a count was repeated), the socket floor's next to them
    (``--floor``), then the human-pace capacity (``--summary FILE``)."""
    servers = list(result["machine"]["servers"])
    floors = sorted({f"floor:{r['layer']}" for r in result.get("floor", [])})
    rows = ["| pace | tables | " + " | ".join(
        f"{s} act/s | {s} p50 / p99 ms | {s} CPU/act µs | {s} RSS/table KiB" for s in servers
    ) + "".join(f" | {f} CPU/act µs (+commit)" for f in floors) + " |",
        "|---|---:|" + "---:|" * (4 * len(servers) + len(floors))]
    points: dict[tuple[str, int], dict[str, list[dict[str, Any]]]] = {}
    for r in result["bench"]:
        points.setdefault(("bench", r["tables"]), {}).setdefault(r["server"], []).append(r)
    for name, h in result["human"].items():
        for r in h["points"]:
            points.setdefault(("human", r["tables"]), {}).setdefault(name, []).append(r)
    for r in result.get("floor", []):
        key = f"floor:{r['layer']}" + ("+commit" if r["commit"] else "")
        points.setdefault((r["pace"], r["tables"]), {}).setdefault(key, []).append(r)

    def cell(rs: list[dict[str, Any]] | None) -> str:
        if not rs:
            return " | | | "
        r = _median_point(rs)
        flag = "*" if r.get("client_bound") else ""
        return (f"{r['actions_per_s']} | {r['p50_ms']} / {r['p99_ms']}{flag} | "
                f"{r['server_cpu_us_per_action']} | {r['rss_per_table_kib']}")

    def floor_cell(by: dict[str, list[dict[str, Any]]], f: str) -> str:
        got = [by.get(k) for k in (f, f + "+commit")]
        cpu = [str(_median_point(rs)["server_cpu_us_per_action"]) if rs else "" for rs in got]
        return f"{cpu[0]} ({cpu[1]})" if cpu[1] else cpu[0]

    for (pace, n), by in sorted(points.items()):
        rows.append(f"| {pace} | {n} | " + " | ".join(cell(by.get(s)) for s in servers)
                    + "".join(f" | {floor_cell(by, f)}" for f in floors) + " |")
    rows.append("")
    for name, h in result["human"].items():
        best = h["tables"]
        held = [r for r in h["points"] if r["tables"] == best]
        cpu = f", CPU-only estimate {held[0]['tables_per_core_by_cpu']}" if held else ""
        rows.append(f"- {name}: one core holds {best} tables at human pace (p99 < 100 ms){cpu}")
    rows.append("(* the client core was the limit of that point: its event-loop lag p99 > 50 ms)")
    return "\n".join(rows)


def floor_args(args: argparse.Namespace, human: bool) -> argparse.Namespace:
    """``bench/io_floor.py``'s options for a floor point like this bench's points."""
    return argparse.Namespace(
        bytes=args.floor_bytes, gap=0.004, ping=20.0, tick_ms=0.0, human=human,
        warm=args.human_warm if human else args.warm,
        seconds=args.human_seconds if human else args.seconds,
    )


def parse_server_env(specs: list[str]) -> dict[str, dict[str, str]]:
    """``LABEL:KEY=VALUE`` items as ``{label: {key: value}}``."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        label, _, pair = spec.partition(":")
        key, eq, value = pair.partition("=")
        if not (label and key and eq):
            raise SystemExit(f"--server-env {spec!r}: expected LABEL:KEY=VALUE")
        out.setdefault(label, {})[key] = value
    return out


def parse_servers(specs: list[str]) -> list[tuple[str, str]]:
    """``LABEL=PATH`` pairs (a bare PATH is labelled by its folder name)."""
    out = []
    for s in specs or [f"this={HERE}"]:
        label, _, path = s.rpartition("=")
        out.append((label or Path(path).name, path))
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the points, print them, save JSON and the chart."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--server", action="append", default=[], metavar="LABEL=PATH",
                    help="a source tree to serve from (repeat to compare); default this one")
    ap.add_argument("--server-src", dest="server", action="append", metavar="PATH",
                    help="same as --server")
    ap.add_argument("--tables", default="10,50,100,200,400",
                    help="table counts at the bench's pace (empty: none)")
    ap.add_argument("--seconds", type=float, default=15.0, help="measuring window, bench pace")
    ap.add_argument("--warm", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--pacing", type=float, default=0.05, help="s per dealt card, bench pace")
    ap.add_argument("--human", action="store_true", help="also search the human-pace capacity")
    ap.add_argument("--think", type=float, nargs=2, default=(2.0, 4.0), metavar=("LO", "HI"))
    ap.add_argument("--human-pacing", type=float, default=0.15,
                    help="s per dealt card at human pace (the server's default)")
    ap.add_argument("--human-start", type=int, default=100)
    ap.add_argument("--human-at", default=None, metavar="N,N,...",
                    help="human pace at these table counts only (no search)")
    ap.add_argument("--human-max", type=int, default=8000)
    ap.add_argument("--human-step", type=int, default=10, help="bisect until this close")
    ap.add_argument("--human-step-frac", type=float, default=0.15)
    ap.add_argument("--human-seconds", type=float, default=20.0)
    ap.add_argument("--human-warm", type=float, default=5.0)
    ap.add_argument("--ramp", type=float, default=20.0,
                    help="human pace: table starts spread over at least this (s)")
    ap.add_argument("--connect-rate", type=float, default=40.0,
                    help="tables started per second during the ramp")
    ap.add_argument("--start-timeout", type=float, default=90.0,
                    help="after the ramp, wait this long at most for every table to start")
    ap.add_argument("--batch", choices=("auto", "on", "off"), default="auto",
                    help="clients say batch: true in hello, as the browser does (auto: when "
                         "the server takes it)")
    ap.add_argument("--protocol", type=int, choices=(2, 3), default=3,
                    help="the clients' protocol: 3 deltas after a snapshot, as the browser "
                         "speaks; 2 a whole view in every update")
    ap.add_argument("--target-ms", type=float, default=100.0)
    ap.add_argument("--client-procs", type=int, default=1)
    ap.add_argument("--client-lag-ms", type=float, default=50.0)
    ap.add_argument("--nice", type=int, default=0,
                    help="priority of the bench's own scheduling group (server and clients), "
                         "e.g. -10 on a machine shared with other sessions")
    ap.add_argument("--server-cpus", default=None, help="e.g. 0 (default: the first core)")
    ap.add_argument("--database-url", default=None,
                    help="PostgreSQL (postgresql+asyncpg://...): wiped before each point")
    ap.add_argument("--data-root", default=None,
                    help="where the temp SQLite data dirs go (default: the system's temp "
                         "folder; /dev/shm takes the disk's fsync out of the figures)")
    ap.add_argument("--server-env", action="append", default=[], metavar="LABEL:KEY=VALUE",
                    help="an environment variable for one server (repeat), e.g. "
                         "nofreeze:SHENGJI_GC_FREEZE=0 with --server nofreeze=.")
    ap.add_argument("--server-log", default=None, help="append the servers' output here")
    ap.add_argument("--summary", metavar="FILE",
                    help="print a results file as a Markdown table and run nothing")
    ap.add_argument("--floor", default="", metavar="LAYER,...",
                    help="also measure the socket floor (bench/io_floor.py) at each point on "
                         "these WebSocket layers: uvicorn, picows")
    ap.add_argument("--floor-bytes", type=int, default=1800,
                    help="the floor's message size per socket (a seat's update: 1.3-1.8 KB)")
    ap.add_argument("--name", default="server_load", help="results file name (no suffix)")
    ap.add_argument("--out", default=str(RESULTS), help="folder for JSON and SVG")
    args = ap.parse_args(argv)
    if args.summary:
        print(summary(json.loads(Path(args.summary).read_text())))
        return 0
    # a SIGTERM unwinds like Ctrl-C, so the server and client processes are stopped too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    servers = parse_servers(args.server)
    args.server_env = parse_server_env(args.server_env)
    files = raise_open_files()
    args.open_files = files
    cap = (files - 256) // 5  # the server holds five sockets per table
    if args.human_max > cap:
        print(f"--human-max {args.human_max} > {cap}: the open-file limit ({files}) allows "
              f"at most {cap} tables of five sockets in one server process", flush=True)
        args.human_max = cap
    server_cpus, client_cpus = args.cpu_split = split_cpus(args.server_cpus)
    pin(os.getpid(), client_cpus)  # the driver itself stays off the server's core
    autogroup = own_autogroup(args.nice)
    head = {
        "cpus": os.cpu_count(),
        "server_cpus": sorted(server_cpus) if server_cpus else None,
        "client_cpus": sorted(client_cpus) if client_cpus else None,
        "open_files": files,
        "nice": args.nice,
        "autogroup": autogroup,
        "data_root": args.data_root or tempfile.gettempdir(),
        "servers": dict(servers),
        "server_env": args.server_env,
        "database": args.database_url or f"sqlite in {args.data_root or tempfile.gettempdir()}",
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "load_avg": os.getloadavg(),
    }
    print(json.dumps(head), flush=True)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"machine": head, "bench": [], "human": {}}

    def save() -> None:
        text = json.dumps(no_nan(result), indent=1, allow_nan=False)
        (out_dir / f"{args.name}.json").write_text(text + "\n")
        write_svg(result, out_dir / f"{args.name}.svg", args.target_ms)

    def show(r: dict[str, Any]) -> None:
        print(line(r), flush=True)

    def floor(n: int, human: bool) -> None:
        """The socket floor at this point, on each layer of ``--floor``, with and without
        its commit (bench/io_floor.py)."""
        for layer in (x for x in args.floor.split(",") if x.strip()):
            for commit in (False, True):
                with tempfile.TemporaryDirectory(dir=args.data_root) as d:
                    r = io_floor.measure(floor_args(args, human), n, "silent", commit,
                                         f"{d}/floor.db", layer)
                result.setdefault("floor", []).append(r)
                print(f"   floor:{layer}{'+commit' if commit else ''} {r['pace']:>5} "
                      f"N={n:5d}  act/s={r['actions_per_s']:7.1f}  p99={r['p99_ms']} ms  "
                      f"cpu/act={r['server_cpu_us_per_action']:6.0f} us", flush=True)
                save()

    for n in (int(x) for x in args.tables.split(",") if x.strip()):
        for label, src in servers:
            r = run_point(label, src, n, args, human=False)
            result["bench"].append(r)
            show(r)
            save()
        floor(n, human=False)
    if args.human_at:  # fixed points, each server in turn at each count
        counts = [int(x) for x in args.human_at.split(",") if x.strip()]
        for n in counts:
            for label, src in servers:
                r = run_point(label, src, n, args, human=True)
                show(r)
                entry = result["human"].setdefault(label, {"tables": None, "points": []})
                entry["points"].append(r)
                if passes(r, args.target_ms):
                    entry["tables"] = max(entry["tables"] or 0, n)
                save()
            floor(n, human=True)
    elif args.human:
        for label, src in servers:
            best, points = human_search(label, src, args, show)
            result["human"][label] = {"tables": best, "points": points}
            print(f"{label}: one core holds {best} tables at human pace "
                  f"(p99 < {args.target_ms:g} ms)", flush=True)
            save()
    for label, _ in servers:
        ok = [r["tables"] for r in result["bench"]
              if r["server"] == label and not math.isnan(r["p99_ms"])
              and r["p99_ms"] < args.target_ms]
        print(f"{label}: largest N with p99 < {args.target_ms:g} ms at the bench's pace: "
              f"{max(ok) if ok else None}")
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
