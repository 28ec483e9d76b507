"""The ladder's chart as a hand-written SVG: each bot's Elo with its 95% interval.

>>> svg = elo_chart([("heuristic", 300.0, 250.0, 360.0), ("random", -300.0, -360.0, -250.0)],
...                 "classic, 100 deal pairs")
>>> svg.startswith("<svg") and "heuristic" in svg and svg.count("<circle") == 2
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

ROW = 30
LEFT = 190
RIGHT = 40
WIDTH = 720
TOP = 56
BOTTOM = 44


def _step(span: float) -> float:
    """A round tick step giving about six ticks over ``span``."""
    raw = span / 6
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def elo_chart(rows: Sequence[tuple[str, float, float, float]], subtitle: str) -> str:
    """``rows``: ``(bot, elo, lo, hi)``, best first; an SVG document as text."""
    lo = min(r[2] for r in rows)
    hi = max(r[3] for r in rows)
    step = _step(max(hi - lo, 1.0))
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    if hi == lo:
        hi = lo + step
    height = TOP + ROW * len(rows) + BOTTOM
    plot = WIDTH - LEFT - RIGHT

    def x(v: float) -> float:
        return LEFT + (v - lo) / (hi - lo) * plot

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">'
        "Bradley–Terry ratings (Elo scale), 95% intervals</text>",
        f'<text x="{WIDTH / 2}" y="40" text-anchor="middle" fill="#555">{escape(subtitle)}</text>',
    ]
    axis_y = TOP + ROW * len(rows) + 6
    tick = lo
    while tick <= hi + 1e-9:
        tx = x(tick)
        out.append(f'<line x1="{tx:.1f}" y1="{TOP - 6}" x2="{tx:.1f}" y2="{axis_y}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{tx:.1f}" y="{axis_y + 16}" text-anchor="middle" '
                   f'fill="#333">{tick:+g}</text>')
        tick += step
    out.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{WIDTH - RIGHT}" y2="{axis_y}" '
               'stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot / 2}" y="{axis_y + 34}" text-anchor="middle" '
               'fill="#333">Elo (field mean 0)</text>')
    for k, (bot, elo, r_lo, r_hi) in enumerate(rows):
        y = TOP + ROW * k + ROW / 2
        out.append(f'<text x="{LEFT - 10}" y="{y + 4:.1f}" text-anchor="end">'
                   f"{escape(bot)}</text>")
        out.append(f'<line x1="{x(r_lo):.1f}" y1="{y:.1f}" x2="{x(r_hi):.1f}" y2="{y:.1f}" '
                   'stroke="#1f77b4" stroke-width="3"/>')
        for end in (r_lo, r_hi):
            out.append(f'<line x1="{x(end):.1f}" y1="{y - 6:.1f}" x2="{x(end):.1f}" '
                       f'y2="{y + 6:.1f}" stroke="#1f77b4" stroke-width="2"/>')
        out.append(f'<circle cx="{x(elo):.1f}" cy="{y:.1f}" r="5" fill="#d62728"/>')
        out.append(f'<text x="{x(elo):.1f}" y="{y - 9:.1f}" text-anchor="middle" '
                   f'font-size="11" fill="#333">{elo:+.0f}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
