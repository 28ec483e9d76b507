"""Ratings from a round robin of duplicate matches: Bradley–Terry on the Elo scale, with
bootstrap intervals.

Each deal pair of a matchup is one game: A wins it when its signed levels are above zero,
loses below, and a zero is half a win each. Bradley–Terry gives each bot a strength ``p``
with ``P(i beats j) = p_i / (p_i + p_j)``; it is fitted by Hunter's MM iteration with one
virtual drawn game per matchup (so a bot that wins every game still gets a finite rating),
and shown as Elo = 400·log10(p), the field's mean at 0. The 95% intervals are a parametric
bootstrap: every matchup's games are drawn again from the fitted probabilities and the
ratings fitted again (resampling the deal pairs themselves would give a zero-width interval
to a bot that won every one of them).

>>> games = {("heuristic", "random"): [1.5, 2.0, 0.0, 1.0], ("random", "lazy"): [0.5, 1.0, -0.5]}
>>> r = fit_elo(["heuristic", "random", "lazy"], games)
>>> r["heuristic"] > r["random"] > r["lazy"], round(sum(r.values()), 6)
(True, 0.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Final

PRIOR: Final = 1.0
"""Virtual drawn games added to every matchup."""
ELO: Final = 400.0 / math.log(10.0)


def _scores(games: Sequence[float]) -> float:
    """Wins of A in these deal pairs (signed levels > 0), a tie counting half."""
    return sum(1.0 if g > 0 else 0.5 if g == 0 else 0.0 for g in games)


def fit_elo(
    bots: Sequence[str], games: Mapping[tuple[str, str], Sequence[float]], rounds: int = 2000
) -> dict[str, float]:
    """Elo of each bot (mean 0) from each matchup's per-pair signed levels (A's side)."""
    n = len(bots)
    index = {b: i for i, b in enumerate(bots)}
    wins = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for (a, b), g in games.items():
        i, j = index[a], index[b]
        w = _scores(g)
        total = len(g) + PRIOR
        wins[i] += w + PRIOR / 2
        wins[j] += len(g) - w + PRIOR / 2
        played[i][j] += total
        played[j][i] += total
    p = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            denom = sum(played[i][j] / (p[i] + p[j]) for j in range(n) if played[i][j])
            new.append(wins[i] / denom if denom else p[i])
        mean_log = sum(math.log(x) for x in new) / n
        new = [x / math.exp(mean_log) for x in new]
        done = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, p, strict=True)) < 1e-10
        p = new
        if done:
            break
    return {b: ELO * math.log(p[index[b]]) for b in bots}


def elo_intervals(
    bots: Sequence[str], games: Mapping[tuple[str, str], Sequence[float]],
    resamples: int = 200, seed: int = 0,
) -> dict[str, tuple[float, float, float]]:
    """``(elo, lo, hi)`` per bot: the fit and a 95% parametric-bootstrap interval."""
    rng = random.Random(seed)
    point = fit_elo(bots, games)
    draws: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(resamples):
        sample: dict[tuple[str, str], list[float]] = {}
        for (a, b), g in games.items():
            p = expected_score(point[a], point[b])
            wins = sum(1 for _ in g if rng.random() < p)
            sample[(a, b)] = [1.0] * wins + [-1.0] * (len(g) - wins)
        for bot, e in fit_elo(bots, sample, rounds=500).items():
            draws[bot].append(e)
    out = {}
    for bot in bots:
        d = sorted(draws[bot])
        lo = d[int(0.025 * (len(d) - 1))] if d else point[bot]
        hi = d[int(0.975 * (len(d) - 1))] if d else point[bot]
        out[bot] = (point[bot], min(lo, point[bot]), max(hi, point[bot]))
    return out


def expected_score(elo_a: float, elo_b: float) -> float:
    """The chance that A wins a deal pair against B by the ratings.

    >>> expected_score(0.0, 0.0), round(expected_score(400.0, 0.0), 3)
    (0.5, 0.909)
    """
    return 1.0 / (1.0 + 10 ** ((elo_b - elo_a) / 400.0))
