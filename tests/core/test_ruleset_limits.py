"""Every ruleset the core accepts can be dealt, played and ended; every other one is refused
with an error naming the option (docs/rules.md, decision 135)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.errors import RulesetError
from shengji.core.ruleset import _FIELD_NAMES, PRESETS, preset
from tests.ruleset_options import option_dicts, table_shapes


@pytest.mark.parametrize(
    ("preset_name", "options", "field"),
    [
        ("classic", {"kitty_size": 108}, "kitty_size"),  # hands of 0 cards (the report)
        ("one-deck", {"kitty_size": 210}, "kitty_size"),  # a negative hand that "splits"
        ("classic", {"kitty_size": -4}, "kitty_size"),
        ("classic", {"kitty_size": 7}, "kitty_size"),  # 101 cards do not split among 4
        ("classic", {"players": 7}, "players"),
        ("classic", {"decks": 0}, "decks"),
        ("classic", {"level_sequence": []}, "level_sequence"),
        ("classic", {"level_sequence": ["A", "2"]}, "level_sequence"),
        ("classic", {"level_sequence": ["X"]}, "level_sequence"),
        ("classic", {"level_sequence": ["2"] * 14}, "level_sequence"),
        ("classic", {"must_play": ["A", "A"]}, "must_play"),
        ("classic", {"kitty_cap": 0}, "kitty_cap"),
        ("classic", {"kitty_cap": 10**30}, "kitty_cap"),
        ("classic", {"failed_throw_penalty": 201}, "failed_throw_penalty"),
        ("classic", {"kitty_card_index": 10**30}, "kitty_card_index"),
        ("tournament", {"kitty_card_index": 8}, "kitty_card_index"),
        ("three-player", {"bid_open": 205}, "bid_open"),  # above the 200 points of 2 decks
        ("three-player", {"decks": 1}, "bid_open"),  # 150 of a 100-point pack
        ("three-player", {"bid_step": 0}, "bid_step"),
        ("classic", {"bid_open": 10**12}, "bid_open"),
        ("three-player", {"rebury_swap": 10}, "rebury_swap"),
        ("classic", {"name": "x" * 41}, "name"),
        ("classic", {"name": "a\u202eb"}, "name"),  # a right-to-left override
        ("classic", {"throw_policy": "sometimes"}, "throw_policy"),
        ("classic", {"decks": True}, "decks"),
        ("classic", {"nonsense": 1}, "nonsense"),
        ("nope", {}, "preset"),
    ],
)
def test_unplayable_options_are_refused_naming_the_field(
    preset_name: str, options: dict[str, Any], field: str
) -> None:
    with pytest.raises(RulesetError) as e:
        preset(preset_name, options)
    assert e.value.field == field
    assert field in e.value.message or field == "preset"


def test_the_largest_kitty_leaves_every_hand_one_card_and_plays() -> None:
    rs = preset("classic", {"kitty_size": 104})
    assert rs.hand_size == 1
    state, _ = play_match(rs, [RandomBot(i) for i in range(4)], seed=1, deals=1)
    assert len(state.history) == 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(PRESETS)),
    options=st.one_of(option_dicts(), table_shapes()),
    seed=st.integers(0, 99),
)
def test_any_options_either_refused_by_field_or_a_deal_plays_to_its_end(
    name: str, options: dict[str, Any], seed: int
) -> None:
    try:
        rs = preset(name, options)
    except RulesetError as e:
        assert e.field is not None and e.field in {*_FIELD_NAMES, *options, "preset"}
        event("refused")
        return
    event("played")
    assert rs.hand_size >= 1
    state, record = play_match(rs, [RandomBot(i) for i in range(rs.players)], seed, deals=1)
    assert len(state.history) == 1 and record.actions
