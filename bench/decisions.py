"""Decision quality of search variants, judged in the true deal (a cheap proxy for the ladder).

Seeded classic deals are played by ``heuristic`` in every seat; play decisions with more
than one legal play are drawn from them at random. At each such position the truth is
known: every candidate a variant could pick is played to the end of the deal *in the true
deal* with heuristic rollouts (exactly what the omniscient ``cheat`` does), and its deal
value (``search.deal_value``) is compared with that of the heuristic's own choice. A
variant's score is its mean gain per decision over the heuristic (levels), with a 95%
interval; ``oracle`` is the best of cheat's candidates (the omniscient bound). Gains of one
decision do not add up over a deal (later decisions repair earlier ones): the figure ranks
variants, and the ladder (``bench/ladder.py``) measures levels per deal.

A variant is ``name=key:value,...`` over ``SearchBot``'s knobs: ``ms`` (CPU think time),
``w`` (fixed worlds), ``margin``, ``conf``, ``cands``, ``minw``, ``rollout``, ``draws``,
``tells`` (1: weigh in the follows' tells, ``sampler.tells``), ``bury`` (1: search the burial
too; with ``--bury``), ``end`` (cards a seat at most for a world to be solved exactly, 0:
never), ``need`` (0: the budget as before, no budget by need), ``window`` (1: judge the
declaring window too); ``truth`` (a diagnostic: this
share of the worlds is the true deal, to see how accurate worlds must be for a gain).

    .venv/bin/python bench/decisions.py --positions 400 --jobs 2 \\
        --variant base=ms:300 --variant bold=ms:300,conf:1,margin:0
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shengji.bots.cheat import CheatBot
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.search import SearchBot, deal_value, rollout
from shengji.core.actions import Action, Bury, Play
from shengji.core.determinize import burial_searchable, state_after_burial, state_from_view
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.views import DealView, view_for

RESULTS = Path(__file__).parent / "results"


@dataclass
class Position:
    """One play decision of a seeded heuristic deal, with the truth behind it."""

    view: DealView
    hands: list[list[int]]
    kitty: list[int]
    trick: int
    legal: Any = None
    """A burial's legal actions (a play decision's are rebuilt from the world)."""


def positions(n: int, seed: int, bury: bool = False, late: int = 0) -> list[Position]:
    """``n`` play decisions (more than one legal play) drawn from seeded heuristic deals;
    ``bury``: ``n`` burials instead, one a deal (where ``burial_searchable``); ``late``:
    only decisions where no seat holds more than ``late`` cards (half of them drawn)."""
    rs = PRESETS["classic"]
    rng = random.Random(seed)
    out: list[Position] = []
    k = 0
    while len(out) < n:
        bots = [HeuristicBot(f"{seed}.{k}.{s}") for s in range(rs.players)]
        m = MatchState.new(rs, f"{seed}.{k}", k % 4)
        k += 1
        deals = len(m.history)
        while len(m.history) == deals:
            seat = m.to_act
            assert seat is not None
            legal = m.legal_actions(seat)
            view = view_for(m.deal, seat) if seat >= 0 else None
            act = bots[seat].choose(view, legal) if view is not None else None
            if act is None:
                act = legal.sample(random.Random(0))
            if bury:
                if m.deal.phase is Phase.BURYING and view is not None \
                        and burial_searchable(view):
                    out.append(Position(view, [list(h) for h in m.deal.hands],
                                        list(m.deal.kitty), 0, legal))
                    break
            elif (m.deal.phase is Phase.PLAYING and view is not None and _choices(legal) > 1
                    and (not late or max(m.deal.hand_sizes) <= late)
                    and rng.random() < (0.5 if late else 0.1)):
                out.append(Position(view, [list(h) for h in m.deal.hands],
                                    list(m.deal.kitty), len(m.deal.tricks)))
            m, _ = m.apply(act)
    return out[:n]


def _choices(legal: Any) -> int:
    """How many legal plays (up to two: all that matters here)."""
    n = 0
    for _ in legal:
        n += 1
        if n > 1:
            break
    return n


def truth(pos: Position, action: Action, players: list[Any]) -> float:
    """Deal value of ``action`` for the seat to act, played out in the true deal."""
    assert pos.view.seat is not None
    if isinstance(action, Bury):
        world = state_after_burial(pos.view, pos.hands, action.cards)
    else:
        world = state_from_view(pos.view, pos.hands, pos.kitty)
        world.apply_in_place(action)
    return deal_value(rollout(world, players), pos.view.seat)


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """``"bold=ms:300,conf:1"`` → ``("bold", {"think_ms": 300.0, "confidence": 1.0})``."""
    name, _, spec = text.partition("=")
    keys = {"ms": ("think_ms", float), "w": ("samples", int), "margin": ("margin", float),
            "conf": ("confidence", float), "cands": ("max_candidates", int),
            "minw": ("min_worlds", int), "rollout": ("rollout", str), "draws": ("draws", int),
            "tells": ("tells", lambda v: v == "1"), "bury": ("bury", lambda v: v == "1"),
            "truth": ("truth", float), "chains": ("chains", int), "end": ("endgame", int),
            "need": ("need", lambda v: v == "1"), "window": ("window", lambda v: v == "1")}
    kwargs: dict[str, Any] = {}
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition(":")
        field, kind = keys[key]
        kwargs[field] = kind(value)
    return name, kwargs


_POSITIONS: list[Position] = []
"""The positions, drawn again in each worker process (a compiled build's views do not
unpickle: mypyc's frozen classes refuse ``__setattr__``)."""


def _draw(n: int, seed: int, bury: bool, late: int) -> None:
    _POSITIONS[:] = positions(n, seed, bury, late)


def _work(job: tuple[int, list[str]]) -> dict[str, Any]:
    idx, variants = job
    pos = _POSITIONS[idx]
    view = pos.view
    assert view.seat is not None
    players = [HeuristicBot(f"truth.{k}") for k in range(6)]
    cache: dict[tuple[int, ...], float] = {}

    def value(action: Action) -> float:
        key = tuple(sorted(action.cards)) if isinstance(action, Play | Bury) else ()
        if key not in cache:
            cache[key] = truth(pos, action, players)
        return cache[key]

    legal = _legal(pos)
    h = HeuristicBot(f"h.{idx}").choose(view, legal)
    assert h is not None
    base = value(h)
    if view.phase is Phase.BURYING:
        alternatives: list[Action] = list(SearchBot(f"o.{idx}").burials(view, _legal(pos)))
    else:
        alternatives = list(CheatBot(f"o.{idx}").candidates(view, _legal(pos)))
    oracle = max(value(a) for a in alternatives)
    row: dict[str, Any] = {"i": idx, "trick": pos.trick,
                           "oracle": oracle - base, "gain": {}, "cpu": {}, "worlds": {}}
    for text in variants:
        name, kwargs = parse_variant(text)
        share = kwargs.pop("truth", 0.0)
        bot = SearchBot(seed=f"v.{idx}", **kwargs)
        if share:
            _with_truth(bot, pos, share, random.Random(f"t.{idx}"))
        t0 = time.thread_time()
        choice = bot.choose(view, _legal(pos))
        row["cpu"][name] = time.thread_time() - t0
        assert choice is not None
        row["gain"][name] = value(choice) - base
        row["worlds"][name] = bot.stats[-1][0] if bot.stats else 0
    return row


def _with_truth(bot: SearchBot, pos: Position, share: float, rng: random.Random) -> None:
    """A diagnostic, not a bot: ``share`` of ``bot``'s worlds are the true deal, the rest
    drawn as usual (how accurate worlds must be for the search to gain; pure Python only,
    a compiled ``SearchBot`` takes no instance override)."""
    drawn = bot.world

    def world(view: DealView) -> tuple[list[list[int]], list[int]]:
        if rng.random() < share:
            return [list(h) for h in pos.hands], list(pos.kitty)
        return drawn(view)

    bot.world = world  # type: ignore[method-assign]


def _legal(pos: Position) -> Any:
    assert pos.view.seat is not None
    if pos.legal is not None:
        return pos.legal
    return state_from_view(pos.view, pos.hands, pos.kitty).legal_actions(pos.view.seat)


def _summary(values: Sequence[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"per_decision": mean, "lo": mean - 1.96 * se, "hi": mean + 1.96 * se}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bury", action="store_true",
                        help="burials (one a deal) instead of play decisions")
    parser.add_argument("--late", type=int, default=0, metavar="CARDS",
                        help="only decisions where no seat holds more than CARDS cards")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--out", type=Path, default=RESULTS / "decisions.json")
    args = parser.parse_args(argv)
    variants = args.variant or ["base=ms:300"]
    t0 = time.monotonic()
    where = positions(args.positions, args.seed, args.bury, args.late)
    print(f"{len(where)} positions in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    jobs = [(i, variants) for i in range(len(where))]
    rows: list[dict[str, Any]] = []
    _POSITIONS[:] = where
    with multiprocessing.Pool(args.jobs, _draw, (args.positions, args.seed, args.bury, args.late)) \
            if args.jobs > 1 else contextlib.nullcontext() as pool:
        done = pool.imap_unordered(_work, jobs) if pool is not None else map(_work, jobs)
        for k, row in enumerate(done, 1):
            rows.append(row)
            if k % 50 == 0:
                print(f"  {k}/{len(jobs)} ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    names = [parse_variant(v)[0] for v in variants]
    report: dict[str, Any] = {"positions": len(rows), "seed": args.seed,
                              "variants": dict(zip(names, variants, strict=True)),
                              "oracle": _summary([r["oracle"] for r in rows])}
    print(f"{'variant':<14} {'gain/decision':>14} {'95% interval':>22} {'nonzero':>8} "
          f"{'worlds':>7} {'cpu ms med/p95':>15}")
    o = report["oracle"]
    print(f"{'oracle':<14} {o['per_decision']:>+14.4f} [{o['lo']:+.4f}, {o['hi']:+.4f}]")
    for name in names:
        gains = [r["gain"][name] for r in rows]
        cpu = sorted(1000 * r["cpu"][name] for r in rows)
        s = _summary(gains)
        s["nonzero_share"] = sum(1 for g in gains if g != 0) / len(gains)
        s["worlds_mean"] = statistics.fmean(r["worlds"][name] for r in rows)
        s["cpu_ms_median"] = statistics.median(cpu)
        s["cpu_ms_p95"] = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        report[name] = s
        print(f"{name:<14} {s['per_decision']:>+14.4f} [{s['lo']:+.4f}, {s['hi']:+.4f}] "
              f"{s['nonzero_share']:>8.2f} {s['worlds_mean']:>7.1f} "
              f"{s['cpu_ms_median']:>7.0f}/{s['cpu_ms_p95']:.0f}")
    for name in names[1:]:  # paired on the same positions against the first variant
        diff = [r["gain"][name] - r["gain"][names[0]] for r in rows]
        d = _summary(diff)
        report[f"{name} - {names[0]}"] = d
        print(f"{name} - {names[0]}: {d['per_decision']:+.4f} [{d['lo']:+.4f}, {d['hi']:+.4f}]"
              f" (paired; {sum(1 for x in diff if x != 0)} of {len(diff)} differ)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": report, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
