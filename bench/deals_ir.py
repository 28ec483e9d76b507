"""Instructions per random classic deal, counted by valgrind: ``bench/deals.py``'s work (random
bots play whole matches through ``play_match``, dealing, declaring, burying and every trick)
as a figure a shared, noisy machine does not move, for comparing two source trees' engine.

Each tree plays seeded matches of 4 deals under ``valgrind --tool=cachegrind
--cache-sim=no`` twice, ``--small`` and ``--large`` matches; the difference in instructions
over the difference in deals is what a deal costs, without start-up and imports. Runs are
deterministic (fixed seeds, ``PYTHONHASHSEED=0``); a tree whose random bot draws other
cards plays other deals, so the deals and actions per run are printed beside the figure.

    python bench/deals_ir.py --tree orig=/work/wt-orig --tree now=.

Needs valgrind (Debian: ``apt-get install valgrind``); about a minute per tree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.valgrind_ir import add_trees, compare_and_save, instructions, need_valgrind, trees

ROOT = Path(__file__).resolve().parent.parent

WORK = """
import sys
from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.ruleset import PRESETS
rs = PRESETS[sys.argv[2]]
deals = actions = 0
for n in range(int(sys.argv[1])):
    bots = [RandomBot(f"1.{n}.{k}") for k in range(rs.players)]
    state, record = play_match(rs, bots, f"1.{n}", deals=4)
    deals += len(state.history)
    actions += len(record.actions)
print(deals, actions)
"""


def count(tree: Path, matches: int, preset: str) -> tuple[int, int, int]:
    """``(instructions, deals, actions)`` of ``matches`` seeded matches on ``tree``."""
    ir, printed = instructions(tree, ["-c", WORK, str(matches), preset])
    deals, actions = (int(x) for x in printed.split())
    return ir, deals, actions


def measure(label: str, tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Instructions per deal and per action on ``tree`` (the large run less the small)."""
    ir1, d1, a1 = count(tree, args.small, args.preset)
    ir2, d2, a2 = count(tree, args.large, args.preset)
    deals, actions = d2 - d1, a2 - a1
    row = {
        "label": label,
        "tree": str(tree),
        "preset": args.preset,
        "deals": deals,
        "actions": actions,
        "instructions": ir2 - ir1,
        "instructions_per_deal": round((ir2 - ir1) / max(1, deals)),
        "instructions_per_action": round((ir2 - ir1) / max(1, actions)),
    }
    print(
        f"{label:>10}: {row['instructions_per_deal'] / 1e6:7.3f} M instructions per deal, "
        f"{row['instructions_per_action'] / 1e3:7.1f} k per action "
        f"({deals} deals, {actions} actions)",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_trees(ap)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--small", type=int, default=2, help="matches of the run subtracted")
    ap.add_argument("--large", type=int, default=12, help="matches of the run measured")
    ap.add_argument("--out", default="bench/results/deals_ir.json")
    args = ap.parse_args()
    need_valgrind("deals_ir")
    rows = [measure(label, tree, args) for label, tree in trees(args.tree, ROOT)]
    compare_and_save(rows, "instructions_per_deal", "instructions per deal", Path(args.out))


if __name__ == "__main__":
    main()
