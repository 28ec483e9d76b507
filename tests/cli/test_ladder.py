"""``shengji ladder``: a round robin of duplicate matches, Bradley–Terry ratings, a table and
an SVG chart; resumable."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from shengji.bots.ratings import elo_intervals, expected_score, fit_elo
from shengji.cli.main import main


def test_ratings_are_symmetric_and_ordered() -> None:
    even = fit_elo(["a", "b"], {("a", "b"): [1.0, -1.0, 0.0]})
    assert even["a"] == pytest.approx(0.0, abs=1e-6) == even["b"]
    # a bot that wins every game still gets a finite rating (one virtual draw per matchup)
    sweep = fit_elo(["a", "b"], {("a", "b"): [2.0] * 50})
    assert 0 < sweep["a"] < 2000
    assert expected_score(sweep["a"], sweep["b"]) == pytest.approx(50.5 / 51, rel=1e-6)
    ci = elo_intervals(["a", "b", "c"], {("a", "b"): [1.0] * 7 + [-1.0] * 3,
                                         ("b", "c"): [1.0] * 6 + [-1.0] * 4})
    for elo, lo, hi in ci.values():
        assert lo <= elo <= hi
    assert ci["a"][0] > ci["b"][0] > ci["c"][0]


def test_ladder_writes_table_chart_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ladder", "--bots", "random,heuristic,tests.bots.plugin_examples:make_random",
            "--preset", "one-deck", "--deals", "12", "--seed", "3", "--out-dir", str(tmp_path),
            "--no-progress"]
    assert main(args) == 0
    text = capsys.readouterr().out
    table = (tmp_path / "ladder.md").read_text()
    assert text.startswith(table)
    assert "| 1 | heuristic |" in table
    assert "| random vs heuristic |" in table
    svg = ET.parse(tmp_path / "ladder.svg").getroot()
    assert svg.tag.endswith("svg")
    assert len(svg.findall("{http://www.w3.org/2000/svg}circle")) == 3
    data = json.loads((tmp_path / "ladder.json").read_text())
    assert data["complete"] and data["finished"] == 3
    ratings = data["report"]["ratings"]
    assert ratings[0]["bot"] == "heuristic"
    assert all(r["lo"] <= r["elo"] <= r["hi"] for r in ratings)
    # each matchup is the duplicate arena with the same seed
    assert main(["arena", "--duplicate", "--bots", "random,heuristic", "--preset", "one-deck",
                 "--deals", "12", "--seed", "3", "--json", "--no-progress"]) == 0
    arena = json.loads(capsys.readouterr().out)
    first = data["report"]["matchups"][0]
    assert first["signed_levels_per_deal"] == arena["signed_levels_per_deal"]
    # the same command again finds every matchup done and gives the same ratings
    assert main(args) == 0
    assert json.loads((tmp_path / "ladder.json").read_text())["report"]["ratings"] == ratings


def test_ladder_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ladder", "--out-dir", str(tmp_path), "--no-progress"]
    assert main([*base, "--bots", "random"]) == 2
    assert "at least two different bots" in capsys.readouterr().err
    assert main([*base, "--bots", "random,heuristic", "--preset", "find-friend"]) == 2
    assert "two fixed teams" in capsys.readouterr().err
    assert main([*base, "--bots", "random,nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_a_sweep_still_has_an_interval() -> None:
    # 30 wins out of 30: resampling those games would give a zero-width interval
    ci = elo_intervals(["a", "b"], {("a", "b"): [2.0] * 30})
    elo, lo, hi = ci["a"]
    assert lo < elo <= hi  # above a sweep's own rating the games cannot tell
    assert ci["b"][0] == pytest.approx(-elo)
