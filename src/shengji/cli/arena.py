"""``shengji arena``: bots play many deals or matches; print what happened, in figures.

Without ``--matches`` it plays ``--deals`` deals as one long match, starting a new match
whenever one ends; with ``--matches M`` it plays M whole matches (each capped at ``--deals``
deals if given). Every seed derives from ``--seed``: match ``n`` uses ``"<seed>.<n>"`` and
its bot at seat ``k`` ``"<seed>.<n>.<k>"``, so the same command prints the same figures.

    shengji arena --preset classic --bots random,random,random,random --deals 200 --seed 1

>>> from shengji.core.ruleset import preset
>>> stats = run_arena(preset("one-deck"), ["random"] * 4, seed=1, deals=3)
>>> stats.deals, len(stats.attacker_points)
(3, 3)
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from shengji.bots.base import TimedBot
from shengji.bots.driver import play_match
from shengji.bots.fault import BotFault
from shengji.bots.registry import bot_factory, make_bot, with_think_ms
from shengji.cli.bot_errors import bot_error_text
from shengji.cli.progress import ArenaProgress, wanted
from shengji.cli.results import ResultsFile
from shengji.cli.rules_arg import ruleset_from_args
from shengji.cli.runner import run_indexed
from shengji.core.errors import RulesetError
from shengji.core.match import MatchState, team_of
from shengji.core.ruleset import Ruleset

DEFAULT_DEALS = 100
"""Deals played when neither ``--deals`` nor ``--matches`` is given."""
BUCKET = 20
"""Width of the attacker-points histogram buckets."""


@dataclass
class ArenaStats:
    """Everything the arena counts; ``to_dict`` is the ``--json`` output."""

    preset: str
    bots: list[str]
    seed: int | str
    deals: int = 0
    matches_played: int = 0
    match_wins: list[int] = field(default_factory=lambda: [0, 0])
    dealer_kept: int = 0
    takeovers: int = 0
    levels_gained: list[int] = field(default_factory=lambda: [0, 0])
    """Per team, by the level table (before must-play stops and the end of the match); per
    seat as applied when partners are not fixed (找朋友, 竞标: each seat is a team)."""
    per_seat: bool = False
    """Partners are not fixed: every seat is its own team."""
    matches_won: int = 0
    """Matches that ended with a winner."""
    level_changes: Counter[str] = field(default_factory=Counter)
    attacker_points: list[int] = field(default_factory=list)
    kitty_captures: int = 0
    kitty_multiplier_sum: int = 0
    failed_throws: int = 0
    decisions: int = 0
    seconds: float = 0.0
    records: list[Path] = field(default_factory=list)
    forfeits: list[str] = field(default_factory=list)
    """What each match cut short by a bot's fault said (``--forfeit-illegal``); each such
    deal counts towards ``--deals`` but not in the figures."""
    interrupted: bool = False
    """Ctrl-C stopped the run; the figures hold the matches that finished."""
    team_signed: list[int] = field(default_factory=list)
    """Fixed partners: per deal, levels team 0 gained − levels team 1 gained."""

    def add_match(self, state: MatchState) -> None:
        """Count the finished deals of one match."""
        self.add_figures(match_figures(state))

    def add_figures(self, figures: dict[str, Any]) -> None:
        """Count one match from ``match_figures`` (also as read back from ``--out``)."""
        self.matches_played += 1
        winners = figures["winners"]
        if winners:
            self.matches_won += 1
            for w in winners if self.per_seat else [team_of(winners[0])]:
                self.match_wins[w] += 1
        if figures.get("forfeit"):
            self.forfeits.append(figures["forfeit"])
        for deal in figures["deals"]:
            d_level, a_level, take_over = deal["change"]
            d_team = team_of(deal["dealer"])
            if self.per_seat:
                for seat, step in enumerate(deal["steps"]):
                    self.levels_gained[seat] += step
            self.deals += 1
            self.attacker_points.append(deal["attacker_points"])
            self.failed_throws += deal["failed_throws"]
            if take_over or a_level > 0:  # 竞标: no takeover
                self.takeovers += 1
                if not self.per_seat:
                    self.levels_gained[1 - d_team] += a_level
                    self.team_signed.append(a_level if d_team == 1 else -a_level)
                self.level_changes[f"A+{a_level}"] += 1
            else:
                self.dealer_kept += 1
                if not self.per_seat:
                    self.levels_gained[d_team] += d_level
                    self.team_signed.append(d_level if d_team == 0 else -d_level)
                self.level_changes[f"D+{d_level}"] += 1
            if deal["kitty_captured"]:
                self.kitty_captures += 1
                self.kitty_multiplier_sum += deal["kitty_multiplier"]

    def running(self) -> str:
        """The running 95% interval for the progress bar."""
        from shengji.bots.duplicate import mean_ci

        if self.per_seat:
            ci = mean_ci([float(p) for p in self.attacker_points])
            what = "attacker points"
        else:
            ci = mean_ci([float(x) for x in self.team_signed])
            what = "team 0 − team 1 levels/deal"
        if ci["mean"] is None or ci["lo"] is None or not math.isfinite(ci["lo"]):
            return ""
        return f"{what} {ci['mean']:+.2f} [{ci['lo']:+.2f}, {ci['hi']:+.2f}]"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the same figures as ``format_summary``)."""
        pts = self.attacker_points
        n = len(pts)
        finished = self.matches_won
        teams = (
            [{"seats": [s], "bots": [b]} for s, b in enumerate(self.bots)]
            if self.per_seat
            else [
                {"seats": [s for s in range(len(self.bots)) if team_of(s) == t],
                 "bots": [b for s, b in enumerate(self.bots) if team_of(s) == t]}
                for t in (0, 1)
            ]
        )
        return {
            "preset": self.preset,
            "bots": self.bots,
            "teams": teams,
            "seed": self.seed,
            "deals": self.deals,
            "matches": {
                "played": self.matches_played,
                "finished": finished,
                "unfinished": self.matches_played - finished,
                "wins": list(self.match_wins),
            },
            "deal_winners": {"dealer_side": self.dealer_kept, "attackers": self.takeovers},
            "levels_gained": list(self.levels_gained),
            "level_changes": dict(sorted(self.level_changes.items(), key=_change_order)),
            "attacker_points": _distribution(pts),
            "kitty_captures": {
                "count": self.kitty_captures,
                "mean_multiplier": round(self.kitty_multiplier_sum / self.kitty_captures, 2)
                if self.kitty_captures
                else None,
            },
            "failed_throws": self.failed_throws,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(n / self.seconds, 2) if self.seconds else None,
            "decisions_per_second": round(self.decisions / self.seconds, 1)
            if self.seconds
            else None,
            "records": [str(p) for p in self.records],
            "forfeits": list(self.forfeits),
            "interrupted": self.interrupted,
        }


