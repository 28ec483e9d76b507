"""The exact endgame solver's size and speed: positions visited and CPU ms per solve, by
cards left a seat, with and without merging interchangeable singles (``bots/endgame.py``).

Seeded classic deals of heuristic players are stopped at a trick's start once every seat
holds at most ``k`` cards; the seat to lead solves the rest (deal value for its side).

    .venv/bin/python bench/endgame.py --deals 12 --cards 2,3,4,5
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from shengji.bots.endgame import Solver, position_after
from shengji.bots.search import deal_value
from shengji.core.ruleset import PRESETS

RESULTS = Path(__file__).parent / "results"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--cards", default="2,3,4,5")
    parser.add_argument("--out", type=Path, default=RESULTS / "endgame.json")
    args = parser.parse_args(argv)
    rs = PRESETS["classic"]
    report: dict[str, dict[str, float]] = {}
    print(f"{'cards':>5} {'merge':>6} {'nodes median':>13} {'nodes max':>10} "
          f"{'ms median':>10} {'ms max':>8}")
    for k in (int(x) for x in args.cards.split(",")):
        states = [position_after(rs, seed, k) for seed in range(args.deals)]
        for merge in (True, False):
            nodes: list[int] = []
            ms: list[float] = []
            for state in states:
                seat = state.to_act
                assert seat is not None
                solver = Solver(lambda r, s=seat: deal_value(r, s), seat, None, merge)
                t0 = time.thread_time()
                solver.solve(state)
                ms.append(1000 * (time.thread_time() - t0))
                nodes.append(solver.nodes)
            key = f"{k}{'' if merge else ' unmerged'}"
            report[key] = {"nodes_median": statistics.median(nodes), "nodes_max": max(nodes),
                           "ms_median": statistics.median(ms), "ms_max": max(ms)}
            r = report[key]
            print(f"{k:>5} {merge!s:>6} {r['nodes_median']:>13.0f} {r['nodes_max']:>10} "
                  f"{r['ms_median']:>10.1f} {r['ms_max']:>8.1f}", flush=True)
    args.out.write_text(json.dumps({"deals": args.deals, "solves": report}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
