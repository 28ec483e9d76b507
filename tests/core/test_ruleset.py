"""Rulesets: presets, dict round-trips and refusals (DESIGN.md principle 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shengji.core.errors import NotationError, Reason, RulesetError
from shengji.core.ruleset import (
    LEVEL_TABLES,
    PRESETS,
    RESERVED_PRESETS,
    Ruleset,
    preset,
)

# RULES.md §5: decks, players, cards each and kitty
DEALS = {
    "classic": (2, 4, 25, 8),
    "lianzhong": (2, 4, 25, 8),
    "bianfeng": (2, 4, 25, 8),
    "one-deck": (1, 4, 12, 6),
    "two-color": (1, 4, 12, 6),
    "three-deck": (3, 4, 39, 6),
    "four-deck": (4, 4, 54, 0),
    "tournament": (2, 4, 25, 8),
    "find-friend": (2, 4, 25, 8),
    "five-player": (3, 5, 31, 7),  # RULES §5: "preset decides"; 162 - 7 = 5 × 31
    "three-player": (2, 3, 33, 9),
    "huanle": (2, 4, 25, 8),
    "lianzhong-three-deck": (3, 4, 39, 6),  # seed 000 §一 "打三副牌时每方得牌 39张…6张为底牌"
}


def test_presets_are_the_known_ones() -> None:
    assert set(PRESETS) == set(DEALS)


@pytest.mark.parametrize("name", sorted(DEALS))
def test_every_preset_builds_with_its_deal(name: str) -> None:
    rs = preset(name)
    assert rs is PRESETS[name]
    assert rs.name == name
    assert (rs.decks, rs.players, rs.hand_size, rs.kitty_size) == DEALS[name]
    assert rs.players * rs.hand_size + rs.kitty_size == 54 * rs.decks
    assert rs.deck_points == 100 * rs.decks
    assert rs.levels is LEVEL_TABLES[rs.level_table]


@pytest.mark.parametrize("name", sorted(DEALS))
def test_dict_round_trip_through_json(name: str) -> None:
    rs = PRESETS[name]
    data = json.loads(json.dumps(rs.to_dict()))
    assert Ruleset.from_dict(data) == rs
    assert "deck_points" not in data  # derived, not an option


def test_ranks_are_written_in_notation() -> None:
    data = PRESETS["tournament"].to_dict()
    assert data["level_sequence"] == ["2", "5", "10", "J", "Q", "K", "A"]
    assert data["must_play"] == ["2", "A"]


def test_preset_values_from_the_rules() -> None:
    four = PRESETS["four-deck"]
    assert four.permanent_twos and four.stronger_shapes_beat
    assert (four.throw_policy, four.kitty_formula, four.no_declaration) == (
        "others-void", "last-trick-transfer", "spades")
    assert not four.allow_self_overturn
    assert PRESETS["two-color"].two_color and PRESETS["two-color"].max_width == 2
    assert PRESETS["three-deck"].max_width == 3
    t = PRESETS["tournament"]
    assert (t.failed_throw_penalty, t.kitty_formula, t.jack_kitty_reset) == (10, "tournament", True)
    assert PRESETS["lianzhong"].follow_order == "lianzhong"
    assert PRESETS["bianfeng"].level_table == "classic"


def test_options_override_a_preset() -> None:
    rs = preset("classic", {"throw_policy": "never", "level_sequence": ["2", "5", "A"]})
    assert rs.throw_policy == "never"
    assert rs.level_sequence == (0, 3, 12)
    assert rs.decks == 2
    assert PRESETS["classic"].throw_policy == "validated"  # the preset itself is untouched
    assert preset("classic", {}) == PRESETS["classic"]


def test_replace_and_from_dict_accept_ints_for_ranks() -> None:
    assert PRESETS["classic"].replace({"must_play": [0, 12]}).must_play == (0, 12)
    assert preset("classic", {"must_play": ["t"]}).must_play == (8,)


@pytest.mark.parametrize("name", ["nope", "Classic", ""])
def test_unknown_preset_refused(name: str) -> None:
    with pytest.raises(RulesetError) as err:
        preset(name)
    assert err.value.reason == Reason.BAD_RULESET


@pytest.mark.parametrize("name", RESERVED_PRESETS)
def test_reserved_names_refused(name: str) -> None:
    with pytest.raises(RulesetError, match="reserved"):
        preset(name)


def test_unknown_keys_refused() -> None:
    with pytest.raises(RulesetError, match="colour"):
        preset("classic", {"colour": True})
    with pytest.raises(RulesetError, match="deck_points"):
        Ruleset.from_dict({**PRESETS["classic"].to_dict(), "deck_points": 200})


@pytest.mark.parametrize(
    "options",
    [
        {"decks": 5},
        {"decks": 0},
        {"decks": "2"},
        {"decks": True},
        {"decks": 2.0},
        {"players": 2},
        {"players": 7},
        {"kitty_size": 7},  # 101 cards do not split among 4
        {"kitty_size": -4},
        {"decks": 3},  # 162 - 8 does not split among 4
        {"throw_policy": "sometimes"},
        {"throw_forced": "largest"},
        {"kitty_formula": "double"},
        {"follow_order": "qq-ish"},
        {"declaration": 1},
        {"two_color": "yes"},
        {"two_color": 1},
        {"level_table": "nope"},
        {"level_table": 3},
        {"level_sequence": "2..A"},
        {"level_sequence": []},
        {"level_sequence": ["A", "2"]},
        {"level_sequence": ["2", "2"]},
        {"level_sequence": ["2", "Z"]},
        {"level_sequence": [14]},  # 13 is JK, the joker level
        {"level_sequence": ["2", "JK", "A"]},
        {"must_play": [14]},
        {"must_play": "A"},
        {"level_transfer": "opponents"},  # find-a-friend games only
        {"level_transfer": "sometimes"},
        {"takeover_dealer": "anyone"},
        {"friend_rule": "first"},
        {"kitty_cap": 0},
        {"name": 3},
    ],
)
def test_bad_values_refused(options: dict[str, Any]) -> None:
    with pytest.raises((RulesetError, NotationError)):  # a bad rank is a notation error
        preset("classic", options)


def test_validation_also_guards_direct_construction() -> None:
    with pytest.raises(RulesetError):
        Ruleset(decks=9)
    with pytest.raises(RulesetError):
        Ruleset(level_table="nope")


def test_options_that_fit_other_decks() -> None:
    rs = preset("classic", {"decks": 3, "kitty_size": 6})
    assert rs.hand_size == 39 and rs.deck_points == 300
    three = preset("classic", {"players": 3, "kitty_size": 9})
    assert three.hand_size == 33


def test_must_play_out_of_range_refused() -> None:
    with pytest.raises(RulesetError):
        preset("classic", {"must_play": [99]})


def test_booleans_are_not_ranks() -> None:
    with pytest.raises(RulesetError):
        preset("classic", {"level_sequence": [True]})