def match_figures(state: MatchState, forfeit: str | None = None) -> dict[str, Any]:
    """What the arena counts of one match, JSON-ready (``--out`` keeps one per match)."""
    deals = []
    for summary in state.history:
        res = summary.result
        change = res.change
        deals.append({
            "dealer": summary.dealer,
            "steps": list(summary.steps),
            "change": [change.defender_levels, change.attacker_levels,
                       change.attackers_take_over],
            "attacker_points": res.attacker_points,
            "failed_throws": res.failed_throws,
            "kitty_captured": res.kitty_captured,
            "kitty_multiplier": res.kitty_multiplier,
        })
    out: dict[str, Any] = {"winners": list(state.winners), "deals": deals}
    if forfeit is not None:
        out["forfeit"] = forfeit
    return out


def _change_order(item: tuple[str, int]) -> tuple[int, int]:
    """D+3, D+2, D+1, D+0, A+0, A+1, ...: from the dealer side's best to the attackers'."""
    side, levels = item[0][0], int(item[0][2:])
    return (0, -levels) if side == "D" else (1, levels)


def _quantile(sorted_pts: list[int], q: float) -> float:
    """Linear-interpolation quantile of sorted data (``q`` in 0..1)."""
    x = q * (len(sorted_pts) - 1)
    lo = math.floor(x)
    hi = min(lo + 1, len(sorted_pts) - 1)
    return sorted_pts[lo] + (sorted_pts[hi] - sorted_pts[lo]) * (x - lo)


