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


# 联众 扣底 (seed 000 §一; the same text in seed 002 边锋): "1、若牌中含有 Titanic…则乘的倍数等于
# 2·3^len…且不再计算其他牌型；2、若牌中含有三对则乘的倍数等于 6，且不再计算其他牌型；3、若牌中含有
# 拖拉机则乘的倍数等于 2·2^len，且不再计算其他牌型；4、若牌中含有两对则乘的倍数等于 4；5、什么都没有
# 则乘的倍数等于 2。" (三对 = a triple, 两对 = a pair.) First match wins (Decision 112).
LZ3 = rules("three-deck", kitty_formula="lianzhong")


@pytest.mark.parametrize(
    ("throw", "times", "pattern"),
    [
        ("SA SA SA SK SK SQ SQ", 6, "a triple, not the tractor's 8"),
        ("SA SA SA S9 S9 S8 S8 S7 S7 S6 S6", 6, "a triple, not the 4-pair tractor's 32"),
        ("SA SA SA SK SK SK SQ SQ SJ SJ", 18, "a Titanic of 2"),
        ("SA SA SA SK SK SK S9 S9 S9", 18, "a Titanic of 2 beside a triple"),
        ("SA SA SK SK S9", 8, "a tractor of 2 before a pair"),
        ("SA SA S9 S9 S7 S7 SK", 4, "pairs only"),
        ("SA SK SQ", 2, "singles only"),
    ],
)
def test_lianzhong_multiplier_is_a_priority_list(throw: str, times: int, pattern: str) -> None:
    # the attackers' winning throw in the last trick counts its own units (Decision 25)
    assert kitty(throw, ruleset=LZ3) == times, pattern


@pytest.mark.parametrize("name", ["lianzhong", "bianfeng", "find-friend",
                                  "lianzhong-three-deck"])
def test_the_lianzhong_presets_use_the_list(name: str) -> None:
    rs = rules(name)
    assert rs.kitty_formula == "lianzhong"
    assert kitty("SA SA SK SK SQ SQ S3", ruleset=rs) == 16  # tractor of 3 pairs: 2·2³
    if rs.decks >= 3:
        assert kitty("SA SA SA SK SK SQ SQ", ruleset=rs) == 6  # AAA + KKQQ: 6, not 8


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
