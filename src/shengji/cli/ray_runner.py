"""Run arena jobs on a Ray cluster (optional extra ``distributed``: ``pip install
'shengji[distributed]'``): ``shengji arena --duplicate --executor ray --address …``.

Each deal pair (or ladder pair) is one Ray task running ``shengji.bots.duplicate.pair_job``
with the same seed as a local run, and results are counted by index, so the report is the
same as ``--jobs 1`` for deterministic bots. Every node needs the same ``shengji`` (and any
plug-in bots) installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

A = TypeVar("A")
R = TypeVar("R")

MISSING = "the ray executor needs Ray: pip install 'shengji[distributed]'"


def ray_module() -> Any:
    """``ray``, or a clear ``RuntimeError`` when it is not installed."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(MISSING) from None
    return ray


def run_on_ray(
    fn: Callable[[A], R],
    tasks: Sequence[tuple[int, A]],
    on_result: Callable[[int, R], None],
    address: str | None,
    in_flight: int,
) -> bool:
    """Like ``runner.run_indexed`` on Ray; ``in_flight``: tasks queued at once (at least the
    cluster's CPUs)."""
    ray = ray_module()
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 include_dashboard=False)
    window = max(in_flight, int(ray.cluster_resources().get("CPU", 1)) * 4)
    remote = ray.remote(fn)
    pending: dict[Any, int] = {}
    todo = iter(tasks)

    def fill() -> None:
        while len(pending) < window:
            nxt = next(todo, None)
            if nxt is None:
                return
            pending[remote.remote(nxt[1])] = nxt[0]

    try:
        fill()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                on_result(pending.pop(ref), ray.get(ref))
            fill()
        return False
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref)
        return True
