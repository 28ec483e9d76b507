"""Duplicate deals: every seeded deal is played twice with the teams' bots swapped.

The same cards go to the same seats both times, and the same seat deals first, so luck
cancels out and what is left is the difference between the bots. Figures are from bot A's
point of view, with 95% confidence intervals over the deal pairs (level rate: bootstrap; the
deal win rate: Wilson, over the deals), rates always within [0, 1].

>>> from shengji.core.ruleset import PRESETS
>>> r = run_duplicate(PRESETS["one-deck"], "random", "random", deals=4, seed=1)
>>> r.pairs, len(r.signed_levels)
(4, 4)
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from shengji.bots.base import Bot, TimedBot
from shengji.bots.driver import play_match
from shengji.bots.fault import BotFault
from shengji.bots.registry import make_bot
from shengji.core.match import team_of
from shengji.core.ruleset import Ruleset

Z95: Final = 1.959964


@dataclass
class PairResult:
    """One seed played both ways, from bot A's side."""

    signed_levels: float
    """Mean over the two deals of (levels A gained - levels B gained)."""
    a_won: float
    """Share of the two deals that A's side won (kept the deal, or took it over)."""
    a_levels: int
    b_levels: int
    points_a_attacking: int
    points_b_attacking: int
    failed_a: int
    failed_b: int
    times_a: list[float]
    times_b: list[float]
    forfeit: str | None = None
    """Why the pair was cut short (a bot broke the protocol and ``forfeit`` was asked for);
    its figures are then left out of the report."""
    forfeit_side: str | None = None
    """``"a"`` or ``"b"``: whose bot broke it."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``--out`` files keep each finished pair)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairResult:
        """Inverse of ``to_dict``."""
        return cls(**data)


def play_pair(
    ruleset: Ruleset, bot_a: str, bot_b: str, seed: int | str, allow_import: bool = False,
    forfeit: bool = False,
) -> PairResult:
    """Play deal ``seed`` with A in seats 0 and 2, then with A in seats 1 and 3.

    A bot that breaks the protocol raises ``BotFault``; with ``forfeit`` the pair is
    returned cut short instead (``PairResult.forfeit``).
    """
    times_a: list[float] = []
    times_b: list[float] = []
    signed = won = 0
    a_total = b_total = 0
    pts_a_att = pts_b_att = failed_a = failed_b = 0
    first = hash_seat(seed, ruleset.players)
    for swap in (0, 1):
        bots: list[Bot] = []
        for k in range(ruleset.players):
            a_seat = team_of(k) == swap
            name = bot_a if a_seat else bot_b
            sink = times_a if a_seat else times_b
            bots.append(TimedBot(make_bot(name, f"{seed}.{swap}.{k}", allow_import), sink))
        try:
            state, _ = play_match(ruleset, bots, f"dup.{seed}", deals=1, first_dealer=first)
        except BotFault as e:
            if not forfeit:
                raise
            side = "a" if team_of(e.seat) == swap else "b"
            return PairResult(0.0, 0.0, 0, 0, 0, 0, 0, 0, [], [], str(e), side)
        summary = state.history[0]
        res, change = summary.result, summary.result.change
        a_team = swap
        a_defends = team_of(summary.dealer) == a_team
        if change.attackers_take_over:
            a_lv, b_lv = (0, change.attacker_levels) if a_defends else (change.attacker_levels, 0)
            won += int(not a_defends)
        else:
            a_lv, b_lv = (change.defender_levels, 0) if a_defends else (0, change.defender_levels)
            won += int(a_defends)
        a_total += a_lv
        b_total += b_lv
        signed += a_lv - b_lv
        if a_defends:
            pts_b_att += res.attacker_points
        else:
            pts_a_att += res.attacker_points
        for seat in res.failed_seats:
            if team_of(seat) == a_team:
                failed_a += 1
            else:
                failed_b += 1
    return PairResult(
        signed / 2, won / 2, a_total, b_total, pts_a_att, pts_b_att, failed_a, failed_b,
        times_a, times_b,
    )


def hash_seat(seed: int | str, players: int) -> int:
    """The seat that deals first for a seed (the same in both deals of a pair)."""
    return random.Random(f"dealer.{seed}").randrange(players)


PairJob = tuple[dict[str, Any], str, str, str, bool, bool]
"""What a worker process needs for one pair: ruleset dict, bot A, bot B, seed, allow
imports, forfeit."""


def pair_job(args: PairJob) -> PairResult:
    """``play_pair`` from picklable arguments (for process pools and Ray)."""
    rules, bot_a, bot_b, seed, allow_import, forfeit = args
    return play_pair(Ruleset.from_dict(rules), bot_a, bot_b, seed, allow_import, forfeit)


def pair_seed(seed: int | str, index: int) -> str:
    """The seed of pair ``index`` of a run seeded ``seed``."""
    return f"{seed}.{index}"


@dataclass
class DuplicateReport:
    """Aggregated duplicate figures for A against B."""

    preset: str
    bot_a: str
    bot_b: str
    pairs: int = 0
    signed_levels: list[float] = field(default_factory=list)
    a_won: list[float] = field(default_factory=list)
    a_levels: list[int] = field(default_factory=list)
    b_levels: list[int] = field(default_factory=list)
    points_a_attacking: list[int] = field(default_factory=list)
    points_b_attacking: list[int] = field(default_factory=list)
    failed_a: int = 0
    failed_b: int = 0
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)
    seconds: float = 0.0
    forfeits: list[tuple[str, str]] = field(default_factory=list)
    """``(side, what happened)`` of each pair cut short; left out of the figures."""

    def add(self, r: PairResult) -> None:
        """Count one pair (a forfeited one only in ``forfeits``)."""
        if r.forfeit is not None:
            self.forfeits.append((r.forfeit_side or "?", r.forfeit))
            return
        self.pairs += 1
        self.signed_levels.append(r.signed_levels)
        self.a_won.append(r.a_won)
        self.a_levels.append(r.a_levels)
        self.b_levels.append(r.b_levels)
        self.points_a_attacking.append(r.points_a_attacking)
        self.points_b_attacking.append(r.points_b_attacking)
        self.failed_a += r.failed_a
        self.failed_b += r.failed_b
        self.times_a.extend(r.times_a)
        self.times_b.extend(r.times_b)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures with 95% confidence intervals."""
        return {
            "preset": self.preset,
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "pairs": self.pairs,
            "deals": 2 * self.pairs,
            "deal_win_rate": wilson_ci(round(2 * sum(self.a_won)), 2 * len(self.a_won)),
            "signed_levels_per_deal": mean_ci(self.signed_levels),
            "level_rate": level_rate_ci(self.a_levels, self.b_levels),
            "attacker_points_a_attacking": mean_ci([float(x) for x in self.points_a_attacking]),
            "attacker_points_b_attacking": mean_ci([float(x) for x in self.points_b_attacking]),
            "failed_throws": {"a": self.failed_a, "b": self.failed_b},
            "decision_ms": {"a": timing(self.times_a), "b": timing(self.times_b)},
            "forfeits": {
                "a": sum(1 for side, _ in self.forfeits if side == "a"),
                "b": sum(1 for side, _ in self.forfeits if side == "b"),
                "first": [why for _, why in self.forfeits[:5]],
            },
            "seconds": round(self.seconds, 2),
        }


