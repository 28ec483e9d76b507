"""How close sampled worlds are to the real deal, by inference level (no rollouts).

Seeded classic deals are played by ``heuristic`` in every seat; at drawn play decisions the
seat to act samples worlds from its view. A world's accuracy is the share of the hidden
cards (other hands and, for a seat that did not bury, the kitty) it places where they really
are. ``draws`` is ``SearchBot(draws=k)``'s filter: of ``k`` draws, the world whose other seats'
plays the heuristic explains best (``plausible.misses``); ``plain`` is one draw without the
follows' structure evidence (voids and pinned cards only, as before it); a ``d`` after the
number (``1t``, ``4t``) weighs in the soft evidence of how the other seats followed
(``sampler.tells``). Times are CPU ms per world kept.

    .venv/bin/python bench/worlds.py --positions 60 --worlds 6 --draws plain,1,4,8,16
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot

RESULTS = Path(__file__).parent / "results"


def accuracy(true_hands: Sequence[Sequence[int]], hands: Sequence[Sequence[int]],
             seat: int) -> float:
    """Share of the other seats' cards that ``hands`` places in the right hand."""
    right = total = 0
    for s, (t, h) in enumerate(zip(true_hands, hands, strict=True)):
        if s == seat:
            continue
        right += sum(min(a, b) for a, b in zip(t, h, strict=True))
        total += sum(t)
    return right / total if total else 1.0


def main(argv: Sequence[str] | None = None) -> int:
    from decisions import positions  # bench/decisions.py: the same seeded positions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=6, help="worlds kept per position")
    parser.add_argument("--draws", default="1,4,8")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=RESULTS / "worlds.json")
    args = parser.parse_args(argv)
    where = [p for p in positions(args.positions, args.seed) if p.view.friend_call is None]
    report: dict[str, dict[str, float]] = {}
    print(f"{len(where)} positions, {args.worlds} worlds each")
    print(f"{'draws':>5} {'accuracy':>9} {'early':>7} {'late':>7} {'ms/world':>9}")
    for name in args.draws.split(","):
        plain = name == "plain"  # no evidence from the follows' structure either
        with_tells = name.endswith("t")  # "1t", "4t": the follows' tells too
        k = 1 if plain else int(name.rstrip("t"))
        acc: list[float] = []
        early: list[float] = []
        late: list[float] = []
        cpu = 0.0
        for i, p in enumerate(where):
            assert p.view.seat is not None
            bot = SearchBot(seed=f"w.{i}", draws=k, tells=with_tells)
            bot.rng = random.Random(i)
            for _ in range(args.worlds):
                t0 = time.thread_time()
                hands, _kitty = (sample_hidden(p.view, bot.rng, follows=False) if plain
                                 else bot.world(p.view))
                cpu += time.thread_time() - t0
                a = accuracy(p.hands, hands, p.view.seat)
                acc.append(a)
                (early if p.trick < 8 else late).append(a)
        ms = 1000 * cpu / len(acc)
        report[name] = {"accuracy": statistics.fmean(acc), "early": statistics.fmean(early),
                          "late": statistics.fmean(late), "cpu_ms_per_world": ms}
        r = report[name]
        print(f"{name:>5} {r['accuracy']:>9.3f} {r['early']:>7.3f} {r['late']:>7.3f} {ms:>9.1f}")
    args.out.write_text(json.dumps({"positions": len(where), "worlds": args.worlds,
                                    "seed": args.seed, "draws": report}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
