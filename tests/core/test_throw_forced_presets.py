"""A failed throw plays its smallest failing unit, in every preset (Decision 138, amending 14).

Every sheet says so in the same words. The QQ游戏 出牌规则 (seed 000 §二; its
【三副牌规则】 "和两副牌拖拉机规则类似"; seed 002 repeats it): "若首家试图联出的牌并非都是
大牌时，则其必须出欲联出的牌中的最小牌". 联众 (seed 000 §一 3副牌规则): "其它情况符合两副
牌拖拉机规则". 边锋 (seed 002): "甩牌失败只能出最小的"; the five-player 变异打法: "出牌规则
和3副牌升级一致". The biggest structure first
(``structure-first``) is a room option, no preset's.
"""

from __future__ import annotations

import pytest

from shengji.core.actions import CallFriend, Play
from shengji.core.cards import parse_card
from shengji.core.events import Played, ThrowFailed
from shengji.core.ruleset import PRESETS, preset
from shengji.judge.oracle import answer
from tests.core.dealkit import C, bury_back, deal_out, pass_round, stacked, to_play
from tests.core.helpers import forced, norm

SMALLEST = "则其必须出欲联出的牌中的最小牌"
VALIDATED = sorted(n for n, r in PRESETS.items() if r.throw_policy == "validated")
PAIRED = [n for n in VALIDATED if PRESETS[n].decks >= 2]
THREE_DECKS = ["three-deck", "lianzhong-three-deck", "five-player"]

# KKK fails to AAA and 44 fails to 55: the smallest is 44, the biggest structure KKK
KKK44 = "SK SK SK S4 S4"
AAA, FIVES = "SA SA SA", "S5 S5"


def test_no_preset_plays_the_biggest_structure_first() -> None:
    assert {n: r.throw_forced for n, r in PRESETS.items() if r.throw_forced != "smallest"} == {}
    assert preset("three-deck", {"throw_forced": "structure-first"}).throw_forced == (
        "structure-first")  # still a room option


@pytest.mark.parametrize("name", VALIDATED)
def test_singles_in_every_preset_that_checks_throws(name: str) -> None:
    # 边锋: "比如你甩红桃 AKQJ单张的 如果外边3人手里存在红桃Q以上的牌那么就甩牌失败只能出最小的"
    assert forced("HA HQ HJ", "HK", trump="S", ruleset=name) == "HJ"


@pytest.mark.parametrize("name", PAIRED)
def test_98844_in_every_preset_that_checks_throws(name: str) -> None:
    # SMALLEST: "如：首家试图联出 98844时，若其余某家有此花色的 J，则首家必须出 9，若其余某家有此
    # 花色的 QQ或 55，则首家必须出 44"
    assert forced("S9 S8 S8 S4 S4", "SJ", ruleset=name) == "S9"
    assert forced("S9 S8 S8 S4 S4", "SQ SQ", ruleset=name) == "S4 S4"
    assert forced("S9 S8 S8 S4 S4", "S5 S5", ruleset=name) == "S4 S4"
    # a higher pair and a higher single both beat it: the smallest unit, the single 3
    assert forced("HA HQ HQ H3", "HK HK", "H5", trump="S", ruleset=name) == "H3"


@pytest.mark.parametrize("name", THREE_DECKS)
def test_three_decks_a_failed_triple_and_pair_play_the_pair(name: str) -> None:
    # SMALLEST, three decks: KKK (AAA elsewhere) and 44 (55 elsewhere) both fail → 44
    assert forced(KKK44, AAA, FIVES, level="2", ruleset=name) == "S4 S4"
    assert forced(KKK44, AAA, level="2", ruleset=name) == "S4 S4"  # AAA holds a pair above 44
    assert forced(KKK44, FIVES, level="2", ruleset=name) == "S4 S4"
    wide = preset(name, {"throw_forced": "structure-first"})
    assert forced(KKK44, AAA, FIVES, level="2", ruleset=wide) == norm("SK SK SK")


@pytest.mark.parametrize("name", ["three-deck", "lianzhong-three-deck"])
def test_the_lianzhong_examples_name_the_smallest_unit_too(name: str) -> None:
    # seed 000 §一 新增规则: "若其他玩家手中有与 33344同花色比 333大的一个三同张，则系统替首家出
    # 333" — with a higher pair there as well, 333 is still the smallest (its 3 is lower than 4)
    assert forced("S3 S3 S3 S4 S4", "S6 S6 S6", "S5 S5", level="2", ruleset=name) == norm(
        "S3 S3 S3")
    # "若其他玩家手中有与 991010JJJ同花色比 991010大的拖拉机，则系统替首家出 991010"
    assert forced("S9 S9 S10 S10 SJ SJ SJ", "SQ SQ SQ SK SK SK", level="2", ruleset=name) == norm(
        "S9 S9 S10 S10")
    # "若其他玩家手中有与 9991010JJJ同花色比 1010大的一对且不存在比 999大的一个三同张，则系统
    # 替首家出 1010"
    assert forced("S9 S9 S9 S10 S10 SJ SJ SJ", "SQ SQ", level="2", ruleset=name) == norm(
        "S10 S10")


def test_judge_three_deck_throw() -> None:
    req = {"op": "throw", "preset": "three-deck", "level": "2", "trump": "H", "lead": KKK44,
           "others": [AAA, FIVES]}
    a = answer(req)
    assert (a["valid"], a["play"]) == (False, "S4 S4")
    assert sorted(a["failed"]) == ["S4 S4", "SK SK SK"]
    wide = answer({**req, "options": {"throw_forced": "structure-first"}})
    assert wide["play"] == "SK SK SK"


def test_a_three_deck_deal_plays_the_pair() -> None:
    s = to_play(stacked(PRESETS["three-deck"], {0: KKK44, 1: AAA, 2: FIVES}, dealer=0))
    s2, events = s.apply(Play(0, tuple(C(KKK44))))
    fours = tuple(C("S4 S4"))
    assert events == [ThrowFailed(None, 0, tuple(C(KKK44)), fours, 0), Played(None, 0, fours)]
    assert s2.trick == ((0, fours),)


def test_a_five_player_deal_plays_the_pair() -> None:
    # five players: "出牌规则和3副牌升级一致"
    s = stacked(PRESETS["five-player"], {0: KKK44, 2: AAA, 4: FIVES}, dealer=0)
    s = bury_back(pass_round(deal_out(s)))
    s = s.apply(CallFriend(0, parse_card("HA"), 1))[0]
    s2, events = s.apply(Play(0, tuple(C(KKK44))))
    fours = tuple(C("S4 S4"))
    assert isinstance(events[0], ThrowFailed) and events[0].forced == fours
    assert s2.trick == ((0, fours),)
