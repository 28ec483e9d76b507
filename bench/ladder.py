"""The ladder: each bot against ``heuristic`` in duplicate deals, resumable, with a chart.

Every rung plays the same seeded deal pairs as ``shengji arena --duplicate --bots X,heuristic
--seed S`` (``bots.duplicate.play_pair``, seeds ``S.0``, ``S.1``, …). Each finished pair is
appended to ``<out>/<rung>.jsonl`` at once, so a long run can be stopped, polled and resumed;
``--report`` summarises what is there (95% intervals) and draws ``<out>/ladder.svg``; a rung
in ``<out>/ladder.json`` with no pairs file here keeps its earlier figures.
Decision times are CPU time of the deciding thread.

    .venv/bin/python bench/ladder.py --rungs random,beginner,search:300,cheat --pairs 300
    .venv/bin/python bench/ladder.py --report      # the table and bench/results/ladder.svg
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from shengji.bots.duplicate import DuplicateReport, PairResult, mean_ci, play_pair
from shengji.core.ruleset import PRESETS

OUT = Path(__file__).parent / "results"
BASE = "heuristic"


def rung_file(out: Path, rung: str) -> Path:
    """Where a rung's pairs go (``search:300`` -> ``search-300.jsonl``)."""
    return out / (rung.replace(":", "-") + ".jsonl")


def run(rung: str, pairs: int, seed: int, out: Path, first: int = 0) -> None:
    """Play the pairs ``first``..``pairs - 1`` of ``rung`` not played yet (by index),
    appending each one (several processes may share a rung with disjoint ranges)."""
    path = rung_file(out, rung)
    done = {json.loads(line)["i"] for line in path.read_text().splitlines()} \
        if path.exists() else set()
    with path.open("a") as f:
        for i in range(first, pairs):
            if i in done:
                continue
            r = play_pair(PRESETS["classic"], rung, BASE, f"{seed}.{i}", allow_import=True)
            f.write(json.dumps({"i": i, "seed": seed, **asdict(r)}) + "\n")
            f.flush()


def summary(out: Path, rung: str) -> dict[str, Any] | None:
    """The rung's duplicate figures over the pairs so far."""
    path = rung_file(out, rung)
    if not path.exists():
        return None
    rep = DuplicateReport("classic", rung, BASE)
    for line in path.read_text().splitlines():
        d = json.loads(line)
        d.pop("i"), d.pop("seed")
        rep.add(PairResult(**d))
    return rep.to_dict() if rep.pairs else None


def paired(out: Path, a: str, b: str) -> dict[str, Any]:
    """Rung ``a`` minus rung ``b`` in signed levels per deal, over the pairs (same seeds)
    both played: the same deals, so the deals' luck cancels."""
    def load(rung: str) -> dict[int, float]:
        lines = rung_file(out, rung).read_text().splitlines()
        return {(d := json.loads(line))["i"]: d["signed_levels"] for line in lines}

    la, lb = load(a), load(b)
    both = sorted(la.keys() & lb.keys())
    return {"a": a, "b": b, "pairs": len(both),
            "signed_levels_per_deal": mean_ci([la[i] - lb[i] for i in both])}


