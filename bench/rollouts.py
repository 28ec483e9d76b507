"""Rollout cost: ms of CPU per playout from mid-deal to the end, per rollout policy.

Seeded classic deals are played by ``heuristic`` bots up to trick ``--trick`` (mid-deal); at
each such position the seat to act draws a world from its view (``sampler``) and the world
is played to the end with the policy in every seat, exactly as ``SearchBot`` does. Times are
CPU time of this thread (``time.thread_time``), so a busy shared machine does not skew them.

    .venv/bin/python bench/rollouts.py [--positions N] [--per N] [--trick T] [--profile]

Trees compared in the same run, interleaved (each run in its own process with that tree's
code; a compiled tree is one ``scripts/build_mypyc.sh`` built), saved as JSON:

    .venv/bin/python bench/rollouts.py --tree before=/path/old --tree now=. --rounds 3 \
        --positions 30 --per 4 --out bench/results/rollouts.json
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from shengji.bots.registry import make_bot
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot, rollout
from shengji.core.determinize import state_from_view
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView, view_for

SORT = os.environ.get("SORT", "tottime")


def positions(n: int, trick: int, seed: int) -> list[tuple[DealState, DealView]]:
    """``n`` deals at the start of trick ``trick`` (seeded), with the view of the seat to
    act."""
    rs = PRESETS["classic"]
    out: list[tuple[DealState, DealView]] = []
    k = 0
    while len(out) < n:
        bots = [make_bot("heuristic", f"{seed}.{k}.{s}") for s in range(rs.players)]
        m = MatchState.new(rs, f"{seed}.{k}", k % 4)
        k += 1
        while not (m.deal.phase is Phase.PLAYING and len(m.deal.tricks) == trick
                   and not m.deal.trick):
            if m.deal.phase is Phase.DONE:
                break
            seat = m.to_act
            assert seat is not None
            legal = m.legal_actions(seat)
            act = bots[seat].choose(view_for(m.deal, seat), legal) if seat >= 0 else None
            if act is None:
                act = legal.sample(random.Random(0))
            m, _ = m.apply_in_place(act)
        if m.deal.phase is Phase.PLAYING:
            seat = m.deal.to_act
            assert seat is not None
            out.append((m.deal, view_for(m.deal, seat)))
    return out


def measure(policy: str, views: Sequence[DealView], per: int, seed: int) -> list[float]:
    """CPU ms of each rollout (``per`` worlds at each view)."""
    return _measure(policy, views, per, seed)


def search_rates(where: Sequence[tuple[DealState, DealView]], think_ms: float) -> str:
    """Worlds and rollouts per CPU second of ``search:<think_ms>`` decisions at ``where``."""
    worlds = rollouts = 0
    cpu = 0.0
    for k, (deal, view) in enumerate(where):
        bot = SearchBot(seed=k, think_ms=think_ms)
        assert view.seat is not None
        bot.choose(view, deal.legal_actions(view.seat))
        for w, r, c in bot.stats:
            worlds, rollouts, cpu = worlds + w, rollouts + r, cpu + c
    n = len(where)
    return (f"search:{think_ms:g} over {n} decisions: {worlds / n:.1f} worlds and "
            f"{rollouts / n:.1f} rollouts per decision, {cpu / n * 1000:.0f} ms CPU each; "
            f"{worlds / cpu:.0f} worlds/s, {rollouts / cpu:.0f} rollouts/s")


def _measure(policy: str, views: Sequence[DealView], per: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    bots = [make_bot(policy, f"{seed}.{s}") for s in range(4)]
    for b in bots:  # as a search's rollouts play (search.rollout_players)
        if hasattr(b, "trusted"):
            b.trusted = True
    times: list[float] = []
    for v in views:
        for _ in range(per):
            hands, kitty = sample_hidden(v, rng)
            t0 = time.thread_time()
            world = state_from_view(v, hands, kitty)
            rollout(world, bots)
            times.append(1000 * (time.thread_time() - t0))
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--per", type=int, default=5, help="worlds per position")
    parser.add_argument("--trick", type=int, default=6, help="start at this trick (0 = first)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", action="append", help="rollout policy (repeatable)")
    parser.add_argument("--profile", action="store_true", help="profile the first policy")
    parser.add_argument("--search", type=float, default=0.0,
                        help="also run search:<ms> decisions at the positions: worlds/s")
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=PATH",
                        help="time this source tree too (repeat; runs interleaved)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree (--tree)")
    parser.add_argument("--out", help="save the trees' runs as JSON here (--tree)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.tree:
        return compare_trees(args)
    where = positions(args.positions, args.trick, args.seed)
    views = [v for _d, v in where]
    print(f"rollouts from trick {args.trick} of classic deals: {len(views)} positions x "
          f"{args.per} worlds; CPU ms per rollout")
    print(f"{'policy':<12} {'n':>4} {'mean':>7} {'median':>7} {'p95':>7} {'rollouts/s':>10}")
    rows = []
    for policy in args.policy or ["heuristic", "random"]:
        t = sorted(measure(policy, views, args.per, args.seed))
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        mean = statistics.fmean(t)
        print(f"{policy:<12} {len(t):>4} {mean:>7.2f} {statistics.median(t):>7.2f} "
              f"{p95:>7.2f} {1000 / mean:>10.0f}")
        rows.append({"policy": policy, "n": len(t), "mean_ms": round(mean, 4),
                     "median_ms": round(statistics.median(t), 4), "p95_ms": round(p95, 4)})
    if args.json:
        import shengji.bots.heuristic as h

        compiled = not (h.__file__ or "").endswith(".py")
        print(json.dumps({"compiled": compiled, "rows": rows}))
    if args.search:
        print(search_rates(where, args.search))
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        measure((args.policy or ["heuristic"])[0], views, args.per, args.seed)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(SORT).print_stats(40)
        print(buf.getvalue())
    return 0


def compare_trees(args: argparse.Namespace) -> int:
    """Time each ``--tree`` in its own process, the trees interleaved ``--rounds`` times."""
    pairs = [(label, Path(path).resolve()) for label, path in
             (t.split("=", 1) for t in args.tree)]
    here = Path(__file__).resolve().parent.parent
    runs = []
    for rnd in range(args.rounds):
        for label, tree in pairs:
            env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}:{here}")
            cmd = [sys.executable, str(Path(__file__).resolve()), "--json",
                   "--positions", str(args.positions), "--per", str(args.per),
                   "--trick", str(args.trick), "--seed", str(args.seed)]
            for policy in args.policy or ["heuristic"]:
                cmd += ["--policy", policy]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            got = json.loads(done.stdout.strip().splitlines()[-1])
            for row in got["rows"]:
                runs.append({"label": label, "tree": str(tree), "round": rnd,
                             "compiled": got["compiled"], **row})
                print(f"round {rnd} {label:>14} ({'compiled' if got['compiled'] else 'pure'}) "
                      f"{row['policy']:<10} mean {row['mean_ms']:.2f} ms, "
                      f"median {row['median_ms']:.2f}, p95 {row['p95_ms']:.2f}")
    for label, _tree in pairs:
        means = [r["mean_ms"] for r in runs if r["label"] == label]
        print(f"{label:>14}: mean of runs {statistics.fmean(means):.2f} ms "
              f"({', '.join(f'{m:.2f}' for m in means)})")
    if args.out:
        setup = {"positions": args.positions, "per": args.per, "trick": args.trick,
                 "seed": args.seed, "rounds": args.rounds}
        Path(args.out).write_text(json.dumps({"setup": setup, "runs": runs}, indent=1) + "\n")
        print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
