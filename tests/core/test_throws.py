"""Throws (甩牌): validation, policies and the forced play (RULES.md §4)."""

from __future__ import annotations

import pytest

from shengji.core.cards import counts_of
from shengji.core.throws import cards_for_unit, unit_beaten
from shengji.core.units import decompose
from tests.core.helpers import C, ctx, forced, rules, throw, unit_strs

NEVER = rules("classic", throw_policy="never")
VOID = rules("classic", throw_policy="others-void")
STRUCT = rules("classic", throw_forced="structure-first")


def test_single_units_are_not_throws() -> None:
    for policy in (rules(), NEVER, VOID):
        for lead in ("SA", "S3 S3", "S3 S3 S4 S4"):
            res = throw(lead, "SK SK SQ SQ SA", ruleset=policy)
            assert res.valid and sorted(res.play) == sorted(C(lead))


def test_validated_throw_stands_or_fails() -> None:
    assert throw("SA SK", "SQ SJ", "C3").valid
    res = throw("SA SQ", "SK", "C3")
    assert not res.valid and res.reason == "the throw failed"
    assert unit_strs(res.failed) == ["SQ"]
    assert forced("SA SQ", "SK") == "SQ"


def test_failing_units_are_listed() -> None:
    res = throw("S9 S8 S8 S4 S4", "SJ", "SQ SQ")
    assert sorted(unit_strs(res.failed)) == ["S4 S4", "S8 S8", "S9"]


def test_only_the_same_shape_beats_a_unit() -> None:
    # a higher pair does not beat a tractor; a single beats a single only
    assert throw("SJ SJ S9 S9 SA", "SK SK", "SQ SQ S8 S8 S7 S7", "S2").valid
    assert forced("SJ SJ S9 S9 SA", "SK SK SQ SQ") == "S9 S9 SJ SJ"
    assert forced("SJ SJ S9 S9 S3", "S4") == "S3"


def test_a_higher_pair_may_come_from_a_longer_holding() -> None:
    three = rules("three-deck")
    assert forced("S3 S3 S3 S4 S4", "S6 S6 S6", level="2", ruleset=three) == "S3 S3 S3"
    assert not throw("SA S4 S4", "S6 S6 S6", level="2", ruleset=three).valid


def test_equal_cards_do_not_beat_the_throw() -> None:
    # the other off-suit 10s equal the leader's; first played wins
    assert throw("BJ S10", "C10 D10").valid
    assert not throw("BJ S10", "H10").valid
    assert not throw("LJ H9", "BJ").valid


def test_trump_throws_are_checked_in_trump() -> None:
    assert forced("BJ LJ H3", "H4", "S5") == "H3"
    assert throw("BJ LJ H3", "S4 C4", "SA").valid


def test_never_policy() -> None:
    res = throw("SA SK", "", ruleset=NEVER)
    assert not res.valid and res.play == ()
    assert res.reason == "throws are not allowed in this ruleset"
    assert unit_strs(res.failed) == ["SA", "SK"]


def test_others_void_policy() -> None:
    assert throw("S9 S8 S8 S4 S4", "H3", "C2", "", ruleset=VOID).valid
    res = throw("SA SA SK", "S2", "", "", ruleset=VOID)
    assert not res.valid and res.play == ()
    assert res.reason == "a throw is allowed only when all others are void"
    # trump held by others is not the led suit
    assert throw("SA SA SK", "H3 S10", "BJ", ruleset=VOID).valid


def test_mixed_lead_is_refused() -> None:
    res = throw("SA HA", "")
    assert not res.valid and res.play == () and res.reason == "a lead must be cards of one suit"


# ---------------------------------------------------------------- forced unit


@pytest.mark.parametrize(
    ("others", "smallest", "structure"),
    [
        (("SJ",), "S9", "S9"),
        (("S5 S5",), "S4 S4", "S4 S4"),
        (("SJ", "S5 S5"), "S4 S4", "S4 S4"),  # pairs before singles either way
        (("SQ SQ",), "S4 S4", "S4 S4"),
    ],
)
def test_forced_98844(others: tuple[str, ...], smallest: str, structure: str) -> None:
    assert forced("S9 S8 S8 S4 S4", *others) == smallest
    assert forced("S9 S8 S8 S4 S4", *others, ruleset=STRUCT) == structure


