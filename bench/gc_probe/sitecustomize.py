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
