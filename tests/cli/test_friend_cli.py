"""找朋友 through the CLI: the arena plays find-friend and five-player, refuses --duplicate,
the replay narrates the call and the reveal, and a human dealer can call at the terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shengji.bots.random_bot import RandomBot
from shengji.cli.main import main
from shengji.cli.play import HumanPlayer
from shengji.core.actions import CallFriend
from shengji.core.cards import parse_card
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
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
    assert "Levels: #1 on" in out
    assert "the holder nearest the dealer is the friend" in out or "plays alone" in out
    assert "calls copy" not in out


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
    """边锋 names a card, not a copy: "可以指定一张牌为自己的对家"."""
    s = bury_back(pass_round(deal_out(stacked(PRESETS["find-friend"], {0: "SA"}))))
    assert s.phase is Phase.CALLING
    out = io.StringIO()
    human = HumanPlayer(io.StringIO("S1\n2 SA\nhint\nSA\n"), out, RandomBot(1))
    action = human.choose(view_for(s, 0), s.legal_actions(0))
    assert action == CallFriend(0, parse_card("SA"), 1)
    text = out.getvalue()
    assert text.count("not allowed") == 2 and "hint:" in text and "nearest you" in text


def test_a_human_dealer_calls_a_copy_under_the_nth_played_rule() -> None:
    rs = PRESETS["find-friend"].replace({"friend_rule": "nth-played"})
    s = bury_back(pass_round(deal_out(stacked(rs, {0: "SA"}))))
    out = io.StringIO()
    human = HumanPlayer(io.StringIO("3 SA\n2 SA\n"), out, RandomBot(1))
    assert human.choose(view_for(s, 0), s.legal_actions(0)) == CallFriend(0, parse_card("SA"), 2)
    assert out.getvalue().count("not allowed") == 1


def test_the_replay_tells_a_farther_holder_is_not_the_friend() -> None:
    from shengji.cli.replay import Narrator
    from shengji.core.actions import Play
    from shengji.core.match import MatchState

    s = bury_back(pass_round(deal_out(stacked(
        PRESETS["find-friend"], {0: "S3", 1: "SA S4", 2: "S5", 3: "SA"}, fill_seed=1))))
    m = MatchState(PRESETS["find-friend"], 1, (0,) * 4, 0, s)
    out = io.StringIO()
    narrator = Narrator(out, "en", m, None)
    for a in [CallFriend(0, parse_card("SA"), 1), *(
            Play(p, (parse_card(c),)) for p, c in ((0, "S3"), (1, "S4"), (2, "S5"), (3, "SA")))]:
        m, events = m.apply(a)
        narrator.show(events, m)
    text = out.getvalue()
    assert "#1 calls SA: the holder nearest the dealer is the friend (#2" in text
    assert "#4 plays SA but is not the friend" in text
    zh = io.StringIO()
    Narrator(zh, "zh", m, None).show([events[-2]], m)
    assert "不是朋友" in zh.getvalue()


def test_a_player_at_the_terminal_is_not_told_who_the_secret_friend_is() -> None:
    """`shengji play` narrates what the player's seat can know: the holder nearest the dealer
    learns it is the friend, the others only that the friend is secret (a replay tells all)."""
    from shengji.cli.replay import Narrator
    from shengji.core.match import MatchState

    s = bury_back(pass_round(deal_out(stacked(
        PRESETS["find-friend"], {0: "S3", 1: "SA S4", 2: "S5", 3: "SA"}, fill_seed=1))))
    m = MatchState(PRESETS["find-friend"], 1, (0,) * 4, 0, s)
    m, events = m.apply(CallFriend(0, parse_card("SA"), 1))
    told = {}
    for viewer in (0, 1, 2, 3):
        out = io.StringIO()
        narrator = Narrator(out, "en", m, None, viewer=viewer)
        narrator.show(events, m)
        told[viewer] = out.getvalue()
    assert "you are the friend" in told[1]
    for viewer in (0, 2, 3):
        assert "secret until it plays SA" in told[viewer] and "#2" not in told[viewer], told


def test_the_text_summary_names_no_fixed_teams(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--preset", "find-friend", "--bots", "heuristic,random,heuristic,random",
            "--deals", "2", "--seed", "4"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "partners: none fixed" in out and "team 0" not in out


def test_the_replay_names_the_seats_holding_the_right_to_declare() -> None:
    """Seed 002 "抓分方捉满120分即可上台,即每个成员获得下一局的亮牌权": each deal after a
    takeover says who contested it, and its header gives the declarer's own level."""
    from shengji.bots.driver import play_match
    from shengji.cli.replay import print_replay
    from shengji.core.cards import LEVELS

    rs = PRESETS["five-player"]
    m, record = play_match(rs, [RandomBot(f"r/{i}") for i in range(5)], "rights", deals=6)
    out = io.StringIO()
    print_replay(record, out)
    text = out.getvalue()
    contested = [i for i in range(1, 6) if m.history[i - 1].result.change.attackers_take_over]
    assert contested and text.count("亮牌权: ") == len(contested)
    for i in contested:
        d = m.history[i]
        assert f"Deal {i + 1}: dealer #{d.dealer + 1} " in text
        assert f"level {LEVELS[d.level]}," in text.split(f"Deal {i + 1}:")[1].split("\n")[0]