def test_smallest_versus_structure_first() -> None:
    # the single S2 (S3 elsewhere) and the pair S7S7 (S8S8 elsewhere) both fail
    lead = "SA S7 S7 S2"
    others = ("S3", "S8 S8")
    assert forced(lead, *others) == "S2"  # lowest unit
    assert forced(lead, *others, ruleset=STRUCT) == "S7 S7"  # the pair first
    # a failing tractor is played before a failing lower pair under structure-first
    lead2 = "SQ SQ SJ SJ S3 S3"
    assert forced(lead2, "SA SA SK SK", "S4 S4") == "S3 S3"
    assert forced(lead2, "SA SA SK SK", "S4 S4", ruleset=STRUCT) == "SJ SJ SQ SQ"


def test_smallest_prefers_the_lowest_bottom_card() -> None:
    # the tractor 4433 fails (5566 elsewhere) and the single 9 fails (J elsewhere)
    assert forced("S9 S4 S4 S3 S3", "S5 S5 S6 S6", "SJ") == "S3 S3 S4 S4"


def test_structure_first_wider_before_narrower() -> None:
    # the room option: a failing triple before a failing pair before a failing single
    wide = rules("three-deck", throw_forced="structure-first")
    lead = "SK SK SK S5 S5 S3"
    others = ("SA SA SA", "S6 S6", "S4")
    assert forced(lead, *others, level="2", ruleset=wide) == "SK SK SK"
    assert forced("SK SK SK S5 S5", "S6 S6", "SA SA SA", level="2", ruleset=wide) == "SK SK SK"
    assert forced(lead, *others, level="2", ruleset="three-deck") == "S3"  # the preset


# ---------------------------------------------------------------- 边锋: the smallest (Decision 111)


@pytest.mark.parametrize("name", ["bianfeng", "find-friend"])
def test_bianfeng_failed_throw_plays_the_smallest(name: str) -> None:
    # seed 002, the 边锋 throw explainer: "比如你甩红桃 AKQJ单张的 如果外边3人手里存在红桃Q以上的牌
    # 那么就甩牌失败只能出最小的" — spades trump, so hearts are a side suit here
    bf = rules(name)
    assert bf.throw_forced == "smallest"
    assert forced("HA HK HQ HJ", "HK", trump="S", ruleset=bf) == "HJ"
    # "比如你甩红桃AKQJ 和8一对 如果其他3人手里有 红桃Q以上牌 或者有比8一对大的牌（9一对
    # 10一对）牌失败"
    assert forced("HA HK HQ HJ H8 H8", "H9 H9", trump="S", ruleset=bf) == "H8 H8"
    assert forced("HA HK HQ HJ H8 H8", "HK", trump="S", ruleset=bf) == "HJ"
    # seed 000 §二 / 002 出牌规则: "则其必须出欲联出的牌中的最小牌…若其余某家有此花色的 J，则首家
    # 必须出 9，若其余某家有此花色的 QQ 或 55，则首家必须出 44"
    assert forced("S9 S8 S8 S4 S4", "SJ", ruleset=bf) == "S9"
    assert forced("S9 S8 S8 S4 S4", "SQ SQ", ruleset=bf) == "S4 S4"
    assert forced("S9 S8 S8 S4 S4", "S5 S5", ruleset=bf) == "S4 S4"


@pytest.mark.parametrize("name", ["bianfeng", "lianzhong"])
def test_smallest_where_structure_first_differs(name: str) -> None:
    # the pair QQ fails to KK and the single 3 fails to 5: 边锋 and 联众 play the 3, not the
    # pair (Decisions 111, 138); the room option plays the pair
    lead, others = "HA HQ HQ H3", ("HK HK", "H5")
    assert forced(lead, *others, trump="S", ruleset=name) == "H3"
    wide = rules(name, throw_forced="structure-first")
    assert forced(lead, *others, trump="S", ruleset=wide) == "HQ HQ"


def test_unit_beaten_and_cards_for_unit() -> None:
    c = ctx()
    (pair,) = decompose(C("S8 S8"), c)
    assert unit_beaten(pair, [counts_of(C("S9 S9"))], c)
    assert not unit_beaten(pair, [counts_of(C("S9 S7 S7")), counts_of(C("H9 H9"))], c)
    tc = rules("two-color")
    t = ctx("2", "S", tc)
    (red_pair,) = decompose(C("HK DK"), t)
    assert sorted(cards_for_unit(red_pair, C("HA DK HK"), t)) == sorted(C("DK HK"))


def test_two_colour_forced_play_uses_the_real_cards() -> None:
    tc = rules("two-color")
    assert forced("HA DK HK D3", "HQ DQ", level="2", trump="S", ruleset=tc) == "D3"
    assert forced("HA DQ HQ", "HK DK", level="2", trump="S", ruleset=tc) == "HQ DQ"
