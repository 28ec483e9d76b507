"""Level rate of one bot against another: the share of all levels gained that its team gains.

Each match seed is played twice, once with the bot on seats 0 and 2 and once on seats 1
and 3, so both teams get the same cards. Levels are counted as the arena counts them (the
level table's result of every deal, before must-play stops). Prints figures only.

``--mode match`` plays matches of up to 8 deals whose first dealer is the first declarer
(a side that keeps the deal defends again and again). ``--mode deal`` plays single deals
with the first dealer fixed, seat 0 and seat 1 in turn, so each team defends half the
deals and attacks the other half: the stricter figure.

    .venv/bin/python bench/level_rate.py [--bot heuristic] [--vs random] [--deals 400]
        [--preset classic] [--seed 1] [--jobs 2] [--mode match|deal]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from shengji.bots.driver import play_match
from shengji.bots.registry import make_bot
from shengji.core.match import team_of
from shengji.core.ruleset import preset

DEALS_PER_MATCH = 8


Job = tuple[str, str, str, str, bool, int | None, int]


def one_match(args: Job) -> tuple[int, int, int]:
    """Play one match; returns (deals, levels of the bot's team, levels of the other)."""
    name, bot, vs, seed, swapped, first_dealer, cap = args
    rs = preset(name)
    mine = 1 if swapped else 0
    bots = [
        make_bot(bot if team_of(s) == mine else vs, f"{seed}.{s}") for s in range(rs.players)
    ]
    state, _ = play_match(rs, bots, seed, deals=cap, first_dealer=first_dealer)
    levels = [0, 0]
    for summary in state.history:
        change = summary.result.change
        d_team = team_of(summary.dealer)
        if change.attackers_take_over:
            levels[1 - d_team] += change.attacker_levels
        else:
            levels[d_team] += change.defender_levels
    return len(state.history), levels[mine], levels[1 - mine]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--vs", default="random")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mode", choices=("match", "deal"), default="match")
    args = ap.parse_args()
    if args.mode == "match":
        setups: list[tuple[int | None, int]] = [(None, DEALS_PER_MATCH)]
    else:
        setups = [(0, 1), (1, 1)]
    start = time.perf_counter()
    deals = mine = theirs = 0
    n = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        while deals < args.deals:
            batch: list[Job] = [
                (args.preset, args.bot, args.vs, f"lr{args.seed}.{n + i}", swapped, fd, cap)
                for i in range(8)
                for swapped in (False, True)
                for fd, cap in setups
            ]
            n += 8
            for d, a, b in pool.map(one_match, batch):
                deals, mine, theirs = deals + d, mine + a, theirs + b
    rate = mine / (mine + theirs) if mine + theirs else float("nan")
    print(
        f"{args.bot} vs {args.vs}, preset {args.preset}, mode {args.mode}: {deals} deals "
        f"from {n} seeds x 2 seatings; "
        f"levels {mine} vs {theirs}; level rate {rate:.3f} "
        f"({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
