"""Evaluate a checkpoint by duplicate deals against named bots (``random``, ``heuristic``).

    python -m shengji.ml.evaluate --checkpoint ppo-classic.pt --deals 200 --jobs 2

Prints each duplicate report (level rate, signed levels per deal, deal win rate, with 95%
intervals; see docs/bots.md) from the learned bot's side.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from shengji.bots.duplicate import format_duplicate, run_duplicate
from shengji.core.ruleset import preset
from shengji.ml.bot import default_checkpoint

LEARNED = "shengji.ml.bot:LearnedBot"


def evaluate(
    checkpoint: str, preset_name: str, against: list[str], deals: int, seed: str, jobs: int
) -> list[dict[str, Any]]:
    """One duplicate report per opponent (A = the learned bot)."""
    os.environ["SHENGJI_CHECKPOINT"] = checkpoint  # the bot (and worker processes) read it
    rs = preset(preset_name)
    return [
        run_duplicate(rs, LEARNED, b, deals, seed, jobs, allow_import=True).to_dict()
        for b in against
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m shengji.ml.evaluate``."""
    ap = argparse.ArgumentParser(description="A checkpoint against bots, by duplicate deals.")
    ap.add_argument("--checkpoint", default=None, help="default: the shipped one")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--against", default="random,heuristic")
    ap.add_argument("--deals", type=int, default=100, help="duplicate deal pairs per opponent")
    ap.add_argument("--seed", default="eval")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    path = args.checkpoint or str(default_checkpoint(args.preset))
    if not os.path.exists(path):
        print(f"no checkpoint at {path}: train one with python -m shengji.ml.train",
              file=sys.stderr)
        return 2
    reports = evaluate(path, args.preset, [b.strip() for b in args.against.split(",")],
                       args.deals, args.seed, args.jobs)
    for r in reports:
        print(json.dumps(r) if args.json else format_duplicate(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
