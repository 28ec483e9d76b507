"""``shengji ladder``: a round robin of duplicate matches, rated by Bradley–Terry.

Every pair of bots plays ``--deals`` duplicate deal pairs with the same seeds (each matchup
is ``shengji arena --duplicate --bots A,B --seed S --deals N``, and every matchup gets the
same cards). The bots are then rated (``bots/ratings.py``: each deal pair a game, Elo scale
with 95% bootstrap intervals) and the ladder is written to ``--out-dir``: ``ladder.md`` (the
table and the matchup matrix), ``ladder.svg`` (the chart) and ``ladder.json`` (every figure,
and the finished matchups: the same command resumes an interrupted ladder).

    shengji ladder --bots random,heuristic,lowest --deals 200 --jobs 2 --out-dir ladder/
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from shengji.bots.duplicate import PairResult, pair_job, pair_seed, report_of
from shengji.bots.fault import BotFault
from shengji.bots.ratings import elo_intervals
from shengji.bots.registry import bot_factory, with_think_ms
from shengji.cli.bot_errors import add_traceback, bot_error_text
from shengji.cli.executor_flags import add_executor
from shengji.cli.ladder_svg import elo_chart
from shengji.cli.progress import ArenaProgress, wanted
from shengji.cli.results import ResultsFile
from shengji.cli.rules_arg import add_rules_arg, ruleset_from_args
from shengji.cli.runner import run_indexed
from shengji.core.errors import RulesetError
from shengji.core.ruleset import Ruleset


def _error(err: TextIO, message: str) -> int:
    err.write(f"shengji ladder: error: {message}\n")
    return 2


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def ladder(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``shengji ladder``: 0 done, 2 bad arguments, 1 a bot broke the protocol, 130
    interrupted (finished matchups are kept in ``ladder.json``)."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        ruleset = ruleset_from_args(args)
    except RulesetError as e:
        return _error(err, e.message)
    except ValueError as e:
        return _error(err, str(e))
    if ruleset.partnership != "fixed":
        return _error(err, f"the ladder plays duplicate deals between two fixed teams; preset "
                      f"{ruleset.name} has partnership {ruleset.partnership}")
    try:
        bots = with_think_ms([b.strip() for b in args.bots.split(",") if b.strip()],
                             args.think_ms)
        for name in bots:
            bot_factory(name, allow_import=True)
    except ValueError as e:
        return _error(err, str(e))
    if len(bots) < 2 or len(set(bots)) != len(bots):
        return _error(err, "--bots needs at least two different bots")
    if args.deals < 1 or args.jobs < 1:
        return _error(err, "--deals and --jobs must be at least 1")
    out_dir = Path(args.out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        return _error(err, f"--out-dir {out_dir} exists and is not a directory")
    seed = _seed(args.seed)
    config = {"preset": ruleset.name, "ruleset": ruleset.to_dict(), "bots": bots,
              "seed": seed, "deals": args.deals}
    results_file = ResultsFile(out_dir / "ladder.json", "ladder", config)
    try:
        done: dict[int, Any] = results_file.load()
    except ValueError as e:
        return _error(err, str(e))
    matchups = list(itertools.combinations(bots, 2))
    deals = args.deals
    rules = ruleset.to_dict()
    forfeit = bool(args.forfeit_illegal)
    tasks = [
        (k * deals + i, (rules, a, b, pair_seed(seed, i), True, forfeit))
        for k, (a, b) in enumerate(matchups) if k not in done for i in range(deals)
    ]
    partial: dict[int, dict[int, PairResult]] = {}
    bar = ArenaProgress(len(matchups) * deals, "deal pairs", wanted(args.progress),
                        done=len(done) * deals)

    def on_result(index: int, r: PairResult) -> None:
        k, i = divmod(index, deals)
        pairs = partial.setdefault(k, {})
        pairs[i] = r
        bar.update(1, 2, f"{matchups[k][0]} vs {matchups[k][1]}")
        if len(pairs) == deals:
            a, b = matchups[k]
            report = report_of(ruleset.name, a, b, pairs)
            data = report.to_dict()
            results_file.add(k, {"a": a, "b": b, "games": report.signed_levels,
                                 "report": data})
            results_file.save(None, complete=False, force=False)
            del partial[k]

    start = time.perf_counter()
    try:
        interrupted = run_indexed(pair_job, tasks, args.jobs, on_result,
                                  args.executor, args.address)
    except RuntimeError as e:
        if isinstance(e, BotFault):
            bar.close()
            results_file.save(None, complete=False)
            err.write(bot_error_text("ladder", e, args.traceback))
            return 1
        bar.close()
        return _error(err, str(e))
    finally:
        bar.close()
    finished = results_file.done
    summary = summarize(ruleset, bots, seed, deals, finished)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    complete = len(finished) == len(matchups)
    results_file.save(summary, complete=complete)
    if summary["ratings"]:
        (out_dir / "ladder.md").write_text(format_ladder(summary), encoding="utf-8")
        rows = [(r["bot"], r["elo"], r["lo"], r["hi"]) for r in summary["ratings"]]
        subtitle = (f"preset {ruleset.name}, {deals} duplicate deal pairs per matchup, "
                    f"seed {seed}")
        (out_dir / "ladder.svg").write_text(elo_chart(rows, subtitle), encoding="utf-8")
    out.write(format_ladder(summary))
    out.write(f"written: {out_dir / 'ladder.md'}, {out_dir / 'ladder.svg'}, "
              f"{out_dir / 'ladder.json'}\n")
    if interrupted or not complete:
        err.write(f"shengji ladder: interrupted after {len(finished)} of {len(matchups)} "
                  "matchups; run the same command again to go on\n")
        return 130
    return 0


def summarize(
    ruleset: Ruleset, bots: list[str], seed: int | str, deals: int,
    finished: dict[int, Any],
) -> dict[str, Any]:
    """Ratings, scores and the matchup matrix from the finished matchups."""
    games = {(m["a"], m["b"]): m["games"] for m in finished.values()}
    played = [b for b in bots if any(b in key for key in games)]
    ratings = elo_intervals(played, games) if len(played) >= 2 else {}
    rows: list[dict[str, Any]] = []
    for bot in played:
        wins = n = 0.0
        signed: list[float] = []
        for (a, b), g in games.items():
            if bot not in (a, b):
                continue
            sign = 1.0 if bot == a else -1.0
            for x in g:
                s = sign * x
                wins += 1.0 if s > 0 else 0.5 if s == 0 else 0.0
                n += 1
                signed.append(s)
        elo, lo, hi = ratings[bot]
        rows.append({"bot": bot, "elo": round(elo, 1), "lo": round(lo, 1), "hi": round(hi, 1),
                     "score": round(wins / n, 4) if n else None,
                     "signed_levels": round(sum(signed) / len(signed), 4) if signed else None})
    rows.sort(key=lambda r: -float(r["elo"]))
    return {
        "preset": ruleset.name,
        "bots": bots,
        "seed": seed,
        "deals": deals,
        "ratings": rows,
        "matchups": [m["report"] for _, m in sorted(finished.items())],
    }


def _ci(d: dict[str, Any]) -> str:
    if d["mean"] is None:
        return "n/a"
    return f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"


def format_ladder(s: dict[str, Any]) -> str:
    """The ladder as Markdown: ratings, then every matchup from the first bot's side."""
    lines = [
        f"# Ladder: preset {s['preset']}, {s['deals']} duplicate deal pairs per matchup, "
        f"seed {s['seed']}",
        "",
        "Bradley–Terry ratings on the Elo scale (field mean 0) with 95% intervals (parametric "
        "bootstrap); "
        "a deal pair is won when its signed levels are above zero (a zero is half). Score: "
        "share of deal pairs won; signed levels: mean per deal against the field.",
        "",
        "| rank | bot | Elo | 95% interval | score | signed levels / deal |",
        "|---|---|---|---|---|---|",
    ]
    for k, r in enumerate(s["ratings"], 1):
        score = "n/a" if r["score"] is None else f"{r['score']:.3f}"
        signed = "n/a" if r["signed_levels"] is None else f"{r['signed_levels']:+.3f}"
        lines.append(f"| {k} | {r['bot']} | {r['elo']:+.0f} | [{r['lo']:+.0f}, {r['hi']:+.0f}] "
                     f"| {score} | {signed} |")
    lines += ["", "| A vs B | signed levels / deal (A) | level rate (A) | deal win rate (A) |",
              "|---|---|---|---|"]
    for m in s["matchups"]:
        rate = m["level_rate"]
        rate_text = "n/a" if rate["mean"] is None else (
            f"{rate['mean']:.3f} [{rate['lo']:.3f}, {rate['hi']:.3f}]")
        win = m["deal_win_rate"]
        lines.append(f"| {m['bot_a']} vs {m['bot_b']} | {_ci(m['signed_levels_per_deal'])} | "
                     f"{rate_text} | {win['mean']:.3f} [{win['lo']:.3f}, {win['hi']:.3f}] |")
    return "\n".join(lines) + "\n"


def add_ladder(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``ladder`` subcommand's arguments."""
    p = sub.add_parser(
        "ladder",
        help="round robin of duplicate matches; ratings table and chart",
        description="Every pair of --bots plays --deals duplicate deal pairs (the same seeds "
        "for every matchup); writes ladder.md, ladder.svg and ladder.json into --out-dir.",
    )
    p.add_argument("--bots", required=True, help="two or more bots, comma-separated")
    p.add_argument("--preset", default="classic", help="a fixed-partner preset (default classic)")
    p.add_argument("--options", metavar="JSON", help="ruleset options over the preset (object)")
    add_rules_arg(p)
    p.add_argument("--deals", type=int, default=100, help="deal pairs per matchup (default 100)")
    p.add_argument("--seed", default="0", help="every deal's seed derives from it")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes")
    p.add_argument("--out-dir", default="ladder", help="where to write (default ./ladder)")
    p.add_argument("--think-ms", type=float, default=None, help="budget of plain `search` bots")
    p.add_argument("--forfeit-illegal", action="store_true",
                   help="a bot's illegal action forfeits its deal pair instead of stopping")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    add_executor(p)
    add_traceback(p)
