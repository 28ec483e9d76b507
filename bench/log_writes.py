"""Micro-bench of the action log's write path: event-loop time per logged action.

N rooms each log ``--actions`` rows one write at a time, as a room does (its next write
goes out once the last one is durable: ``Written`` comes back to its inbox), through the
same shell code a room uses (``room_jobs.Jobs`` and ``Store``). Prints and saves:

- ``loop_us_per_action``: CPU time of the event loop's thread per logged row (what the
  loop cannot spend on sockets and tables), from ``time.thread_time``;
- ``process_us_per_action``: CPU time of the whole process per row (driver threads too);
- ``rows_per_s`` (wall clock), ``commits`` (group commits) and the p50/p99 write latency.

    python bench/log_writes.py --label after
    PYTHONPATH=/work/wt-before/src python bench/log_writes.py --label before

Each label's figures are merged into ``bench/results/log_writes.json``. ``--url`` runs it
on another database (``postgresql+asyncpg://root@127.0.0.1/sj_writes``: its tables are
dropped first); ``--profile`` prints the loop's top functions (cProfile).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shengji.server.live.room_jobs import Crash, Jobs
from shengji.server.store.storage import Store
from shengji.server.table.commands import Command, Written
from shengji.server.table.effects import LogRecords, Record, Write

RESULTS = Path(__file__).parent / "results" / "log_writes.json"
ACTION = '{"t":"play","seat":2,"cards":["SA","SA","SK","SK"]}'
STATE = {"seats": [{"kind": "bot", "bot": "random", "ready": True}] * 4, "status": "playing",
         "match_no": 1, "options": {"turn_s": 30.0, "long_turn_s": 60.0, "next_deal_s": 30.0}}


def _start(jobs: Jobs, w: Write) -> None:
    """What ``Room._do`` does with a ``Write`` (this code's way, or the old one's)."""
    start = getattr(jobs, "start_write", None)
    if start is not None:
        start(w)
    else:
        jobs.spawn(jobs.write(w), "write")


def _record(seq: int, state: dict[str, Any] | None) -> Record:
    """Row ``seq`` of a room's log (``pos`` = ``seq``; older code had no ``pos``)."""
    if "pos" in getattr(Record, "__dataclass_fields__", {}):
        return Record(seq, seq, 1, "action", ACTION, state)
    return Record(seq, 1, "action", ACTION, state)  # type: ignore[call-arg,arg-type]


async def _room(store: Store, rid: int, actions: int, latencies: list[float]) -> None:
    inbox: asyncio.Queue[Command | Crash] = asyncio.Queue()
    jobs = Jobs(rid, f"room{rid}", store, None, 0.0, inbox.put_nowait)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    for seq in range(1, actions + 1):
        state = STATE if seq % 13 == 0 else None  # a deal's first card carries the state
        rec = _record(seq, state)
        began = loop.time()
        _start(jobs, Write(seq, LogRecords((rec,))))
        answer = await inbox.get()
        if not isinstance(answer, Written):
            why = answer.exc if isinstance(answer, Crash) else answer
            raise RuntimeError(f"room {rid}: {why!r}")
        latencies.append(loop.time() - began)


async def run(url: str, rooms: int, actions: int, profile: bool) -> dict[str, Any]:
    store = Store(url)
    if not store.sqlite:
        from shengji.server.store.models import Base

        async with store.engine.begin() as c:
            await c.run_sync(Base.metadata.drop_all)
            await c.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    await store.start()
    ids = [
        await store.rooms.create(f"bench{i:05d}", "classic", {}, "s", False, None, None, STATE)
        for i in range(rooms)
    ]
    latencies: list[float] = []
    prof = cProfile.Profile() if profile else None
    commits0 = store.commits
    wall0, cpu0, loop0 = time.perf_counter(), time.process_time(), time.thread_time()
    if prof:
        prof.enable()
    await asyncio.gather(*(_room(store, rid, actions, latencies) for rid in ids))
    if prof:
        prof.disable()
    wall = time.perf_counter() - wall0
    cpu, loop_cpu = time.process_time() - cpu0, time.thread_time() - loop0
    commits = store.commits - commits0
    await store.close()
    n = rooms * actions
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    lat = sorted(latencies)
    return {
        "rooms": rooms,
        "rows": n,
        "loop_us_per_action": round(loop_cpu / n * 1e6, 1),
        "process_us_per_action": round(cpu / n * 1e6, 1),
        "rows_per_s": round(n / wall),
        "commits": commits,
        "rows_per_commit": round(n / max(1, commits), 1),
        "write_ms_p50": round(statistics.median(lat) * 1000, 2),
        "write_ms_p99": round(lat[int(len(lat) * 0.99) - 1] * 1000, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--label", default="after", help="the key the figures are saved under")
    ap.add_argument("--rooms", default="1,50,400", help="room counts, comma-separated")
    ap.add_argument("--actions", type=int, default=200, help="rows each room logs")
    ap.add_argument("--url", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--profile", action="store_true", help="print the top functions")
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    import shengji

    print(f"shengji from {os.path.dirname(shengji.__file__)}", file=sys.stderr)
    out: list[dict[str, Any]] = []
    for rooms in (int(x) for x in args.rooms.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            url = args.url or f"sqlite+aiosqlite:///{tmp}/bench.db"
            actions = max(20, args.actions if rooms <= 50 else args.actions // 4)
            r = asyncio.run(run(url, rooms, actions, args.profile))
        r["database"] = url.split(":", 1)[0]
        print(json.dumps(r))
        out.append(r)
    if not args.no_save:
        saved = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        key = args.label + ("" if args.url is None else "-" + out[0]["database"])
        saved[key] = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "runs": out}
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