def mean_ci(xs: Sequence[float]) -> dict[str, float | None]:
    """Mean with a normal 95% interval."""
    if not xs:
        return {"mean": None, "lo": None, "hi": None}
    m = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return {"mean": round(m, 4), "lo": round(m - half, 4), "hi": round(m + half, 4)}


def wilson_ci(successes: int, trials: int) -> dict[str, float | None]:
    """A rate with its Wilson score 95% interval, always within [0, 1] (a normal interval
    around 0.98 of 40 deals reaches past 1).

    >>> wilson_ci(39, 40)
    {'mean': 0.975, 'lo': 0.8712, 'hi': 0.9956}
    >>> wilson_ci(0, 20)["lo"], wilson_ci(20, 20)["hi"], wilson_ci(0, 0)["mean"]
    (0.0, 1.0, None)
    """
    if trials <= 0:
        return {"mean": None, "lo": None, "hi": None}
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return {"mean": round(p, 4), "lo": round(max(0.0, centre - half), 4),
            "hi": round(min(1.0, centre + half), 4)}


def level_rate_ci(a: Sequence[int], b: Sequence[int], resamples: int = 1000) -> dict[str, Any]:
    """Levels gained by A / levels gained by both, with a bootstrap 95% interval."""
    total = sum(a) + sum(b)
    if not total:
        return {"mean": None, "lo": None, "hi": None}
    rng = random.Random(0)
    n = len(a)
    rates = []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        sa = sum(a[i] for i in idx)
        sb = sum(b[i] for i in idx)
        if sa + sb:
            rates.append(sa / (sa + sb))
    rates.sort()
    lo = rates[int(0.025 * (len(rates) - 1))]
    hi = rates[int(0.975 * (len(rates) - 1))]
    return {"mean": round(sum(a) / total, 4), "lo": round(lo, 4), "hi": round(hi, 4)}


