"""竞标 with and without the minimum bid: winning bids and levels moved per deal.

Plays ``--deals`` deals of ``three-player`` with heuristic bots (and, for the auctions the
floor is for, random bots) twice from the same seeds:
``bid_min`` 0 (one step, the floor before the field existed) and the preset's ``bid_min``.
Counts each deal's winning bid (the attackers' target) and the levels its result gives: the
dealer's gain when it holds the attackers under the target, else each attacker's (before a
match's last level cuts it short). Prints the figures and writes them as
JSON; asserts nothing.

    PYTHONPATH=src .venv/bin/python bench/bid_floor.py --out bench/results/bid_floor.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from typing import Any

from shengji.bots.base import Bot
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.core.ruleset import PRESETS, Ruleset


def _bots(kind: str, seed: str, players: int) -> list[Bot]:
    if kind == "random":
        return [RandomBot(f"{seed}/{p}") for p in range(players)]
    return [HeuristicBot() for _ in range(players)]


def deal_figures(
    ruleset: Ruleset, deals: int, seed: str, kind: str = "heuristic"
) -> list[tuple[int, str, int]]:
    """``(target, side, levels)`` of each of ``deals`` deals, matches played back to back."""
    out: list[tuple[int, str, int]] = []
    match = 0
    while len(out) < deals:
        bots = _bots(kind, f"{seed}/{match}", ruleset.players)
        state, _ = play_match(ruleset, bots, seed=f"{seed}/{match}", deals=deals - len(out))
        for d in state.history:
            res = d.result
            assert res.target is not None
            ch = res.change
            if ch.defender_levels:
                out.append((res.target, "dealer", ch.defender_levels))
            else:
                out.append((res.target, "attackers", ch.attacker_levels))
        match += 1
    return out[:deals]


def summary(figures: list[tuple[int, str, int]]) -> dict[str, Any]:
    """Distributions of the winning bids and the levels moved."""
    targets = [t for t, _, _ in figures]
    moved = Counter((side, n) for _, side, n in figures)
    return {
        "deals": len(figures),
        "winning_bid": {str(k): v for k, v in sorted(Counter(targets).items())},
        "winning_bid_min": min(targets),
        "winning_bid_median": statistics.median(targets),
        "levels_moved": {f"{side} +{n}": k for (side, n), k in sorted(moved.items())},
        "levels_moved_mean": round(statistics.fmean(n for _, _, n in figures), 3),
        "levels_moved_max": max(n for _, _, n in figures),
        "attackers_plus_4_or_more": sum(1 for _, s, n in figures if s == "attackers" and n >= 4),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", default="bid-floor")
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    base = PRESETS["three-player"]
    runs = {
        "before (bid_min 0: one step)": base.replace({"bid_min": 0}),
        f"after (bid_min {base.bid_min})": base,
    }
    report: dict[str, Any] = {"preset": "three-player", "seed": args.seed}
    for kind in ("heuristic", "random"):
        report[kind] = {}
        for label, rs in runs.items():
            report[kind][label] = summary(deal_figures(rs, args.deals, args.seed, kind))
            print(kind, label, json.dumps(report[kind][label], ensure_ascii=False),
                  file=sys.stderr)
    text = json.dumps(report, ensure_ascii=False, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
