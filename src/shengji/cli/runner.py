"""Run many independent jobs (deal pairs, matchups) and survive Ctrl-C.

``run_indexed(fn, tasks, jobs, on_result)`` calls ``fn`` on each ``(index, argument)`` in
this process (``jobs`` 1) or in a process pool, and hands each result to ``on_result`` in
this process as it finishes. The first Ctrl-C stops new work, lets the jobs in progress
finish and be counted, and returns ``True`` (interrupted); a second Ctrl-C stops waiting.
Worker processes ignore Ctrl-C and SIGTERM, so a terminal's interrupt (or a ``kill`` of the
whole process group) reaches only this process's handling, and when it returns no worker is
left running. A Ctrl-C that comes while a result is being handed on waits until
``on_result`` has returned: a result is recorded whole (say, in the report and in the
``--out`` file) or not at all. ``sigterm_as_ctrl_c`` makes SIGTERM (what ``timeout``,
SLURM and Kubernetes send) do what Ctrl-C does.

>>> seen = {}
>>> run_indexed(abs, [(0, -3), (1, 4)], 1, seen.__setitem__), seen
(False, {0: 3, 1: 4})
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from types import FrameType
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")

IN_FLIGHT = 4
"""Jobs queued per worker (enough to keep it busy, few to cancel on Ctrl-C)."""


HELD = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run: held back while a result is handed on, ignored by workers."""


def _quiet_worker() -> None:
    for sig in HELD:
        signal.signal(sig, signal.SIG_IGN)


def _term_as_int(_signum: int, frame: FrameType | None) -> None:
    """SIGTERM: what SIGINT does now (its Python handler), else ``KeyboardInterrupt``."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, frame)
        return
    raise KeyboardInterrupt


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM stops the run as Ctrl-C does (finished work is counted and
    written, workers are stopped, the report printed); the old handler is put back after.

    >>> with sigterm_as_ctrl_c():
    ...     signal.getsignal(signal.SIGTERM) is _term_as_int
    True
    """
    try:
        before = signal.signal(signal.SIGTERM, _term_as_int)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


EXECUTORS = ("local", "ray")


def run_indexed(
    fn: Callable[[A], R],
    tasks: Sequence[tuple[int, A]],
    jobs: int,
    on_result: Callable[[int, R], None],
    executor: str = "local",
    address: str | None = None,
) -> bool:
    """Run every task; True when Ctrl-C cut the run short (finished results were handed on).

    ``executor="ray"`` spreads the tasks over a Ray cluster (``address``: ``"auto"``,
    ``"ray://host:10001"``, or None to start or join a local one; ``ray_runner.py``).
    """
    on_result = _whole(on_result)
    if executor == "ray":
        from shengji.cli.ray_runner import run_on_ray

        return run_on_ray(fn, tasks, on_result, address, jobs)
    if executor != "local":
        raise ValueError(f"executor must be one of {list(EXECUTORS)}, not {executor!r}")
    try:
        if jobs <= 1:
            for index, arg in tasks:
                on_result(index, fn(arg))
            return False
        return _pool(fn, tasks, jobs, on_result)
    except KeyboardInterrupt:
        return True


def _whole(on_result: Callable[[int, R], None]) -> Callable[[int, R], None]:
    """``on_result`` with Ctrl-C and SIGTERM held back while it runs and delivered right
    after (in the main thread, where Python handles signals; only those handled in Python)."""

    def call(index: int, result: R) -> None:
        held: list[int] = []
        try:
            before = {sig: signal.getsignal(sig) for sig in HELD}
            mine = [sig for sig, h in before.items() if callable(h)]
            for sig in mine:
                signal.signal(sig, lambda signum, _frame: held.append(signum))
        except ValueError:  # not the main thread: signals are not ours to hold
            on_result(index, result)
            return
        try:
            on_result(index, result)
        finally:
            for sig in mine:
                signal.signal(sig, before[sig])
            for signum in dict.fromkeys(held):
                signal.raise_signal(signum)

    return call


def _pool(
    fn: Callable[[A], R],
    tasks: Sequence[tuple[int, A]],
    jobs: int,
    on_result: Callable[[int, R], None],
) -> bool:
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker)
    pending: dict[Future[R], int] = {}
    todo = iter(tasks)

    def fill() -> None:
        while len(pending) < jobs * IN_FLIGHT:
            nxt = next(todo, None)
            if nxt is None:
                return
            pending[pool.submit(fn, nxt[1])] = nxt[0]

    try:
        fill()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                on_result(pending.pop(fut), fut.result())
            fill()
        return False
    except KeyboardInterrupt:
        for fut in list(pending):
            if fut.cancel():
                del pending[fut]
        try:  # the jobs already running finish and count
            for fut, index in list(pending.items()):
                on_result(index, fut.result())
        except KeyboardInterrupt:  # a second one: stop waiting, and stop the workers
            for process in list(pool._processes.values()):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)  # no worker outlives the run
        return True
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
