"""The training curve as a hand-written SVG: level rate against ``random`` (with its 95%
interval) by training deals.

>>> svg = curve_svg([(1000, 0.6, 0.5, 0.7), (2000, 0.7, 0.6, 0.8)], "classic")
>>> svg.startswith("<svg") and svg.count("<circle") == 2
True
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from html import escape
from typing import Any

W, H, L, R, T, B = 640, 370, 70, 30, 60, 50


def curve_svg(points: Sequence[tuple[int, float, float, float]], title: str) -> str:
    """``points``: ``(deals, level rate, lo, hi)``; an SVG document as text."""
    xmax = max(p[0] for p in points) or 1

    def x(d: float) -> float:
        return L + d / xmax * (W - L - R)

    def y(r: float) -> float:
        return T + (1 - r) * (H - T - B)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
        f'<rect width="{W}" height="{H}" fill="white"/>',
        f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">'
        "Level rate against random by training deals (95% intervals)</text>",
        f'<text x="{W / 2}" y="40" text-anchor="middle" fill="#555">{escape(title)}</text>',
    ]
    for r in (0.0, 0.25, 0.5, 0.75, 0.85, 1.0):
        dash = ' stroke-dasharray="4 3"' if r in (0.5, 0.85) else ""
        out.append(f'<line x1="{L}" y1="{y(r):.1f}" x2="{W - R}" y2="{y(r):.1f}" '
                   f'stroke="#ccc"{dash}/>')
        out.append(f'<text x="{L - 8}" y="{y(r) + 4:.1f}" text-anchor="end">{r:.2f}</text>')
    for k in range(5):
        d = xmax * k / 4
        out.append(f'<text x="{x(d):.1f}" y="{H - B + 18}" text-anchor="middle">{d:,.0f}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 10}" text-anchor="middle">'
               "training deals (self-play)</text>")
    path = " ".join(f"{'M' if i == 0 else 'L'}{x(p[0]):.1f},{y(p[1]):.1f}"
                    for i, p in enumerate(points))
    out.append(f'<path d="{path}" fill="none" stroke="#1f77b4" stroke-width="2"/>')
    for d, r, lo, hi in points:
        out.append(f'<line x1="{x(d):.1f}" y1="{y(lo):.1f}" x2="{x(d):.1f}" y2="{y(hi):.1f}" '
                   'stroke="#1f77b4"/>')
        out.append(f'<circle cx="{x(d):.1f}" cy="{y(r):.1f}" r="4" fill="#d62728"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def points_of(log: Sequence[dict[str, Any]]) -> list[tuple[int, float, float, float]]:
    """The evaluated entries of a training log (``train --curve``)."""
    out = []
    for e in log:
        rate = e.get("vs_random", {}).get("level_rate")
        if rate and rate["mean"] is not None:
            out.append((int(e["deals"]), rate["mean"], rate["lo"], rate["hi"]))
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m shengji.ml.curve curve.json curve.svg [title]``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: python -m shengji.ml.curve CURVE.json OUT.svg [TITLE]", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        points = points_of(json.load(f))
    if not points:
        print(f"{args[0]} holds no evaluation (train with --eval-every)", file=sys.stderr)
        return 2
    with open(args[1], "w", encoding="utf-8") as f:
        f.write(curve_svg(points, args[2] if len(args) > 2 else "classic"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
