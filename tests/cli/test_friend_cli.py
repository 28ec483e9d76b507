"""找朋友 through the CLI: the arena plays find-friend and five-player, refuses --duplicate,
the replay narrates the call and the reveal, and a human dealer can call at the terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shengji.bots.random import RandomBot
from shengji.cli.main import main
from shengji.cli.play import HumanPlayer
from shengji.core.actions import CallFriend
from shengji.core.cards import parse_card
from shengji.core.ruleset import PRESETS
from shengji.core.state import Phase
from shengji.core.views import view_for
from tests.core.dealkit import bury_back, deal_out, pass_round, stacked


@pytest.mark.parametrize(
    ("name", "bots"),
    [("find-friend", "heuristic,random,heuristic,random"),
     ("five-player", "heuristic,random,heuristic,random,heuristic")],
)
def test_arena_plays_per_seat_figures(
    name: str, bots: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["arena", "--json", "--preset", name, "--bots", bots, "--deals", "4", "--seed", "2",
            "--record", str(tmp_path)]
    assert main(args) == 0
    d = json.loads(capsys.readouterr().out)
    players = PRESETS[name].players
    assert d["deals"] == 4 and len(d["teams"]) == players
    assert [t["seats"] for t in d["teams"]] == [[s] for s in range(players)]
    assert len(d["levels_gained"]) == players and len(d["matches"]["wins"]) == players
    assert main(["replay", str(tmp_path / "match-1.json")]) == 0
    out = capsys.readouterr().out
    assert "calls copy" in out and "Levels: #1 on" in out


def test_arena_summary_names_seats(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "random,random,random,random,random"
    assert main(["arena", "--preset", "five-player", "--bots", bots, "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "levels gained: S0 " in out and "S4" in out


def test_arena_wants_five_bots_for_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--preset", "five-player", "--bots", "random,random,random,random"]) == 2
    assert "seats 5 players" in capsys.readouterr().err


def test_duplicate_is_refused_without_fixed_teams(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--preset", "find-friend", "--bots", "random,heuristic",
                 "--duplicate", "--deals", "2"]) == 2
    assert "--duplicate swaps two fixed teams" in capsys.readouterr().err


def test_a_human_dealer_calls_at_the_terminal() -> None:
    s = bury_back(pass_round(deal_out(stacked(PRESETS["find-friend"], {0: "SA"}))))
    assert s.phase is Phase.CALLING
    out = io.StringIO()
    human = HumanPlayer(io.StringIO("SA\n3 SA\nhint\n2 SA\n"), out, RandomBot(1))
    action = human.choose(view_for(s, 0), s.legal_actions(0))
    assert action == CallFriend(0, parse_card("SA"), 2)
    text = out.getvalue()
    assert text.count("not allowed") == 2 and "hint:" in text


def test_the_text_summary_names_no_fixed_teams(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--preset", "find-friend", "--bots", "heuristic,random,heuristic,random",
            "--deals", "2", "--seed", "4"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "partners: none fixed" in out and "team 0" not in out
