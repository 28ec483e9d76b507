"""The training curve as a hand-written SVG: level rate against ``random`` (with its 95%
interval) by minutes of training, one colour per phase (imitation warm start, PPO
self-play). Logs are read in order and their clocks laid end to end.

>>> pts = [Point(1.5, 0.6, 0.5, 0.7, "imitation", 16000), Point(9.0, 0.7, 0.6, 0.8, "ppo", 900)]
>>> svg = curve_svg(pts, "classic")
>>> svg.startswith("<svg") and svg.count("<circle") == 2 + 2  # points, legend
True
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from html import escape
from typing import Any, NamedTuple

W, H, L, R, T, B = 680, 390, 70, 30, 60, 70
COLOURS = {"imitation": "#ff7f0e", "ppo": "#1f77b4", "scratch": "#2ca02c"}
LABELS = {"imitation": "imitation of heuristic (epochs)", "ppo": "PPO self-play",
          "scratch": "PPO from scratch"}


class Point(NamedTuple):
    """One evaluation: minutes since training began, level rate and its interval, the
    phase and the deals that phase had played (imitation: demonstration deals)."""

    minutes: float
    rate: float
    lo: float
    hi: float
    phase: str
    deals: int


def curve_svg(points: Sequence[Point], title: str) -> str:
    """An SVG document (as text) of ``points``."""
    xmax = max(p.minutes for p in points) or 1.0

    def x(m: float) -> float:
        return L + m / xmax * (W - L - R)

    def y(r: float) -> float:
        return T + (1 - r) * (H - T - B)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
        "Level rate against random by minutes of training (95% intervals)</text>",
        f'<text x="{W / 2}" y="40" text-anchor="middle" fill="#555">{escape(title)}</text>',
    ]
    for r in (0.0, 0.25, 0.5, 0.75, 0.85, 1.0):
        dash = ' stroke-dasharray="4 3"' if r in (0.5, 0.85) else ""
        out.append(f'<line x1="{L}" y1="{y(r):.1f}" x2="{W - R}" y2="{y(r):.1f}" '
                   f'stroke="#ccc"{dash}/>')
        out.append(f'<text x="{L - 8}" y="{y(r) + 4:.1f}" text-anchor="end">{r:.2f}</text>')
    for k in range(5):
        m = xmax * k / 4
        out.append(f'<text x="{x(m):.1f}" y="{H - B + 18}" text-anchor="middle">{m:.0f}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - B + 36}" text-anchor="middle">'
               "minutes of training (wall clock on this 2-core machine)</text>")
    for scratch in (False, True):  # one line through the warm-started run, one through scratch
        line = [p for p in points if (p.phase == "scratch") == scratch]
        if line:
            path = " ".join(f"{'M' if i == 0 else 'L'}{x(p.minutes):.1f},{y(p.rate):.1f}"
                            for i, p in enumerate(line))
            out.append(f'<path d="{path}" fill="none" stroke="#999" stroke-width="1.5"/>')
    for p in points:
        c = COLOURS.get(p.phase, "#2ca02c")
        out.append(f'<line x1="{x(p.minutes):.1f}" y1="{y(p.lo):.1f}" x2="{x(p.minutes):.1f}" '
                   f'y2="{y(p.hi):.1f}" stroke="{c}"/>')
        out.append(f'<circle cx="{x(p.minutes):.1f}" cy="{y(p.rate):.1f}" r="4" fill="{c}"/>')
    phases = list(dict.fromkeys(p.phase for p in points))
    for i, ph in enumerate(phases):
        lx = L + 10 + i * 200
        out.append(f'<circle cx="{lx}" cy="{H - 12}" r="4" fill="{COLOURS.get(ph, "#2ca02c")}"/>')
        out.append(f'<text x="{lx + 10}" y="{H - 8}">{escape(LABELS.get(ph, ph))}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def points_of(logs: Sequence[Sequence[dict[str, Any]]], phase: str | None = None) -> list[Point]:
    """The evaluated entries of training logs (``imitate --curve``, ``train --curve``),
    their clocks laid end to end in the order given (``phase``: for every entry)."""
    out: list[Point] = []
    offset = 0.0
    for log in logs:
        last = 0.0
        for e in log:
            last = max(last, float(e.get("seconds", 0.0)))
            rate = e.get("vs_random", {}).get("level_rate")
            if rate and rate["mean"] is not None:
                out.append(Point((offset + float(e.get("seconds", 0.0))) / 60, rate["mean"],
                                 rate["lo"], rate["hi"], phase or str(e.get("phase", "ppo")),
                                 int(e.get("deals", 0))))
        offset += last
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m shengji.ml.curve LOG.json [LOG.json ...] --out curve.svg``."""
    ap = argparse.ArgumentParser(description="The training curve of one or more logs, as SVG.")
    ap.add_argument("logs", nargs="+", help="training logs, in the order they ran")
    ap.add_argument("--out", required=True, help="the SVG file")
    ap.add_argument("--title", default="classic")
    ap.add_argument("--scratch", action="append", default=[],
                    help="a run from random weights, drawn from minute 0 for comparison")
    args = ap.parse_args(argv)

    def read(path: str) -> list[dict[str, Any]]:
        with open(path, encoding="utf-8") as f:
            return list(json.load(f))

    points = points_of([read(p) for p in args.logs])
    if points:
        points += points_of([read(p) for p in args.scratch], phase="scratch")
    if not points:
        print(f"{', '.join(args.logs)}: no evaluation (train with --eval-every, imitate "
              "with --eval-deals)", file=sys.stderr)
        return 2
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(curve_svg(points, args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
