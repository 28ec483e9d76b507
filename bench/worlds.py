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
from typing import Any

from shengji.bots.heuristic import HeuristicBot
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot
from shengji.core.cards import points
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.views import view_for

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


def follow(deals: int, worlds: int, variants: list[str], seed: int) -> dict[str, Any]:
    """Worlds drawn at every play decision of seeded heuristic deals, in order, by one
    ``SearchBot`` per seat and variant (chains carry over between a seat's decisions):
    accuracy early (tricks 0-7) and late, CPU ms per world; where another seat buried the
    kitty, the share of its cards the world puts there and how far off the world's kitty
    points are (mean absolute error). ``c12x6b2``: 12 chains, 6
    swaps per world, beta 2; a number: best of that many draws; a ``k`` after either: the
    kitty inferred from the burial too (``SearchBot(burial=True)``); a ``w`` after that: the
    declaring window judged too (``SearchBot(window=True)``)."""
    rs = PRESETS["classic"]
    out: dict[str, Any] = {}
    for name in variants:
        acc: list[float] = []
        early: list[float] = []
        late: list[float] = []
        cpu = 0.0
        proposed = accepted = 0
        kitty_right: list[float] = []
        kitty_off: list[float] = []
        for k in range(deals):
            spec = name.removesuffix("w")
            kw: dict[str, Any] = {"burial": spec.endswith("k"), "window": spec != name}
            spec = spec.removesuffix("k")
            if spec.startswith("c"):
                count, rest = spec[1:].split("x")
                steps, beta = rest.split("b")
                kw |= {"chains": int(count), "chain_steps": int(steps), "beta": float(beta)}
            else:
                kw |= {"draws": int(spec), "chains": 0}
            searchers = [SearchBot(seed=f"wf.{k}.{s}", **kw) for s in range(rs.players)]
            bots = [HeuristicBot(f"{seed}.{k}.{s}") for s in range(rs.players)]
            m = MatchState.new(rs, f"{seed}.{k}", k % 4)
            while not m.history:
                seat = m.to_act
                assert seat is not None
                legal = m.legal_actions(seat)
                view = view_for(m.deal, seat) if seat >= 0 else None
                act = bots[seat].choose(view, legal) if view is not None else None
                if act is None:
                    act = legal.sample(random.Random(0))
                if m.deal.phase is Phase.PLAYING and view is not None:
                    for _ in range(worlds):
                        t0 = time.thread_time()
                        hands, kitty = searchers[seat].world(view)
                        cpu += time.thread_time() - t0
                        if view.kitty is None and m.deal.kitty:
                            true = list(m.deal.kitty)
                            kitty_right.append(sum(min(true.count(c), kitty.count(c))
                                                   for c in set(true)) / len(true))
                            kitty_off.append(abs(sum(map(points, kitty))
                                                 - sum(map(points, true))))
                        a = accuracy(m.deal.hands, hands, seat)
                        acc.append(a)
                        (early if len(m.deal.tricks) < 8 else late).append(a)
                m, _ = m.apply(act)
            for b in searchers:
                if b.chains is not None:
                    proposed += b.chains.proposed
                    accepted += b.chains.accepted
        ms = 1000 * cpu / len(acc)
        out[name] = {"accuracy": statistics.fmean(acc), "early": statistics.fmean(early),
                     "late": statistics.fmean(late), "cpu_ms_per_world": ms,
                     "accepted": accepted / proposed if proposed else None,
                     "kitty": statistics.fmean(kitty_right),
                     "kitty_points_off": statistics.fmean(kitty_off)}
        r = out[name]
        print(f"{name:>9} {r['accuracy']:>9.3f} {r['early']:>7.3f} {r['late']:>7.3f} "
              f"{ms:>9.1f} {r['kitty']:>6.3f} {r['kitty_points_off']:>8.1f}", flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    from decisions import positions  # bench/decisions.py: the same seeded positions

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=6, help="worlds kept per position")
    parser.add_argument("--draws", default="1,4,8")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=RESULTS / "worlds.json")
    parser.add_argument("--follow", type=int, default=0, metavar="DEALS",
                        help="follow DEALS whole deals in order (chains carry over)")
    args = parser.parse_args(argv)
    if args.follow:
        print(f"{args.follow} deals followed, {args.worlds} worlds a decision")
        print(f"{'draws':>9} {'accuracy':>9} {'early':>7} {'late':>7} {'ms/world':>9} "
              f"{'kitty':>6} {'pts off':>8}")
        report = follow(args.follow, args.worlds, args.draws.split(","), args.seed)
        args.out.write_text(json.dumps({"deals": args.follow, "worlds": args.worlds,
                                        "seed": args.seed, "follow": report}, indent=1) + "\n")
        return 0
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
            bot = SearchBot(seed=f"w.{i}", draws=k, tells=with_tells, chains=0)
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
