"""Instructions per heuristic rollout, counted by valgrind: a figure a shared, noisy machine
does not move, for comparing two source trees' rollout policy (``bench/rollouts.py`` times
the same work in CPU ms).

The work is ``bench/rollouts.py``'s: seeded classic deals played by ``heuristic`` bots to
trick ``--trick``, one world drawn per rollout from the view of the seat to act, played to
the end with ``heuristic`` in every seat. Each tree runs it under ``valgrind
--tool=cachegrind --cache-sim=no`` twice, once playing the rollouts and once only drawing
them; the difference over the rollouts (and over the plays in them) is the rollouts' cost,
without start-up, imports and the deals that lead up to the positions. Runs are
deterministic (fixed seeds, ``PYTHONHASHSEED=0``), so two trees differ only by their code.

    python bench/rollout_ir.py --tree before=/work/wt-before --tree after=.

Needs valgrind (Debian: ``apt-get install valgrind``); about 20 s per tree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.valgrind_ir import add_trees, compare_and_save, instructions, need_valgrind, trees

HERE = Path(__file__).resolve().parent
WORK = """
import random, sys
from bench.rollouts import positions
from shengji.bots.registry import make_bot
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import rollout
from shengji.core.determinize import state_from_view
n, per, trick, play = (int(a) for a in sys.argv[1:5])
rng = random.Random(1)
worlds = [(v, sample_hidden(v, rng)) for _, v in positions(n, trick, 2026) for _ in range(per)]
plays = 0
for view, (hands, kitty) in worlds if play else ():
    world = state_from_view(view, hands, kitty)
    before = sum(sum(h) for h in world.hands)  # count vectors
    bots = [make_bot("heuristic", str(k)) for k in range(view.ruleset.players)]
    for b in bots:  # as a search's rollouts play (trees before that: every play checked)
        if hasattr(b, "trusted"):
            b.trusted = True
    rollout(world, bots)
    plays += before
print(len(worlds), plays)
"""


def count(tree: Path, args: argparse.Namespace, play: bool) -> tuple[int, int, int]:
    """``(instructions, rollouts, cards played)`` of one run on ``tree``."""
    ir, printed = instructions(
        tree, ["-c", WORK, str(args.positions), str(args.per), str(args.trick), str(int(play))]
    )
    rollouts, cards = (int(x) for x in printed.split())
    return ir, rollouts, cards


def measure(label: str, tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Instructions per rollout and per card played in one on ``tree``."""
    played, rollouts, cards = count(tree, args, True)
    drawn, _, _ = count(tree, args, False)
    ir = played - drawn
    row = {
        "label": label,
        "tree": str(tree),
        "rollouts": rollouts,
        "cards_played": cards,
        "instructions": ir,
        "instructions_per_rollout": round(ir / max(1, rollouts)),
        "instructions_per_card": round(ir / max(1, cards)),
    }
    print(
        f"{label:>10}: {row['instructions_per_rollout'] / 1e6:7.2f} M instructions per "
        f"rollout, {row['instructions_per_card'] / 1e6:6.3f} M per card played "
        f"({rollouts} rollouts from trick {args.trick}, {cards} cards)",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_trees(ap)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--per", type=int, default=4, help="rollouts per position")
    ap.add_argument("--trick", type=int, default=6)
    ap.add_argument("--out", default="bench/results/rollout_ir.json")
    args = ap.parse_args()
    need_valgrind("rollout_ir")
    rows = [measure(label, tree, args) for label, tree in trees(args.tree, HERE.parent)]
    compare_and_save(rows, "instructions_per_rollout", "instructions per rollout", Path(args.out))


if __name__ == "__main__":
    main()