def _distribution(pts: list[int]) -> dict[str, Any]:
    if not pts:
        return {"count": 0}
    s = sorted(pts)
    hist = Counter(p // BUCKET * BUCKET for p in s)
    return {
        "count": len(s),
        "mean": round(statistics.fmean(s), 2),
        "stdev": round(statistics.stdev(s), 2) if len(s) > 1 else 0.0,
        "min": s[0],
        "p25": _quantile(s, 0.25),
        "median": _quantile(s, 0.5),
        "p75": _quantile(s, 0.75),
        "max": s[-1],
        "histogram": {
            f"{lo}-{lo + BUCKET - 1}": hist.get(lo, 0)
            for lo in range(min(hist), max(hist) + BUCKET, BUCKET)
        },
    }


def run_arena(
    ruleset: Ruleset,
    bots: Sequence[str],
    seed: int | str = 0,
    deals: int | None = None,
    matches: int | None = None,
    record_dir: Path | None = None,
    allow_import: bool = False,
    forfeit: bool = False,
    done: dict[int, dict[str, Any]] | None = None,
    on_match: Callable[[int, dict[str, Any], ArenaStats], None] | None = None,
) -> ArenaStats:
    """Play as the arena command does and return the figures (see the module docstring).

    ``done``: figures of matches already played (by number, from ``--out``), counted
    without playing them again; ``on_match(n, figures, stats)`` is called after each match.
    A bot that breaks the protocol raises ``BotFault``; with ``forfeit`` its match ends
    there (its finished deals count) and the run goes on. Ctrl-C stops the run and returns
    what finished (``stats.interrupted``).
    """
    if len(bots) != ruleset.players:
        raise ValueError(f"{ruleset.players} bots needed (one per seat), got {len(bots)}")
    if matches is None and deals is None:
        deals = DEFAULT_DEALS
    done = done or {}
    stats = ArenaStats(ruleset.name, list(bots), seed)
    if ruleset.partnership != "fixed":
        stats.per_seat = True
        stats.match_wins = [0] * ruleset.players
        stats.levels_gained = [0] * ruleset.players
    times: list[float] = []
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    n = 0
    try:
        while True:
            if matches is not None:
                if n >= matches:
                    break
                cap = deals
            else:
                assert deals is not None
                played = stats.deals + len(stats.forfeits)  # a forfeited deal was played
                if played >= deals:
                    break
                cap = deals - played
            n += 1
            if n in done:
                figures = done[n]
                stats.add_figures(figures)
                continue
            players = [
                TimedBot(make_bot(name, f"{seed}.{n}.{k}", allow_import), times)
                for k, name in enumerate(bots)
            ]
            try:
                state, record = play_match(ruleset, players, f"{seed}.{n}", deals=cap)
            except BotFault as e:
                if not forfeit or e.match is None:
                    raise
                figures = match_figures(e.match, forfeit=str(e))
            else:
                figures = match_figures(state)
                if record_dir is not None:
                    path = record_dir / f"match-{n}.json"
                    path.write_text(record.to_json() + "\n", encoding="utf-8")
                    stats.records.append(path)
            stats.add_figures(figures)
            if on_match is not None:
                on_match(n, figures, stats)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - start
    stats.decisions = len(times)
    return stats


def _fmt(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.1f}"


def format_summary(d: dict[str, Any]) -> str:
    """The human-readable summary of ``ArenaStats.to_dict()``."""
    lines: list[str] = []
    bots = d["bots"]
    lines.append(
        f"arena: preset {d['preset']}, seed {d['seed']}, bots "
        + ", ".join(f"S{k}={b}" for k, b in enumerate(bots))
    )
    teams = d["teams"]
    if all(len(team["seats"]) == 1 for team in teams):
        lines.append("partners: none fixed (every seat keeps its own level)")
    else:
        lines.append(
            "teams: "
            + ", ".join(
                f"team {t} = " + "+".join(f"S{s}" for s in team["seats"])
                + f" ({'+'.join(team['bots'])})"
                for t, team in enumerate(teams)
            )
        )
    m = d["matches"]
    deals = d["deals"]
    label = [
        f"S{team['seats'][0]}" if len(teams) > 2 or len(team["seats"]) == 1 else f"team {t}"
        for t, team in enumerate(teams)
    ]
    wins = ", ".join(f"{label[t]}: {w}" for t, w in enumerate(m["wins"]))
    lines.append(
        f"deals {deals}; matches {m['played']}: {m['finished']} finished "
        f"(wins {wins}), {m['unfinished']} unfinished"
    )
    if deals:
        dw = d["deal_winners"]
        lines.append(
            f"deals won: dealer side {dw['dealer_side']} ({100 * dw['dealer_side'] / deals:.0f}%)"
            f", attackers {dw['attackers']} ({100 * dw['attackers'] / deals:.0f}%)"
        )
        lg = d["levels_gained"]
        changes = " ".join(f"{k}:{v}" for k, v in d["level_changes"].items())
        gained = ", ".join(f"{label[t]} {g:+d}" for t, g in enumerate(lg))
        lines.append(f"levels gained: {gained}; per deal {changes}")
        ap = d["attacker_points"]
        lines.append(
            f"attacker points: mean {ap['mean']:.1f} sd {ap['stdev']:.1f}; min {ap['min']} "
            f"p25 {_fmt(ap['p25'])} median {_fmt(ap['median'])} p75 {_fmt(ap['p75'])} "
            f"max {ap['max']}"
        )
        hist = ap["histogram"]
        top = max(hist.values())
        width = max(len(k) for k in hist)
        for label, count in hist.items():
            bar = "#" * math.ceil(30 * count / top) if count else ""
            lines.append(f"  {label:>{width}} {bar:<30} {count}")
        kc = d["kitty_captures"]
        mean = f", mean multiplier x{kc['mean_multiplier']:g}" if kc["count"] else ""
        lines.append(
            f"kitty captured {kc['count']} times ({100 * kc['count'] / deals:.0f}%){mean}; "
            f"failed throws {d['failed_throws']}"
        )
    speed = (
        f"; {d['deals_per_second']:g} deals/s, {d['decisions_per_second']:g} decisions/s"
        if d["seconds"]
        else ""
    )
    lines.append(f"time {d['seconds']:.2f} s, {d['decisions']} decisions{speed}")
    if d["records"]:
        lines.append(f"records: {len(d['records'])} files in {Path(d['records'][0]).parent}")
    return "\n".join(lines) + "\n"


def _error(err: TextIO, message: str) -> int:
    err.write(f"shengji arena: error: {message}\n")
    return 2


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def _duplicate(
    args: argparse.Namespace, ruleset: Ruleset, bots: list[str], out: TextIO, err: TextIO
) -> int:
    """``--duplicate``: A (seats 0+2) against B (seats 1+3), every deal played both ways."""
    from shengji.bots.duplicate import (
        PairResult,
        format_duplicate,
        pair_job,
        pair_seed,
        report_of,
    )

    if ruleset.partnership != "fixed":
        return _error(
            err, f"--duplicate swaps two fixed teams; preset {ruleset.name} has none "
            f"(partnership {ruleset.partnership}): play it without --duplicate"
        )
    if len(bots) == ruleset.players and len(set(bots[0::2])) == 1 and len(set(bots[1::2])) == 1:
        bots = bots[:2]
    if len(bots) != 2:
        return _error(err, "--duplicate needs --bots A,B (or seats 0+2 = A and 1+3 = B)")
    if args.matches is not None:
        return _error(err, "--duplicate plays single deals: use --deals, not --matches")
    deals = args.deals if args.deals is not None else DEFAULT_DEALS
    if deals < 1 or args.jobs < 1:
        return _error(err, "--deals and --jobs must be at least 1")
    seed = _seed(args.seed)
    a, b = bots
    config = {"preset": ruleset.name, "ruleset": ruleset.to_dict(), "bot_a": a, "bot_b": b,
              "seed": seed, "deals": deals}
    results_file = ResultsFile(_path(args, "out"), "duplicate", config)
    try:
        stored = results_file.load()
    except ValueError as e:
        return _error(err, str(e))
    results = {i: PairResult.from_dict(d) for i, d in stored.items()}
    rules = ruleset.to_dict()
    forfeit = bool(getattr(args, "forfeit_illegal", False))
    tasks = [
        (i, (rules, a, b, pair_seed(seed, i), True, forfeit))
        for i in range(deals) if i not in results
    ]
    bar = ArenaProgress(deals, "deal pairs", wanted(getattr(args, "progress", None)),
                        done=len(results))
    running = _Running()
    for r in results.values():
        running.add(r)

    def on_result(i: int, r: PairResult) -> None:
        results[i] = r
        stored_pair = r.to_dict()
        stored_pair["times_a"] = stored_pair["times_b"] = []  # decision times stay in memory
        results_file.add(i, stored_pair)
        running.add(r)
        bar.update(1, 2, running.text())
        results_file.save(None, complete=False, force=False)

    start = time.perf_counter()
    try:
        interrupted = run_indexed(
            pair_job, tasks, args.jobs, on_result, getattr(args, "executor", "local"),
            getattr(args, "address", None),
        )
    except BotFault as e:
        bar.close()
        results_file.save(None, complete=False)
        return _bot_error(err, e, args)
    except RuntimeError as e:  # the ray executor without ray
        bar.close()
        return _error(err, str(e))
    finally:
        bar.close()
    report = report_of(ruleset.name, a, b, results)
    report.seconds = time.perf_counter() - start
    data = report.to_dict()
    data["interrupted"] = interrupted
    results_file.save(data, complete=not interrupted)
    out.write(json.dumps(data) + "\n" if args.json else format_duplicate(data))
    if interrupted:
        return _interrupted(err, f"{len(results)} of {deals} deal pairs", results_file)
    return 0


class _Running:
    """Running mean and 95% interval of signed levels per deal (for the progress bar)."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, r: Any) -> None:
        if r.forfeit is None:
            self.n += 1
            self.total += r.signed_levels
            self.squares += r.signed_levels**2

    def text(self) -> str:
        if self.n < 2:
            return ""
        mean = self.total / self.n
        var = max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))
        half = 1.96 * math.sqrt(var / self.n)
        return f"A: {mean:+.3f} levels/deal [{mean - half:+.3f}, {mean + half:+.3f}]"


def _path(args: argparse.Namespace, name: str) -> Path | None:
    value = getattr(args, name, None)
    return Path(value) if value else None


def _bot_error(err: TextIO, e: BotFault, args: argparse.Namespace) -> int:
    err.write(bot_error_text("arena", e, bool(getattr(args, "traceback", False))))
    return 1


def _interrupted(err: TextIO, what: str, results_file: ResultsFile) -> int:
    again = (
        f"; run the same command again to go on from {results_file.path}"
        if results_file.path is not None else ""
    )
    err.write(f"shengji arena: interrupted after {what}{again}\n")
    return 130


def arena(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``shengji arena`` for parsed arguments; 0 on success, 2 on bad arguments, 1 when a
    bot broke the protocol, 130 when interrupted (what finished is reported and kept)."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        ruleset = ruleset_from_args(args)
    except RulesetError as e:
        return _error(err, e.message)
    except ValueError as e:
        return _error(err, str(e))
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        bots = with_think_ms(bots, getattr(args, "think_ms", None))
    except ValueError as e:
        return _error(err, str(e))
    for name in bots:
        try:
            bot_factory(name, allow_import=True)
        except ValueError as e:
            return _error(err, str(e))
    if getattr(args, "duplicate", False):
        return _duplicate(args, ruleset, bots, out, err)
    if getattr(args, "executor", "local") != "local":
        return _error(err, "--executor ray spreads duplicate deal pairs: use it with --duplicate")
    if len(bots) == 2 and ruleset.partnership == "fixed" and ruleset.players % 2 == 0:
        bots = [bots[seat % 2] for seat in range(ruleset.players)]  # A,B: seats 0+2 play 1+3
    if len(bots) != ruleset.players:
        return _error(
            err, f"preset {args.preset} seats {ruleset.players} players: --bots needs "
            f"{ruleset.players} names separated by commas, got {len(bots)}"
        )
    for flag, value in (("--deals", args.deals), ("--matches", args.matches)):
        if value is not None and value < 1:
            return _error(err, f"{flag} must be at least 1")
    record_dir = Path(args.record) if args.record else None
    if record_dir is not None and record_dir.exists() and not record_dir.is_dir():
        return _error(err, f"--record {record_dir} exists and is not a directory")
    seed = _seed(args.seed)
    deals = args.deals if args.deals is not None or args.matches is not None else DEFAULT_DEALS
    config = {"preset": ruleset.name, "ruleset": ruleset.to_dict(), "bots": bots, "seed": seed,
              "deals": deals, "matches": args.matches}
    results_file = ResultsFile(_path(args, "out"), "arena", config)
    try:
        done = results_file.load()
    except ValueError as e:
        return _error(err, str(e))
    by_deals = args.matches is None
    total = deals if by_deals else args.matches
    bar = ArenaProgress(total, "deals" if by_deals else "matches",
                        wanted(getattr(args, "progress", None)))

    def on_match(n: int, figures: dict[str, Any], stats: ArenaStats) -> None:
        results_file.add(n, figures)
        played = len(figures["deals"]) + (1 if figures.get("forfeit") else 0)
        bar.update(played if by_deals else 1, played, stats.running())
        results_file.save(None, complete=False, force=False)

    if done:
        bar.update(sum(len(f["deals"]) for f in done.values()) if by_deals else len(done), 0)
    for n, figures in done.items():
        results_file.add(n, figures)
    try:
        stats = run_arena(
            ruleset, bots, seed, args.deals, args.matches, record_dir, allow_import=True,
            forfeit=bool(getattr(args, "forfeit_illegal", False)), done=done, on_match=on_match,
        )
    except BotFault as e:
        bar.close()
        results_file.save(None, complete=False)
        return _bot_error(err, e, args)
    finally:
        bar.close()
    data = stats.to_dict()
    results_file.save(data, complete=not stats.interrupted)
    if args.json:
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        out.write(format_summary(data))
    if stats.interrupted:
        return _interrupted(err, f"{stats.deals} deals ({stats.matches_played} matches)",
                            results_file)
    return 0
