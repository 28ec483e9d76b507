"""``shengji arena``: bots play deals or matches; figures, JSON, records and bad arguments."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import pytest

from shengji.bots.registry import bot_names, make_bot
from shengji.cli.main import main
from shengji.core.record import GameRecord, replay, replay_steps
from shengji.core.ruleset import PRESETS
from tests.core.test_properties_game import check_cards

FOUR = "random,random,random,random"


def arena_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["arena", "--json", *args]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_summary_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--preset", "one-deck", "--bots", FOUR, "--deals", "4"]) == 0
    out = capsys.readouterr().out
    for text in ("preset one-deck", "deals 4;", "deals won: dealer side", "levels gained",
                 "attacker points: mean", "kitty captured", "failed throws", "deals/s",
                 "decisions/s"):
        assert text in out
    assert len(out.splitlines()) < 30


def test_json_figures_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    d = arena_json(capsys, "--preset", "one-deck", "--deals", "6", "--seed", "3")
    assert d["deals"] == 6
    won = d["deal_winners"]
    assert isinstance(won, dict) and won["dealer_side"] + won["attackers"] == 6
    changes = d["level_changes"]
    assert isinstance(changes, dict) and sum(changes.values()) == 6
    pts = d["attacker_points"]
    assert isinstance(pts, dict) and pts["count"] == 6
    assert sum(pts["histogram"].values()) == 6
    assert pts["min"] <= pts["p25"] <= pts["median"] <= pts["p75"] <= pts["max"]
    assert isinstance(d["decisions"], int) and d["decisions"] > 6 * 50


def test_same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    timing = ("seconds", "deals_per_second", "decisions_per_second")
    runs = [arena_json(capsys, "--preset", "one-deck", "--deals", "3", "--seed", "9")
            for _ in range(2)]
    a, b = ({k: v for k, v in r.items() if k not in timing} for r in runs)
    assert a == b


def test_matches_are_capped_by_deals(capsys: pytest.CaptureFixture[str]) -> None:
    d = arena_json(capsys, "--preset", "one-deck", "--matches", "2", "--deals", "2")
    m = d["matches"]
    assert isinstance(m, dict) and m["played"] == 2
    assert d["deals"] == 4 and m["unfinished"] == 2


def test_records_replay_to_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = arena_json(capsys, "--preset", "one-deck", "--deals", "3", "--record", str(tmp_path))
    files = sorted(tmp_path.glob("match-*.json"))
    assert [str(f) for f in files] == d["records"] and files[0].name == "match-1.json"
    total = 0
    for f in files:
        record = GameRecord.from_json(f.read_text(encoding="utf-8"))
        state = replay(record)
        assert record.result["deals"] == len(state.history)
        total += len(state.history)
    assert total == 3


ISSUE_12_PRESETS = {
    "find-friend": "items 1, 2, 6, 7: the nearest holder, 翻主方 deals, smallest, 联众 list",
    "five-player": "items 1, 3, 4: the nearest holder, 抢亮 tiers, 级数不浪费 / 王 / 亮牌权",
    "classic": "item 2: the first declarer deals",
    "one-deck": "item 2: the first declarer deals",
    "two-color": "item 2: the first declarer deals",
    "three-deck": "items 2, 3: the first declarer deals, 抢亮 tiers",
    "lianzhong": "items 2, 7: 翻主方 deals, the multiplier list",
    "bianfeng": "items 2, 6, 7: 翻主方 deals, smallest failed throw, the multiplier list",
    "four-deck": "item 5: the 连四 follow tables",
    "huanle": "item 8: 反底 as a standing rule",
    "lianzhong-three-deck": "item 8: 联众's three decks",
}
"""Every preset whose play issue 12 changed, and the items that changed it."""


ISSUE_40_PRESETS: Final = {
    "lianzhong": "a throw's winner sets the multiplier (Decision 139)",
    "bianfeng": "a throw's winner sets the multiplier (Decision 139)",
    "find-friend": "a throw's winner sets the multiplier (Decision 139)",
    "lianzhong-three-deck": "a throw's winner sets the multiplier (Decision 139)",
    "four-deck": "the seat dealt first drawn per deal (Decision 141)",
    "tournament": "no player aids (Decision 140)",
    "three-player": "the lowest bid 100 (Decision 142)",
}
"""Every preset whose play or table issue 40 changed."""


def test_every_preset_is_in_a_seeded_arena() -> None:
    assert set(PRESETS) <= set(ISSUE_12_PRESETS) | set(ISSUE_40_PRESETS)


@pytest.mark.parametrize("name", sorted(set(ISSUE_12_PRESETS) | set(ISSUE_40_PRESETS)))
def test_seeded_arena_of_a_platform_preset_conserves_cards(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issues 12 and 40: the presets whose rules changed play whole seeded arenas, every card
    # accounted for at every step of every deal (hands + kitty + tricks = the pack)
    players = PRESETS[name].players
    bots = ",".join(("heuristic", "random")[i % 2] for i in range(players))
    d = arena_json(capsys, "--preset", name, "--bots", bots,
                   "--deals", "10", "--seed", "3", "--record", str(tmp_path))
    assert d["deals"] == 10
    finished = 0
    for f in sorted(tmp_path.glob("match-*.json")):
        for _action, match, _events in replay_steps(GameRecord.from_json(f.read_text("utf-8"))):
            check_cards(match.deal)
        finished += len(match.history)
    assert finished == 10


def test_options_change_the_ruleset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ["--preset", "one-deck", "--deals", "2", "--record", str(tmp_path)]
    arena_json(capsys, *args, "--options", '{"throw_policy": "never"}')
    record = GameRecord.from_json((tmp_path / "match-1.json").read_text(encoding="utf-8"))
    assert record.ruleset["throw_policy"] == "never"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "no-such"], "unknown preset 'no-such'"),
        (["--bots", "random,nobody,random,random"], "unknown bot 'nobody'"),
        (["--bots", "random,random,random"], "--bots needs 4 names"),
        (["--options", "{bad json"], "--options is not valid JSON"),
        (["--options", "[1]"], "--options must be a JSON object"),
        (["--options", '{"no_such_option": 1}'], "unknown ruleset option"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--matches", "-1"], "--matches must be at least 1"),
    ],
)
def test_bad_arguments_are_refused_clearly(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["arena", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.err.startswith("shengji arena: error:")


def test_non_numbers_are_refused_by_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["arena", "--deals", "many"])
    assert exc.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_registry() -> None:
    assert "random" in bot_names()
    assert make_bot("Random", seed=1).name == "random"
    known = "beginner, expert, heuristic, normal, random, search"
    with pytest.raises(ValueError, match=f"unknown bot 'x'; known: {known}"):
        make_bot("x", seed=1)


def test_think_ms_sets_the_search_budget(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--preset", "one-deck", "--bots", "search,random,search,random",
            "--deals", "1", "--seed", "3", "--think-ms", "5", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 1
    assert main(["arena", "--think-ms", "0", "--deals", "1"]) == 2
    assert "--think-ms" in capsys.readouterr().err
