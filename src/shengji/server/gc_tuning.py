"""The server process's garbage collector, set once at start-up.

A full collection walks every tracked object and stops the event loop while it does. Right
after start-up most of those objects are the program itself (modules, functions, classes:
about 120,000 of them, against about 300 per playing room), so :func:`tune` moves them out of
the collector's sight (:func:`gc.freeze`) before any room is restored; what full collections
walk then grows with the rooms alone. ``young`` sets how many allocations start a collection
of the youngest generation (CPython's default: 700).

    >>> tune(freeze=False, young=0)   # 0 keeps the interpreter's thresholds
    >>> gc.isenabled()
    True
"""

from __future__ import annotations

import gc

_frozen: list[bool] = []
"""Whether this process has frozen once: a second app in the same process (tests) must not
freeze the first one's rooms, whose cycles would then never be collected."""


def tune(*, freeze: bool, young: int, middle: int = 0, oldest: int = 0) -> None:
    """Freeze what exists now (after one full collection; once per process) and set the
    generations' thresholds: ``young`` allocations start a collection of the youngest,
    ``middle`` of those one of the middle generation, ``oldest`` of those a full one (when
    the oldest has also grown by a quarter); 0 keeps the interpreter's own."""
    if young > 0 or middle > 0 or oldest > 0:
        now = gc.get_threshold()
        gc.set_threshold(young or now[0], middle or now[1], oldest or now[2])
    if freeze and not _frozen:
        _frozen.append(True)
        gc.collect()
        gc.freeze()
