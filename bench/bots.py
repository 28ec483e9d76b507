"""Decision time per bot: median, p95 and max of ``choose`` over whole deals.

Each named bot plays a few deals on seats 0 and 2 against random bots on 1 and 3 (classic
by default); every call of its ``choose`` is timed, declarations while dealing included.
Prints figures only.

    .venv/bin/python bench/bots.py [--bots random,heuristic] [--deals 10] [--preset classic]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from shengji.bots.base import Bot
from shengji.bots.driver import play_match
from shengji.bots.registry import make_bot
from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.ruleset import preset
from shengji.core.views import DealView


class Timed:
    """Times every decision of a bot, by kind of decision."""

    def __init__(self, bot: Bot, times: dict[str, list[float]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        t = time.perf_counter()
        out = self.bot.choose(view, legal)
        dt = time.perf_counter() - t
        self.times.setdefault(legal.kind, []).append(dt)
        self.times.setdefault("all", []).append(dt)
        return out


def _fmt(xs: list[float]) -> str:
    s = sorted(xs)
    p95 = s[min(len(s) - 1, int(0.95 * len(s)))]
    return (
        f"n {len(s):5d}  median {1000 * statistics.median(s):6.3f} ms  "
        f"p95 {1000 * p95:6.3f} ms  max {1000 * s[-1]:7.2f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="random,heuristic")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args()
    rs = preset(args.preset)
    for name in args.bots.split(","):
        times: dict[str, list[float]] = {}
        counts: Counter[str] = Counter()
        for i in range(args.deals):
            bots: list[Bot] = [
                Timed(make_bot(name, f"{args.seed}.{i}.{s}"), times)
                if s % 2 == 0
                else make_bot("random", f"{args.seed}.{i}.{s}")
                for s in range(rs.players)
            ]
            play_match(rs, bots, f"bench-bots.{args.seed}.{i}", deals=1)
            counts["deals"] += 1
        print(f"{name} ({args.preset}, {counts['deals']} deals)")
        for kind in ("all", "list", "bury", "lead", "follow"):
            if kind in times:
                print(f"  {kind:7s}{_fmt(times[kind])}")


if __name__ == "__main__":
    main()