def timing(times: Sequence[float]) -> dict[str, float | None]:
    """Mean, median and p95 of decision times, in milliseconds."""
    if not times:
        return {"mean": None, "median": None, "p95": None}
    s = sorted(times)
    return {
        "mean": round(1000 * statistics.fmean(s), 3),
        "median": round(1000 * s[len(s) // 2], 3),
        "p95": round(1000 * s[min(len(s) - 1, int(0.95 * len(s)))], 3),
    }


def run_duplicate(
    ruleset: Ruleset, bot_a: str, bot_b: str, deals: int, seed: int | str = 0, jobs: int = 1,
    allow_import: bool = False, forfeit: bool = False,
) -> DuplicateReport:
    """Play ``deals`` duplicate pairs (2 × ``deals`` deals), in ``jobs`` processes."""
    start = time.perf_counter()
    rules = ruleset.to_dict()
    args = [
        (rules, bot_a, bot_b, pair_seed(seed, i), allow_import, forfeit) for i in range(deals)
    ]
    if jobs <= 1:
        results = [pair_job(a) for a in args]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(pair_job, args, chunksize=4))
    report = report_of(ruleset.name, bot_a, bot_b, dict(enumerate(results)))
    report.seconds = time.perf_counter() - start
    return report


def report_of(
    preset: str, bot_a: str, bot_b: str, results: dict[int, PairResult]
) -> DuplicateReport:
    """The report of pairs by index, counted in index order (whatever order they finished)."""
    report = DuplicateReport(preset, bot_a, bot_b)
    for i in sorted(results):
        report.add(results[i])
    return report


def _ci(d: dict[str, Any], fmt: str = "{:+.3f}") -> str:
    if d["mean"] is None:
        return "n/a"
    return f"{fmt.format(d['mean'])} [{fmt.format(d['lo'])}, {fmt.format(d['hi'])}]"


def _forfeit_lines(d: dict[str, Any]) -> list[str]:
    f = d.get("forfeits")
    if not f or not (f["a"] or f["b"]):
        return []
    return [
        f"forfeits (pairs left out of the figures): A {f['a']}, B {f['b']}",
        *(f"  {why}" for why in f["first"]),
    ]


def format_duplicate(d: dict[str, Any]) -> str:
    """The human-readable duplicate summary."""
    ta, tb = d["decision_ms"]["a"], d["decision_ms"]["b"]

    def t(x: dict[str, Any]) -> str:
        return "n/a" if x["mean"] is None else (
            f"mean {x['mean']:.3f} ms, median {x['median']:.3f}, p95 {x['p95']:.3f}"
        )

    lines = [
        f"duplicate: preset {d['preset']}, A = {d['bot_a']} vs B = {d['bot_b']}, "
        f"{d['pairs']} deal pairs ({d['deals']} deals), 95% intervals",
        f"deal win rate (A):          {_ci(d['deal_win_rate'], '{:.3f}')}",
        f"signed levels per deal (A): {_ci(d['signed_levels_per_deal'])}",
        f"level rate (A / both):      {_ci(d['level_rate'], '{:.3f}')}",
        f"attacker points, A attacking: {_ci(d['attacker_points_a_attacking'], '{:.1f}')}",
        f"attacker points, B attacking: {_ci(d['attacker_points_b_attacking'], '{:.1f}')}",
        f"failed throws: A {d['failed_throws']['a']}, B {d['failed_throws']['b']}",
        *_forfeit_lines(d),
        f"decision time A: {t(ta)}",
        f"decision time B: {t(tb)}",
        f"time {d['seconds']:.1f} s",
    ]
    return "\n".join(lines) + "\n"