def svg(rows: Sequence[dict[str, Any]]) -> str:
    """A hand-drawn chart: signed levels per deal against ``heuristic``, 95% intervals."""
    w, row_h, left, right = 860, 34, 210, 200
    h = 60 + row_h * len(rows)
    lo: float = min([-0.5, *(r["signed_levels_per_deal"]["lo"] for r in rows)])
    hi: float = max([0.5, *(r["signed_levels_per_deal"]["hi"] for r in rows)])

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (w - left - right)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           '<text x="10" y="18" font-weight="bold">Signed levels per deal against '
           'heuristic (duplicate, classic, 95% intervals)</text>',
           f'<line x1="{x(0):.1f}" y1="28" x2="{x(0):.1f}" y2="{h - 24}" stroke="#888"/>',
           f'<text x="{x(0) + 4:.1f}" y="36" fill="#666">heuristic</text>']
    for v in (lo, 0.0, hi):
        out.append(f'<text x="{x(v):.1f}" y="{h - 8}" text-anchor="middle">{v:+.2f}</text>')
    for k, r in enumerate(rows):
        y = 44 + k * row_h
        s = r["signed_levels_per_deal"]
        ms = r["decision_ms"]["a"]["median"]
        label = f'{r["bot_a"]} ({r["pairs"]} pairs)'
        out += [
            f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{label}</text>',
            f'<line x1="{x(s["lo"]):.1f}" y1="{y}" x2="{x(s["hi"]):.1f}" y2="{y}" '
            f'stroke="#36c" stroke-width="3"/>',
            f'<circle cx="{x(s["mean"]):.1f}" cy="{y}" r="5" fill="#036"/>',
            f'<text x="{x(s["hi"]) + 6:.1f}" y="{y + 4}">{s["mean"]:+.3f}'
            f'{"" if ms is None else f"  ({ms:.1f} ms median)"}</text>',
        ]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rungs", default="random,beginner,search:300,search:1000,cheat",
                        help="bots played against heuristic, comma-separated")
    parser.add_argument("--pairs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--first", type=int, default=0,
                        help="start at this pair index (to split a rung over processes)")
    parser.add_argument("--report", action="store_true", help="summarise and draw only")
    parser.add_argument("--paired", metavar="A,B",
                        help="only compare two rungs on the pairs both played: A - B")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.paired:
        a, b = args.paired.split(",")
        d = paired(args.out, a.strip(), b.strip())
        s = d["signed_levels_per_deal"]
        print(f"{a} - {b}: {d['pairs']} pairs, signed levels/deal {s['mean']:+.3f} "
              f"[{s['lo']:+.3f}, {s['hi']:+.3f}]")
        return 0
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    if not args.report:
        for rung in rungs:
            run(rung, args.pairs, args.seed, args.out, args.first)
    rows = []
    known = sorted(p.stem for p in args.out.glob("*.jsonl"))
    for stem in known:
        rung = stem.replace("-", ":") if stem.startswith("search-") else stem
        d = summary(args.out, rung)
        if d is None:
            continue
        s, t = d["signed_levels_per_deal"], d["decision_ms"]["a"]
        if d["pairs"] < 2:
            print(f"{rung:<14} {d['pairs']:>4} pair: too few for an interval")
            continue
        rows.append(d)
        print(f"{rung:<14} {d['pairs']:>4} pairs  signed levels/deal {s['mean']:+.3f} "
              f"[{s['lo']:+.3f}, {s['hi']:+.3f}]  level rate {d['level_rate']['mean'] or 0:.3f}  "
              f"decision ms median {t['median']} p95 {t['p95']}")
    old = args.out / "ladder.json"
    if rows and old.exists():
        # rungs measured earlier whose pairs are not here (not rerun) keep their figures
        have = {r["bot_a"] for r in rows}
        rows += [r for r in json.loads(old.read_text()) if r["bot_a"] not in have]
    if rows:
        rows.sort(key=lambda r: _rank(r["bot_a"]))
        (args.out / "ladder.svg").write_text(svg(rows))
        (args.out / "ladder.json").write_text(json.dumps(rows, indent=1) + "\n")
        print(f"chart: {os.path.relpath(args.out / 'ladder.svg')}")
    return 0


def _rank(bot: str) -> tuple[int, str, float, str]:
    """Chart order: weakest kinds first, ``cheat`` last, a bot's budgets by size
    (``search:300`` before ``search:1000``)."""
    base, _, rest = bot.partition(":")
    budget = rest.split(":")[0].rstrip("w")
    order = {"random": 0, "beginner": 1, "cheat": 99}
    return (order.get(base, 10), base, float(budget) if budget.isdigit() else 0.0, bot)


if __name__ == "__main__":
    raise SystemExit(main())
