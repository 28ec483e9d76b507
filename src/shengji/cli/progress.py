"""A progress bar for long arena runs (rich): work done, deals/s, time left, and the running
95% interval of the figure that matters, on one line that fits the terminal (80 columns
included: the bar narrows, the interval loses its label, the bar goes, then the interval;
the counts always stay).

Shown on stderr when it is a terminal (or with ``--progress``); ``--no-progress`` hides it.

>>> bar = ArenaProgress(10, "pairs", enabled=False)
>>> bar.update(3, deals=6, interval="signed levels +0.10 [-0.2, +0.4]")
>>> bar.done, bar.deals
(3, 6)
>>> bar.close()
>>> fit(80, "deal pairs", 12, 400, "31.2 deals/s", "0:02:04 left",
...     "A: +0.123 levels/deal [+0.100, +0.200]")
('deal pairs 12/400', 11, '31.2 deals/s 0:02:04 left +0.123 [+0.100, +0.200]')
"""

from __future__ import annotations

import re
import sys
import time
from typing import Final, TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn

MIN_BAR: Final = 8
"""The narrowest bar worth drawing; below it the interval is shortened, then left out."""
MAX_BAR: Final = 40
_FIGURE: Final = re.compile(r"([+-]\d[\d.]*).*?(\[[^\]]*\])")
"""The figure of an interval text without its label: ``+0.12 [+0.05, +0.19]``."""


def wanted(flag: bool | None, stream: TextIO | None = None) -> bool:
    """``--progress`` / ``--no-progress`` / neither (then: is the stream a terminal?)."""
    if flag is not None:
        return flag
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


def fit(
    width: int, unit: str, done: int, total: int, rate: str, left: str, interval: str
) -> tuple[str, int, str]:
    """The line's text before the bar, the bar's width and the text after it, together at
    most ``width - 1`` columns. As room runs out: the bar narrows to ``MIN_BAR``, the
    interval drops its label, the bar goes, the interval goes; the counts always stay."""
    head = f"{unit} {done}/{total}"
    short = _FIGURE.search(interval)
    figures = (interval, f"{short[1]} {short[2]}" if short else "")
    for figure, bar in [*((f, True) for f in figures), (figures[1], False), ("", True),
                        ("", False)]:
        tail = " ".join(part for part in (rate, left, figure) if part)
        if not bar:
            if len(head) + 1 + len(tail) <= width - 1:
                return head, 0, tail
            continue
        room = width - 1 - len(head) - len(tail) - 2
        if room >= MIN_BAR:
            return head, min(room, MAX_BAR), tail
    return head, 0, ""


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


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
        self._resumed = done
        self._interval = ""
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        if enabled:
            out = stream or sys.stderr
            wide = None if wanted(None, out) else 150  # a file or pipe: one full line
            self._console = Console(file=out, width=wide)
            self._column = BarColumn(bar_width=MAX_BAR)
            self._bar = Progress(
                TextColumn("[bold]{task.fields[head]}"),
                self._column,
                TextColumn("{task.fields[tail]}"),
                console=self._console,
                refresh_per_second=4,
            )
            self._bar.start()
            self._task = self._bar.add_task(unit, total=total, completed=done, head="", tail="")
            self._draw()

    def update(self, units: int, deals: int, interval: str = "") -> None:
        """``units`` more finished, holding ``deals`` deals; ``interval``: the running figure."""
        self.done += units
        self.deals += deals
        self._interval = interval
        self._draw()

    def _draw(self) -> None:
        if self._bar is None or self._task is None:
            return
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        ran = self.done - self._resumed
        left = f"{_clock(elapsed / ran * (self.total - self.done))} left" if ran > 0 else ""
        head, bar, tail = fit(
            self._console.width, self.unit, self.done, self.total,
            f"{self.deals / elapsed:.1f} deals/s", left, self._interval,
        )
        self._column.bar_width = bar
        self._bar.update(self._task, completed=self.done, head=head, tail=tail)

    def close(self) -> None:
        """Stop drawing (the last state stays on screen)."""
        if self._bar is not None:
            self._draw()
            self._bar.stop()
            self._bar = None
