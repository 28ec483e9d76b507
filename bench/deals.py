"""Whole-deal benchmark: random bots play complete deals, one preset at a time, on one core.

A deal here is everything a game does: dealing card by card with live declarations (the
random bot declares now and then), the declaration window, the kitty, every trick (random
leads, sometimes throws, random legal follows) and the scoring, driven by
``shengji.bots.driver.play_match`` as the arena does (matches of up to 4 deals, new seed each).
Rates are per CPU second of this process (``time.process_time``), so a busy shared machine
does not skew them. Prints figures and asserts nothing. The fixed-partner two/three-deck
family runs by default; tournament, four-deck, find-friend, five-player and three-player
run when named with ``--preset`` or with ``--all``.

    .venv/bin/python bench/deals.py [--seconds N] [--seed S] [--preset P] [--all] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import sys
import time
from collections.abc import Sequence

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.ruleset import PRESETS
from shengji.core.views import DealView

MAIN = ("classic", "lianzhong", "bianfeng", "one-deck", "two-color", "three-deck")
LATER = tuple(name for name in PRESETS if name not in MAIN)
"""Every other preset (tournament, four-deck, find-friend, …): run with ``--all`` or by name."""
DEALS_PER_MATCH = 4


def pin_one_cpu() -> str:
    """Pin this process to one CPU where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


class CountingBot:
    """A random bot that counts its decisions (every ``choose`` call, declines included).

    It wraps rather than subclasses ``RandomBot``: a compiled class (``make mypyc``) cannot
    be subclassed by interpreted code."""

    calls = 0
    name = "random"

    def __init__(self, seed: str) -> None:
        self.bot = RandomBot(seed)

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        CountingBot.calls += 1
        return self.bot.choose(view, legal)


def run(name: str, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Play deals of preset ``name`` for about ``seconds`` of CPU time: (deals, actions,
    decisions, CPU seconds)."""
    rs = PRESETS[name]
    deals = actions = 0
    CountingBot.calls = 0
    n = 0
    start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds or deals == 0:
        bots = [CountingBot(f"{seed}.{n}.{k}") for k in range(rs.players)]
        state, record = play_match(rs, bots, f"{seed}.{n}", deals=DEALS_PER_MATCH)
        deals += len(state.history)
        actions += len(record.actions)
        n += 1
        elapsed = time.process_time() - start
    return deals, actions, CountingBot.calls, elapsed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU time per preset (≈)")
    parser.add_argument("--seed", type=int, default=1, help="seed of matches and bots")
    parser.add_argument("--preset", action="append", choices=sorted(PRESETS),
                        help="only this preset (repeatable)")
    parser.add_argument("--all", action="store_true",
                        help="also run " + ", ".join(LATER))
    parser.add_argument("--profile", action="store_true",
                        help="then profile classic: top 25 functions by own time")
    args = parser.parse_args(argv)
    names = args.preset or [*MAIN, *LATER]
    print(
        f"shengji deal benchmark: random bots, seed {args.seed}, "
        f"~{args.seconds:g} CPU s per preset, "
        f"Python {platform.python_version()} ({sys.implementation.name}) on "
        f"{platform.system()} {platform.machine()}, one process {pin_one_cpu()}"
    )
    print(f"{'preset':<20} {'deals':>6} {'deals/s':>8} {'ms/deal':>8} "
          f"{'actions/deal':>12} {'decisions/s':>11}   (per CPU second)")
    for name in names:
        if name in LATER and not (args.all or args.preset):
            print(f"{name:<20} (run with --all or --preset {name})")
            continue
        deals, actions, decisions, s = run(name, args.seconds, args.seed)
        print(
            f"{name:<20} {deals:>6} {deals / s:>8.1f} {1000 * s / deals:>8.2f} "
            f"{actions / deals:>12.0f} {decisions / s:>11.0f}"
        )
    if args.profile:
        print(f"\ncProfile, classic, ~{args.seconds:g} s (profiling slows everything down)")
        prof = cProfile.Profile()
        prof.enable()
        deals, *_ = run("classic", args.seconds, args.seed)
        prof.disable()
        buf = io.StringIO()
        stats = pstats.Stats(prof, stream=buf)
        stats.strip_dirs().sort_stats("tottime").print_stats(25)
        lines = buf.getvalue().splitlines()
        total = next((line.strip() for line in lines if "function calls" in line), "")
        start = next(i for i, line in enumerate(lines) if "ncalls" in line)
        print(f"{deals} deals; {total}; top 25 by tottime")
        print("\n".join(lines[start:]).rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
