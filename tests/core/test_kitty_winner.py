"""The kitty multiplier after a throw: the throw's units (QQ) or the winner's (联众 / 边锋).

联众 (seed 000 §一) and 边锋 (seed 002): "扣底时底牌的分牌至少要加倍加到抓分方的得分中。具体得分
根据最大一方牌情规定如下" — the cards of the side that won the last trick. QQ (seed 000 §二):
"如果最后一圈牌为甩牌，只根据甩牌中的最大牌型计算抠底倍数". ``kitty_throw_units`` says which
(docs/rules.md, Decision 139).
"""

from __future__ import annotations

import pytest

from shengji.core.ruleset import PRESETS, STORED_BEFORE
from tests.core.helpers import kitty, possible, rules

WINNER_PRESETS = ("lianzhong", "bianfeng", "find-friend", "lianzhong-three-deck")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_counts_the_units_its_sheet_names(name: str) -> None:
    winner = name in WINNER_PRESETS
    assert PRESETS[name].kitty_throw_units == ("winner" if winner else "lead")
    if winner:
        assert PRESETS[name].kitty_formula == "lianzhong"


@pytest.mark.parametrize("name", ["lianzhong", "find-friend", "lianzhong-three-deck"])
def test_lianzhong_a_ruffed_throw_counts_the_ruffs_pair(name: str) -> None:
    """联众, level 10, ♥ trump: the dealer side throws ``SA SK``, an attacker ruffs with
    ``H3 H3`` and wins: "根据最大一方牌情", the winner holds a pair: ×4 (the lead: ×2)."""
    possible(name, "SA SK", "H3 H3")
    assert kitty("SA SK", "H3 H3", level="10", ruleset=name) == 4
    assert kitty("SA SK", "H3 H3", level="10", ruleset=rules(name, kitty_throw_units="lead")) == 2


def test_bianfeng_a_throw_ruffed_by_a_tractor_is_2_times_2_squared() -> None:
    """边锋, level 2: ``SA SK SQ SJ`` ruffed by ``H3 H3 H4 H4``: "若牌中含有拖拉机则乘的倍数等于
    2·2^len" → 2·2² = ×8 (by the lead's four singles, ×2)."""
    assert kitty("SA SK SQ SJ", "H3 H3 H4 H4", level="2", ruleset="bianfeng") == 8
    lead_rule = rules("bianfeng", kitty_throw_units="lead")
    assert kitty("SA SK SQ SJ", "H3 H3 H4 H4", level="2", ruleset=lead_rule) == 2


def test_a_throw_that_holds_the_trick_counts_its_own_units_either_way() -> None:
    """The winner is the thrower: its cards are the lead's, so both readings agree."""
    for units in ("lead", "winner"):
        rs = rules("lianzhong", kitty_throw_units=units)
        assert kitty("SA SA SK", ruleset=rs) == 4
        assert kitty("SA SK SK SQ SQ", ruleset=rs) == 8


def test_qq_keeps_the_largest_unit_of_the_throw() -> None:
    """QQ: "如果最后一圈牌为甩牌，只根据甩牌中的最大牌型计算抠底倍数": a throw of singles ruffed by
    a tractor is ×2, and "闲家用 AKQJ 甩牌抠底，抠底倍数根据单牌计算，为 2 倍"."""
    assert kitty("SA SK SQ SJ", "H3 H3 H4 H4", level="2") == 2
    assert kitty("SA SK SQ SJ") == 2
    assert kitty("SA SK SQ SJ S10 S9 S8 S7 S7") == 4  # "根据对子 77 计算，为 4 倍"


def test_a_discard_never_wins_so_the_lead_counts() -> None:
    """A mixed play cannot take the trick; asked anyway, the lead's units count."""
    assert kitty("SA SK", "H3 D4", level="10", ruleset="lianzhong") == 2


def test_rulesets_stored_before_the_option_count_the_lead() -> None:
    old = PRESETS["lianzhong"].to_dict()
    del old["kitty_throw_units"]
    assert STORED_BEFORE["kitty_throw_units"] == "lead"
    rs = type(PRESETS["lianzhong"]).from_dict(old)
    assert rs.kitty_throw_units == "lead"
    assert kitty("SA SK", "H3 H3", level="10", ruleset=rs) == 2
