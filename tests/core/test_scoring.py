"""Kitty multipliers (RULES.md §6) and level changes (RULES.md §7)."""

from __future__ import annotations

import pytest

from shengji.core.ruleset import LEVEL_TABLES, PRESETS
from shengji.core.scoring import LevelChange, level_change, winning_units
from tests.core.helpers import C, ctx, kitty, levels, rules, unit_strs

THREE = rules("three-deck")


def test_winning_units_of_a_one_unit_trick() -> None:
    assert unit_strs(winning_units(C("S4 S4"), C("H9 H9"), ctx())) == ["H9 H9"]


def test_winning_units_of_a_throw_are_the_lead_shapes() -> None:
    lead, ruff = C("SA SK S5 S5 S4 S4"), C("H9 H9 H8 H8 H7 H2")
    assert unit_strs(winning_units(lead, ruff, ctx())) == ["S5 S5 S4 S4", "SA", "SK"]


def test_power_of_size_caps_at_64() -> None:
    assert kitty("S4 S4 S4 S5 S5 S5 S6 S6 S6", ruleset=THREE) == 64
    assert kitty("S4 S4 S5 S5 S6 S6 S7 S7") == 64
    assert kitty("S4 S4 S4 S5 S5 S5", ruleset=rules("three-deck", kitty_cap=16)) == 16


def test_power_of_size_single() -> None:
    assert kitty("SA") == 2
    assert kitty("SA", "H2") == 2


def test_ruff_of_a_throw_counts_the_throw_shape() -> None:
    lead = "SA SK S5 S5 S4 S4"
    assert kitty(lead, "H9 H9 H8 H8 H7 H3", level="10") == 16  # its tractor: 2^4
    assert kitty(lead, "H9 H9 H8 H8 H7 H3", level="10", ruleset="tournament") == 2


def test_lianzhong_largest_pattern_counts() -> None:
    lz = rules("classic", kitty_formula="lianzhong")
    assert kitty("SA SK S5 S5 S4 S4", ruleset=lz) == 8  # tractor of two pairs
    assert kitty("SA SK S5 S5", ruleset=lz) == 4
    assert kitty("SA SK S5", ruleset=lz) == 2
    assert PRESETS["lianzhong"].kitty_formula == PRESETS["bianfeng"].kitty_formula == "lianzhong"


def test_tournament_formula_on_tractors_of_any_length() -> None:
    assert kitty("S4 S4 S5 S5 S6 S6", ruleset="tournament") == 8
    assert kitty("S4 S4 S6 S6", ruleset="tournament") == 2  # a throw of two pairs


def test_four_deck_transfer_of_a_tractor() -> None:
    four = rules("four-deck")
    assert kitty("S7 S7 S8 S8", level="5", ruleset=four) == 4
    assert kitty("S7 S7 S7 S8 S8 S8", level="5", ruleset=four) == 6


def test_level_change_type() -> None:
    ch = level_change(125, PRESETS["classic"])
    assert ch == LevelChange(0, 1, True)
    assert (ch.defender_levels, ch.attacker_levels, ch.attackers_take_over) == (0, 1, True)


@pytest.mark.parametrize("table", sorted(LEVEL_TABLES))
def test_tables_are_monotonic(table: str) -> None:
    # more attacker points never help the dealer side, never hurt the attackers
    t = LEVEL_TABLES[table]
    prev = t.result(0)
    for p in range(5, 500, 5):
        d, a, over = t.result(p)
        assert d <= prev[0] and a >= prev[1] and (over or not prev[2])
        assert not (d and a)  # only one side goes up
        prev = (d, a, over)


def test_tables_take_over_exactly_when_the_dealer_side_gains_nothing() -> None:
    for name, t in LEVEL_TABLES.items():
        for p in range(0, 400, 5):
            d, _a, over = t.result(p)
            assert over == (d == 0), (name, p)


def test_tournament_cap() -> None:
    assert levels(1000, "tournament") == (0, 3, True)
    assert LEVEL_TABLES["tournament"].cap == 3


def test_no_cap_elsewhere() -> None:
    assert levels(1000, "classic") == (0, 23, True)  # 120 → 1, then +1 per 40
    assert levels(600, "three-deck") == (0, 8, True)


def test_ruleset_table_choice() -> None:
    assert levels(80, rules("classic", level_table="lianzhong")) == (0, 1, True)
    assert levels(80, "classic") == (0, 0, True)
