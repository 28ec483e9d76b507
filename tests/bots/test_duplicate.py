"""Duplicate deals: the same cards both ways, figures from A's side, a null control."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from shengji.bots.duplicate import (
    DuplicateReport,
    PairResult,
    level_rate_ci,
    mean_ci,
    play_pair,
    run_duplicate,
    wilson_ci,
)
from shengji.cli.main import main
from shengji.core.ruleset import PRESETS


def test_a_pair_plays_the_same_cards_both_ways_and_counts_from_a_side() -> None:
    r = play_pair(PRESETS["classic"], "random", "random", "x1")
    assert r.signed_levels == (r.a_levels - r.b_levels) / 2
    assert 0 <= r.a_won <= 1 and r.a_won * 2 == int(r.a_won * 2)
    assert r.times_a and r.times_b


def test_null_control_random_against_itself_is_zero_within_its_interval() -> None:
    d = run_duplicate(PRESETS["one-deck"], "random", "random", deals=60, seed=5).to_dict()
    s = d["signed_levels_per_deal"]
    assert s["lo"] <= 0 <= s["hi"]
    w = d["deal_win_rate"]
    assert w["lo"] <= 0.5 <= w["hi"]


def test_parallel_jobs_give_the_same_figures() -> None:
    one = run_duplicate(PRESETS["one-deck"], "random", "random", deals=8, seed=2).to_dict()
    two = run_duplicate(PRESETS["one-deck"], "random", "random", deals=8, seed=2, jobs=2)
    other = two.to_dict()
    for key in ("signed_levels_per_deal", "level_rate", "deal_win_rate", "failed_throws"):
        assert one[key] == other[key]


def test_intervals() -> None:
    assert mean_ci([1.0, 1.0, 1.0]) == {"mean": 1.0, "lo": 1.0, "hi": 1.0}
    ci = level_rate_ci([3, 0, 2, 1], [0, 1, 0, 0])
    assert ci["mean"] == 0.8571 and ci["lo"] <= ci["mean"] <= ci["hi"]
    assert level_rate_ci([0], [0])["mean"] is None


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_rates_stay_within_zero_and_one(case: tuple[int, int]) -> None:
    successes, trials = case
    ci = wilson_ci(successes, trials)
    assert ci["lo"] is not None and ci["hi"] is not None and ci["mean"] is not None
    assert 0.0 <= ci["lo"] <= ci["mean"] <= ci["hi"] <= 1.0


def test_a_lopsided_report_keeps_its_win_rate_interval_within_one() -> None:
    """40 pairs, A won 79 of 80 deals: a normal interval read [0.96, 1.01]."""
    report = DuplicateReport("classic", "a", "b")
    for k in range(40):
        report.add(PairResult(1.0, 0.5 if k == 0 else 1.0, 2, 0, 0, 0, 0, 0, [], []))
    rate = report.to_dict()["deal_win_rate"]
    assert rate["mean"] == 0.9875 and 0.9 < rate["lo"] < rate["mean"] < rate["hi"] <= 1.0


def test_cli_duplicate_json_and_errors(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["arena", "--duplicate", "--bots", "random,random", "--deals", "3",
                 "--preset", "one-deck", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"] == 3 and data["deals"] == 6
    assert main(["arena", "--duplicate", "--bots", "random,random", "--matches", "2"]) == 2
    assert "--deals" in capsys.readouterr().err
    assert main(["arena", "--duplicate", "--bots", "random,nobody"]) == 2
    assert "unknown bot" in capsys.readouterr().err
