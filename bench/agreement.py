"""How closely checkpoints pick what the ``heuristic`` bot picks, step by step.

Plays fresh heuristic deals (``shengji.ml.imitate.demonstrations``, no exploration) and
runs each checkpoint's greedy pick on every recorded step. It reports the agreement over all
steps, over the steps where the mask allows more than one index, and on the choice between
ending a lead (``finish``) and adding one more card: a policy that adds a card where the
teacher finished tries a throw the teacher would not. Prints figures and writes them as
JSON; asserts nothing.

    .venv/bin/python bench/agreement.py bc-classic.pt src/shengji/ml/checkpoints/ppo-classic.pt \\
        --deals 300 --out bench/results/training/agreement.json
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import torch

from shengji.env.actions import FINISH
from shengji.ml.imitate import Demonstrations, demonstrations
from shengji.ml.policy import load


def agreement(path: str, data: Demonstrations) -> dict[str, Any]:
    """The figures of one checkpoint over ``data``."""
    net, _ = load(path)
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(data.obs).float(), torch.from_numpy(data.mask))
    pick = logits.argmax(-1).numpy()
    same = pick == data.action
    choice = data.mask.sum(1) > 1
    finish = data.action == FINISH
    return {
        "checkpoint": path,
        "steps": len(same),
        "agree": round(float(same.mean()), 4),
        "agree_where_a_choice": round(float(same[choice].mean()), 4),
        "teacher_finishes": int(finish.sum()),
        "agree_on_finish": round(float(same[finish].mean()), 4),
        "one_more_card_where_teacher_finished": int((pick[finish] != FINISH).sum()),
        "finish_where_teacher_added_a_card": int(
            ((pick == FINISH) & ~finish & data.mask[:, FINISH]).sum()
        ),
    }


def main(argv: list[str] | None = None) -> int:
    """Print each checkpoint's agreement with the heuristic; write them as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    data = demonstrations(args.preset, args.deals, args.seed)
    rows = [agreement(p, data) for p in args.checkpoints]
    for r in rows:
        print(json.dumps(r))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"preset": args.preset, "deals": args.deals, "seed": args.seed,
                       "checkpoints": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
