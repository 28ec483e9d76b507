"""Failover of a cluster of ``shengji serve`` processes on one PostgreSQL database (issue 16).

Starts ``--instances`` processes (default 3) on loopback, opens ``--tables`` tables (default
20: scripted humans in seat 0 of about half, bots elsewhere, every fifth table a coin room
with two humans), kills the first instance with SIGKILL mid-deal and measures how long its
rooms take to be adopted by the others and its humans to be back in their seats; then
waits for every match to finish and checks every room's log (seqs 1..N, epochs never going
back), every record against its log, every coin room's ledger (each deal settled once) and
every reconnected hand against the log replayed. Prints the figures and writes them to
``bench/results/cluster_failover.json``.

    python bench/cluster_failover.py --tables 20
    SHENGJI_TEST_DATABASE_URL=postgresql+asyncpg://user@host/db python bench/cluster_failover.py

The database is a fresh schema (and role) in the PostgreSQL that ``SHENGJI_TEST_DATABASE_URL``
names (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``), dropped afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the drill lives with the tests (tests/server/cluster.py)

from tests import pg  # noqa: E402
from tests.server.cluster import failover_drill  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--instances", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "cluster_failover.json"))
    args = ap.parse_args()
    admin = pg.configured_url() or pg.DEFAULT_URL
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as logs, pg.fresh_schema(admin) as url:
        figures = failover_drill(url, Path(logs), args.tables, args.instances)
    figures["wall_s"] = round(time.monotonic() - started, 1)
    figures["cpus"] = os.cpu_count()
    for k in ("resumed_within_s", "owner_seen_within_s", "humans_back_within_s"):
        if isinstance(figures.get(k), float):
            figures[k] = round(figures[k], 2)
    print(json.dumps(figures, indent=2))
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if not figures["problems"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
