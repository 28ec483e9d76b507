"""A progress bar for long arena runs (rich): work done, deals/s, time left, and the running
95% interval of the figure that matters.

Shown on stderr when it is a terminal (or with ``--progress``); ``--no-progress`` hides it.

>>> bar = ArenaProgress(10, "pairs", enabled=False)
>>> bar.update(3, deals=6, interval="signed levels +0.10 [-0.2, +0.4]")
>>> bar.done, bar.deals
(3, 6)
>>> bar.close()
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def wanted(flag: bool | None, stream: TextIO | None = None) -> bool:
    """``--progress`` / ``--no-progress`` / neither (then: is the stream a terminal?)."""
    if flag is not None:
        return flag
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


class ArenaProgress:
    """Counts finished units (deal pairs, matches, deals) and the deals they held."""

    def __init__(
        self, total: int, unit: str, enabled: bool, done: int = 0,
        stream: TextIO | None = None,
    ) -> None:
        self.total = total
        self.unit = unit
        self.done = done
        self.deals = 0
        self.start = time.perf_counter()
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        if enabled:
            out = stream or sys.stderr
            wide = None if wanted(None, out) else 150  # a file or pipe: one full line
            console = Console(file=out, width=wide)
            self._bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[interval]}"),
                console=console,
                refresh_per_second=4,
            )
            self._bar.start()
            self._task = self._bar.add_task(unit, total=total, completed=done, rate="", interval="")

    def update(self, units: int, deals: int, interval: str = "") -> None:
        """``units`` more finished, holding ``deals`` deals; ``interval``: the running figure."""
        self.done += units
        self.deals += deals
        if self._bar is not None and self._task is not None:
            elapsed = max(time.perf_counter() - self.start, 1e-9)
            self._bar.update(
                self._task, completed=self.done, rate=f"{self.deals / elapsed:.1f} deals/s",
                interval=interval,
            )

    def close(self) -> None:
        """Stop drawing (the last state stays on screen)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
