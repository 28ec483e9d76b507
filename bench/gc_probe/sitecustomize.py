"""Loaded by the bench's server process (``bench/server_load.py --gc``, which puts this
folder first on its ``PYTHONPATH``): every garbage collection of the oldest generation is
appended to ``$SHENGJI_BENCH_GC_LOG`` as ``<monotonic start> <seconds> <collected>``, so the
bench can tell a stall of the whole server (a long full collection) from queueing."""

from __future__ import annotations

import gc
import os
import time
from typing import Any

_PATH = os.environ.get("SHENGJI_BENCH_GC_LOG")
_started: list[float] = []


def _callback(phase: str, info: dict[str, Any]) -> None:
    if info.get("generation") != 2:
        return
    if phase == "start":
        _started[:] = [time.monotonic()]
    elif _started and _PATH:
        t0 = _started[0]
        with open(_PATH, "a") as f:
            f.write(f"{t0:.6f} {time.monotonic() - t0:.6f} {info.get('collected', 0)}\n")


if _PATH:
    gc.callbacks.append(_callback)


_CENSUS = os.environ.get("SHENGJI_BENCH_GC_CENSUS")
"""A file prefix: every ``$SHENGJI_BENCH_GC_CENSUS_EVERY`` seconds (default 20) the objects
the collector tracks are counted by type into ``<prefix>.<n>.txt`` (the top 60, with the
total and how long a full collection took then), to see what a table costs it."""


def _census() -> None:
    import collections
    import threading

    every = float(os.environ.get("SHENGJI_BENCH_GC_CENSUS_EVERY", "20"))

    def run() -> None:
        for n in range(1000):
            time.sleep(every)
            objs = gc.get_objects()
            kinds = collections.Counter(
                f"{type(o).__module__}.{type(o).__qualname__}" for o in objs
            )
            total = len(objs)
            del objs
            t0 = time.perf_counter()
            gc.collect()
            took = time.perf_counter() - t0
            with open(f"{_CENSUS}.{n}.txt", "w") as f:
                f.write(f"tracked {total} full_gc_ms {took * 1000:.1f} "
                        f"frozen {gc.get_freeze_count()} thresholds {gc.get_threshold()} "
                        f"at {time.monotonic():.1f} stats {gc.get_stats()}\n")
                for kind, count in kinds.most_common(60):
                    f.write(f"{count:9d} {kind}\n")

    threading.Thread(target=run, daemon=True, name="gc-census").start()


if _CENSUS:
    _census()
