"""A small hand-written SVG of ``bench/server_load.py``'s results: p99 latency and server
CPU per action against tables (log scales), one line per server, for each pace.

>>> import tempfile, pathlib
>>> r = {"bench": [{"server": "a", "pace": "bench", "tables": 10, "p99_ms": 5.0,
...      "server_cpu_us_per_action": 600.0}], "human": {}}
>>> with tempfile.TemporaryDirectory() as d:
...     write_svg(r, pathlib.Path(d) / "x.svg", 100.0)
...     "<svg" in (pathlib.Path(d) / "x.svg").read_text()
True
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path
from typing import Any

COLOURS = ("#c0392b", "#2471a3", "#27ae60", "#8e44ad", "#d68910")
W, H = 380, 250  # one panel
PAD_L, PAD_R, PAD_T, PAD_B = 58, 14, 30, 40


def _log_ticks(lo: float, hi: float) -> list[float]:
    out = []
    e = math.floor(math.log10(lo))
    while 10**e <= hi * 1.0001:
        for m in (1, 2, 5):
            v = m * 10**e
            if lo * 0.9999 <= v <= hi * 1.0001:
                out.append(float(v))
        e += 1
    return out


def _panel(
    x0: float,
    y0: float,
    title: str,
    series: dict[str, list[tuple[float, float]]],
    ylabel: str,
    hline: float | None,
) -> list[str]:
    """One log-log panel at (x0, y0) with a line per series."""
    pts = [p for s in series.values() for p in s if p[0] > 0 and p[1] > 0]
    out = [f'<text x="{x0 + W / 2}" y="{y0 + 18}" text-anchor="middle" '
           f'font-weight="bold">{escape(title)}</text>']
    if not pts:
        no = f'<text x="{x0 + W / 2}" y="{y0 + H / 2}" text-anchor="middle">no data</text>'
        return [*out, no]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts] + ([hline] if hline else [])
    xlo, xhi = min(xs) / 1.3, max(xs) * 1.3
    ylo, yhi = min(ys) / 1.5, max(ys) * 1.5
    pw, ph = W - PAD_L - PAD_R, H - PAD_T - PAD_B

    def sx(v: float) -> float:
        return x0 + PAD_L + pw * (math.log(v) - math.log(xlo)) / (math.log(xhi) - math.log(xlo))

    def sy(v: float) -> float:
        f = (math.log(v) - math.log(ylo)) / (math.log(yhi) - math.log(ylo))
        return y0 + PAD_T + ph * (1 - f)

    out.append(f'<rect x="{x0 + PAD_L}" y="{y0 + PAD_T}" width="{pw}" height="{ph}" '
               'fill="none" stroke="#999"/>')
    for t in _log_ticks(xlo, xhi):
        out.append(f'<line x1="{sx(t):.1f}" x2="{sx(t):.1f}" y1="{y0 + PAD_T}" '
                   f'y2="{y0 + PAD_T + ph}" stroke="#eee"/>')
        out.append(f'<text x="{sx(t):.1f}" y="{y0 + PAD_T + ph + 14}" text-anchor="middle" '
                   f'font-size="10">{t:g}</text>')
    for t in _log_ticks(ylo, yhi):
        out.append(f'<line x1="{x0 + PAD_L}" x2="{x0 + PAD_L + pw}" y1="{sy(t):.1f}" '
                   f'y2="{sy(t):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{x0 + PAD_L - 4}" y="{sy(t) + 3:.1f}" text-anchor="end" '
                   f'font-size="10">{t:g}</text>')
    if hline:
        out.append(f'<line x1="{x0 + PAD_L}" x2="{x0 + PAD_L + pw}" y1="{sy(hline):.1f}" '
                   f'y2="{sy(hline):.1f}" stroke="#555" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{x0 + PAD_L + pw / 2}" y="{y0 + H - 6}" text-anchor="middle" '
               'font-size="11">tables</text>')
    out.append(f'<text x="{x0 + 12}" y="{y0 + PAD_T + ph / 2}" font-size="11" '
               f'text-anchor="middle" transform="rotate(-90 {x0 + 12} {y0 + PAD_T + ph / 2})">'
               f'{escape(ylabel)}</text>')
    for i, (name, s) in enumerate(series.items()):
        c = COLOURS[i % len(COLOURS)]
        good = sorted(p for p in s if p[0] > 0 and p[1] > 0)
        if len(good) > 1:
            d = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in good)
            out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in good:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{c}"/>')
        out.append(f'<text x="{x0 + PAD_L + 8}" y="{y0 + PAD_T + 14 + 13 * i}" fill="{c}" '
                   f'font-size="11">{escape(name)}</text>')
    return out


def _series(points: list[dict[str, Any]], key: str) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {}
    for r in points:
        v = r.get(key)
        if isinstance(v, int | float) and not math.isnan(v):
            out.setdefault(str(r["server"]), []).append((float(r["tables"]), float(v)))
    return out


def write_svg(result: dict[str, Any], path: Path, target_ms: float) -> None:
    """Write the chart of ``result`` (as ``server_load.py`` saves it) to ``path``."""
    rows = [("bench's pace", result.get("bench") or [])]
    human = [p for h in (result.get("human") or {}).values() for p in h.get("points", [])]
    if human:
        rows.append(("human pace", human))
    parts: list[str] = []
    for i, (pace, points) in enumerate(rows):
        y0 = i * H
        parts += _panel(0, y0, f"p99 action→every seat, {pace}",
                        _series(points, "p99_ms"), "ms", target_ms)
        parts += _panel(W, y0, f"server CPU per action, {pace}",
                        _series(points, "server_cpu_us_per_action"), "µs", None)
    notes = [f"{escape(k)}: one core holds {v.get('tables')} tables at human pace"
             for k, v in (result.get("human") or {}).items()]
    height = len(rows) * H + 16 * len(notes) + 8
    for j, t in enumerate(notes):
        parts.append(f'<text x="10" y="{len(rows) * H + 14 + 16 * j}" font-size="12">{t}</text>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{height}" '
           f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" '
           f'fill="white"/>{"".join(parts)}</svg>\n')
    path.write_text(svg)
