"""Four decks: what a follower must play, one test per example of seed 002 §3.4.5
("出牌跟牌顺序"), and the two card orders it gives (items 7 and 8).

Level 10 (so 9 and J are adjacent), hearts trump, spades led, the ``four-deck`` preset
(2s always trump). Each rung is shown with a hand whose best shape is that rung: the legal
plays are exactly the rung's plays, and a play of the next rung down is refused. Decision
110 (docs/rules.md) records the reading: 连N is N consecutive *pairs* (the seed's own example
of item 1 is 4 4 5 5 6 6 7 7), 连队 two of them.
"""

from __future__ import annotations

import itertools

import pytest

from shengji.core.follow import analyse_lead
from shengji.core.follow_tables import FOUR_DECK
from tests.core.helpers import C, ctx, follow, follows, norm, rules, winner

FOUR = rules("four-deck")


def plays(lead: str, hand: str) -> set[str]:
    return follows(lead, hand, ruleset=FOUR)


def refusal(lead: str, hand: str, play: str) -> str | None:
    return follow(lead, hand, play, ruleset=FOUR)


def rung(core: str, extras: str = "", k: int = 0) -> set[str]:
    """The plays ``core`` + any ``k`` of the ``|``-separated ``extras`` ("S3|S6", "S9 S9|S6 S6").

    >>> sorted(rung("SA SA", "S3|S6", 1))
    ['S3 SA SA', 'S6 SA SA']
    """
    picks = [e for e in extras.split("|") if e.strip()]
    return {norm(" ".join([core, *pick])) for pick in itertools.combinations(picks, k)}


# ---------------------------------------------------------------- item 1: lead 连四 44556677

LIAN_SI = "S4 S4 S5 S5 S6 S6 S7 S7"


def test_item_1_the_lead_is_four_consecutive_pairs() -> None:
    # "首家出连四时（例如4 4 5 5 6 6 7 7）": the example is a tractor of four pairs
    lead = analyse_lead(C(LIAN_SI), ctx("10", "H", FOUR), FOUR)
    assert [u.shape for u in lead.units] == [(2, 4)]
    assert lead.rungs is FOUR_DECK[((2, 4),)]


def test_item_1_lian_si_or_two_quads_either() -> None:
    # "1连4或2个4张（出牌可选）"
    hand = "SJ SJ SQ SQ SK SK SA SA S8 S8 S8 S8 S3 S3 S3 S3"
    assert plays(LIAN_SI, hand) == {norm("SJ SJ SQ SQ SK SK SA SA"),
                                    norm("S8 S8 S8 S8 S3 S3 S3 S3")}


ITEM_1 = [
    # (seed line, hand, the rung's plays as core + k of extras, a refused play one rung down)
    ("1连3+1对子", "S9 S9 SJ SJ SQ SQ S3 S3 S6", rung("S9 S9 SJ SJ SQ SQ S3 S3", "", 0),
     "S9 S9 SJ SJ SQ SQ S3 S6"),
    ("1连3+2单张", "S9 S9 SJ SJ SQ SQ S3 S6 S8", rung("S9 S9 SJ SJ SQ SQ", "S3|S6|S8", 2),
     "S9 S9 SJ SJ S3 S6 S8 SQ"),
    ("1连队+两对子", "S9 S9 SJ SJ S3 S3 S6 S6 SA", rung("S9 S9 SJ SJ S3 S3 S6 S6", "", 0),
     "S9 S9 SJ SJ S3 S3 S6 SA"),
    ("1连队+1个对子+2单张", "S9 S9 SJ SJ S3 S3 S6 S8 SA", rung("S9 S9 SJ SJ S3 S3", "S6|S8|SA", 2),
     "S9 S9 SJ SJ S3 S6 S8 SA"),
    ("1连队+4单张", "S9 S9 SJ SJ S3 S6 S8 SA SK", rung("S9 S9 SJ SJ", "S3|S6|S8|SA|SK", 4),
     "S9 S9 SJ S3 S6 S8 SA SK"),
    # the example: a quad with two pairs ranks above four pairs
    ("1个4张+2对子", "SA SA SA SA S9 S9 S6 S6 S3 S3", rung("SA SA SA SA", "S9 S9|S6 S6|S3 S3", 2),
     "SA SA S9 S9 S6 S6 S3 S3"),
    ("1个4张+1个对子+2单张", "SA SA SA SA S9 S9 S6 S3 S8", rung("SA SA SA SA S9 S9", "S6|S3|S8", 2),
     "SA SA SA SA S9 S6 S3 S8"),
    ("1个4张+4单张", "SA SA SA SA S9 S6 S3 S8 SK", rung("SA SA SA SA", "S9|S6|S3|S8|SK", 4),
     "SA SA SA S9 S6 S3 S8 SK"),
    ("2个3张+2单张", "SA SA SA S9 S9 S9 S3 S6 S8", rung("SA SA SA S9 S9 S9", "S3|S6|S8", 2),
     "SA SA SA S9 S9 S3 S6 S8"),
    ("1个3张+2对子+1单张", "SA SA SA S9 S9 S6 S6 S3 S8", rung("SA SA SA S9 S9 S6 S6", "S3|S8", 1),
     "SA SA SA S9 S9 S6 S3 S8"),
    ("1个3张+1对子+3单张", "SA SA SA S9 S9 S6 S3 S8 SK", rung("SA SA SA S9 S9", "S6|S3|S8|SK", 3),
     "SA SA SA S9 S6 S3 S8 SK"),
    ("1个3张+5单张", "SA SA SA S9 S6 S3 S8 SK SQ", rung("SA SA SA", "S9|S6|S3|S8|SK|SQ", 5),
     "SA SA S9 S6 S3 S8 SK SQ"),
    ("4个对子", "SA SA S9 S9 S6 S6 S3 S3 SK", rung("SA SA S9 S9 S6 S6 S3 S3", "", 0),
     "SA SA S9 S9 S6 S6 S3 SK"),
    ("3个对子+2单张", "SA SA S9 S9 S6 S6 S3 S8 SK", rung("SA SA S9 S9 S6 S6", "S3|S8|SK", 2),
     "SA SA S9 S9 S6 S3 S8 SK"),
    ("2个对子+4单张", "SA SA S9 S9 S6 S3 S8 SK SQ", rung("SA SA S9 S9", "S6|S3|S8|SK|SQ", 4),
     "SA SA S9 S6 S3 S8 SK SQ"),
    ("1个对子+6单张", "SA SA S9 S6 S3 S8 SK SQ SJ", rung("SA SA", "S9|S6|S3|S8|SK|SQ|SJ", 6),
     "SA S9 S6 S3 S8 SK SQ SJ"),
    ("8单张", "SA S9 S6 S3 S8 SK SQ SJ S7", rung("", "SA|S9|S6|S3|S8|SK|SQ|SJ|S7", 8), None),
]


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_1, ids=[r[0] for r in ITEM_1])
def test_item_1_each_rung(line: str, hand: str, want: set[str], lower: str | None) -> None:
    # "1．首家出连四时（例如4 4 5 5 6 6 7 7），其它玩家根据牌情按如下顺序出牌：…" — line by line
    assert plays(LIAN_SI, hand) == want, line
    if lower is not None:
        assert refusal(LIAN_SI, hand, lower) is not None, line


def test_item_1_a_quad_is_played_whole_not_split_into_pairs() -> None:
    # "1个4张+2对子" ranks above "4个对子": the refusal names the rung owed
    hand = "SA SA SA SA S9 S9 S6 S6 S3 S3"
    assert refusal(LIAN_SI, hand, "SA SA S9 S9 S6 S6 S3 S3") == (
        "must play a quad + a pair + a pair of the led suit: the best shape your cards allow "
        "for this lead")


def test_item_1_the_line_13_cards_is_noise() -> None:
    # "升级(13张)" between "2个3张+2单张" and "1个3张+2对子+1单张" is not a shape: two triples
    # are followed directly by a triple with two pairs
    rungs = FOUR_DECK[((2, 4),)]
    i = rungs.index((((3, 1), (3, 1)),))
    assert rungs[i + 1] == (((3, 1), (2, 1), (2, 1)),)


# ---------------------------------------------------------------- item 2: lead 2个4张 44445555

TWO_QUADS = "S4 S4 S4 S4 S5 S5 S5 S5"


def test_item_2_two_quads_first() -> None:
    # "2．发牌家出2个4个的时候（例如4 4 4 4 5 5 5 5）…：2个4张" — before a 连4
    hand = "SA SA SA SA S3 S3 S3 S3 S9 S9 SJ SJ SQ SQ SK SK"
    assert plays(TWO_QUADS, hand) == {norm("SA SA SA SA S3 S3 S3 S3")}
    assert refusal(TWO_QUADS, hand, "S9 S9 SJ SJ SQ SQ SK SK") is not None


def test_item_2_then_lian_si() -> None:
    # "1连4" second: four consecutive pairs before a 连3 with a pair, or a quad
    hand = "S9 S9 SJ SJ SQ SQ SK SK S6 S6 S6 S6 S3 S3"
    assert plays(TWO_QUADS, hand) == {norm("S9 S9 SJ SJ SQ SQ SK SK")}
    assert refusal(TWO_QUADS, hand, "S6 S6 S6 S6 S3 S3 S9 S9") is not None


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_1, ids=[r[0] for r in ITEM_1])
def test_item_2_the_rest_is_item_1s_list(line: str, hand: str, want: set[str],
                                         lower: str | None) -> None:
    # "1连3+1对子 … 8单张": the same lines in the same order as item 1
    assert plays(TWO_QUADS, hand) == want, line
    if lower is not None:
        assert refusal(TWO_QUADS, hand, lower) is not None, line


def test_item_2_a_quad_tractor_and_two_quads_thrown_share_the_list() -> None:
    assert FOUR_DECK[((4, 2),)] is FOUR_DECK[((4, 1), (4, 1))]
    lead = analyse_lead(C(TWO_QUADS), ctx("10", "H", FOUR), FOUR)
    assert lead.rungs is FOUR_DECK[((4, 2),)]


# ---------------------------------------------------------------- item 3: lead 667788

PAIRS3 = "S6 S6 S7 S7 S8 S8"


def test_item_3_pair_tractor_or_triple_tractor_either() -> None:
    # "发牌家出6张6 6 7 7 8 8时，其他玩家有6 7 7 8 8和J J J客服在线Q的时候，出牌是可选的"
    # (the garbled hand read as 667788 and JJJQQQ)
    hand = "S6 S6 S7 S7 S8 S8 SJ SJ SJ SQ SQ SQ"
    assert plays(PAIRS3, hand) == {norm("S6 S6 S7 S7 S8 S8"), norm("SJ SJ SJ SQ SQ SQ")}


def test_item_3_two_triples_beat_three_pairs() -> None:
    # "（2个3个的要比3个2对大）": a triple tractor takes a pair tractor of the same size
    assert winner(PAIRS3, "S3 S3 S3 S4 S4 S4", ruleset=FOUR) == 1
    assert winner("S3 S3 S3 S4 S4 S4", "SQ SQ SK SK SA SA", ruleset=FOUR) == 0


ITEM_3 = [
    ("4个+1个对子（例如：AAAA+客服在线）", "SA SA SA SA SQ SQ S3 S3 S4 S4",
     rung("SA SA SA SA", "SQ SQ|S3 S3|S4 S4", 1), "SQ SQ S3 S3 S4 S4"),
    ("拖拉机+1个对子（例如7 7 8 8+JJ）", "S7 S7 S8 S8 SJ SJ SK S3 S3",
     {norm("S7 S7 S8 S8 SJ SJ"), norm("S7 S7 S8 S8 S3 S3")}, "SJ SJ S3 S3 S7 S7"),
    ("3个对子（例如：6 6，8 8，JJ）", "S6 S6 S8 S8 SJ SJ SA", {norm("S6 S6 S8 S8 SJ SJ")},
     "S6 S6 S8 S8 SJ SA"),
    ("2个对子+2个单牌（例如：7 7，9 9，K，Q）", "S7 S7 S9 S9 SK SQ S3",
     rung("S7 S7 S9 S9", "SK|SQ|S3", 2), "S7 S7 S9 SK SQ S3"),
    ("1个对子+4个单牌（例如：7 7，8，9，J，Q）", "S7 S7 S8 S9 SJ SQ SA",
     rung("S7 S7", "S8|S9|SJ|SQ|SA", 4), None),
    ("6个单牌", "S3 S5 S7 S9 SJ SK SA", rung("", "S3|S5|S7|S9|SJ|SK|SA", 6), None),
]


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_3, ids=[r[0] for r in ITEM_3])
def test_item_3_each_rung(line: str, hand: str, want: set[str], lower: str | None) -> None:
    assert plays(PAIRS3, hand) == want, line
    if lower is not None:
        assert refusal(PAIRS3, hand, lower) is not None, line


# ---------------------------------------------------------------- item 4: lead JJJQQQ

TRIPLES2 = "SJ SJ SJ SQ SQ SQ"


def test_item_4_triple_tractor_first() -> None:
    # "发牌家出6张JJJ客服在线Q时，其他玩家有6 6 7 7 8 8和5 5 5 4 4 4的跟牌规则：首先跟5 5 5 4 4 4"
    hand = "S4 S4 S4 S5 S5 S5 S6 S6 S7 S7 S8 S8"
    assert plays(TRIPLES2, hand) == {norm("S4 S4 S4 S5 S5 S5")}
    assert refusal(TRIPLES2, hand, "S6 S6 S7 S7 S8 S8") is not None


def test_item_4_then_the_pair_tractor() -> None:
    # "→ 6 6 7 7 8 8": before two triples that are not consecutive
    hand = "S6 S6 S7 S7 S8 S8 SK SK SK S3 S3 S3"
    assert plays(TRIPLES2, hand) == {norm("S6 S6 S7 S7 S8 S8")}
    assert refusal(TRIPLES2, hand, "SK SK SK S3 S3 S3") is not None


# The lead holds three of the four SJ and SQ, so the seed's "AAAA+QQ", "7788+JJ" and "JJ"
# examples use KK instead; the rung is the same.
ITEM_4 = [
    ("4个+1个对子（例如：AAAA+客服在线）", "SA SA SA SA SK SK S3 S3 S4 S4",
     rung("SA SA SA SA", "SK SK|S3 S3|S4 S4", 1), "S3 S3 S4 S4 SK SK"),
    ("拖拉机+1个对子（例如7 7 8 8+JJ）", "S7 S7 S8 S8 SK SK S3 S3 S3 S5 S5 S5",
     rung("S7 S7 S8 S8", "SK SK|S3 S3|S5 S5", 1), "S3 S3 S3 S5 S5 S5"),
    ("2个3个的（例如：3 3 3，5 5 5）", "S3 S3 S3 S5 S5 S5 S9 S9 SK",
     {norm("S3 S3 S3 S5 S5 S5")}, "S3 S3 S3 S9 S9 SK"),
    ("1个3个+1个对子+1个单牌（例如：6 6 6，5 5，9）", "S6 S6 S6 S5 S5 S9 SK",
     rung("S6 S6 S6 S5 S5", "S9|SK", 1), "S6 S6 S5 S5 S9 SK"),
    ("3个对子（例如：6 6，8 8，JJ）", "S6 S6 S8 S8 SK SK S3", {norm("S6 S6 S8 S8 SK SK")},
     "S6 S6 S8 S8 SK S3"),
    ("然后2个对子+2个单牌（例如：7 7，9 9，K，Q）", "S7 S7 S9 S9 SK SQ S3",
     rung("S7 S7 S9 S9", "SK|SQ|S3", 2), "S7 S7 S9 SK SQ S3"),
    ("1个对子+4个单牌（例如：77，8，9，J，Q）", "S7 S7 S8 S9 SJ SQ SA",
     rung("S7 S7", "S8|S9|SJ|SQ|SA", 4), None),
    ("6个单牌", "S3 S5 S7 S9 SK SA S4", rung("", "S3|S5|S7|S9|SK|SA|S4", 6), None),
]


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_4, ids=[r[0] for r in ITEM_4])
def test_item_4_each_rung(line: str, hand: str, want: set[str], lower: str | None) -> None:
    assert plays(TRIPLES2, hand) == want, line
    if lower is not None:
        assert refusal(TRIPLES2, hand, lower) is not None, line


# ---------------------------------------------------------------- item 5: lead AAAA

QUAD = "SA SA SA SA"
ITEM_5 = [
    ("有4个跟4个(例如：5555)", "S5 S5 S5 S5 S7 S7 S8 S8", {norm("S5 S5 S5 S5")}, "S7 S7 S8 S8"),
    ("跟拖拉机（例如：7 7 8 8）", "S7 S7 S8 S8 SK SK S3 S3", {norm("S7 S7 S8 S8")},
     "SK SK S3 S3"),
    ("2个对子（例如66，99）", "S6 S6 S9 S9 SK SK SK",
     {norm(p) for p in ("S6 S6 S9 S9", "S6 S6 SK SK", "S9 S9 SK SK")}, "SK SK SK S6"),
    ("3个+1个（例如：KKK+4）", "SK SK SK S4 S8", rung("SK SK SK", "S4|S8", 1), "SK SK S4 S8"),
    ("跟1对+2个单牌", "S6 S6 S4 S8 SQ", rung("S6 S6", "S4|S8|SQ", 2), "S6 S4 S8 SQ"),
    ("4个单牌", "S3 S4 S6 S8 SQ", rung("", "S3|S4|S6|S8|SQ", 4), None),
]


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_5, ids=[r[0] for r in ITEM_5])
def test_item_5_each_rung(line: str, hand: str, want: set[str], lower: str | None) -> None:
    # "5．当发牌家出4个时，例如出AAAA，跟牌规则：…"
    assert plays(QUAD, hand) == want, line
    if lower is not None:
        assert refusal(QUAD, hand, lower) is not None, line


# ---------------------------------------------------------------- item 6: lead 7788

PAIRS2 = "S7 S7 S8 S8"


def test_item_6_quad_or_tractor_either() -> None:
    # "6．当发牌家出4个时，例如出7 7 8 8，其他玩家有4个（例如：AAAA）和拖拉机（例如：3 3 4 4）
    # 出牌可选"
    hand = "SA SA SA SA S3 S3 S4 S4 S9"
    assert plays(PAIRS2, hand) == {norm("SA SA SA SA"), norm("S3 S3 S4 S4")}
    assert refusal(PAIRS2, hand, "SA SA S3 S3") is not None


ITEM_6 = [
    ("跟拖拉机（例如：5 5 6 6或AAAA）", "S5 S5 S6 S6 SK SK SQ", {norm("S5 S5 S6 S6")},
     "S5 S5 SK SK"),
    ("2个对子（例如6 6，9 9）", "S6 S6 S9 S9 SK", {norm("S6 S6 S9 S9")}, "S6 S6 S9 SK"),
    ("1对+2个单牌（例如：4 4，6，7）", "S4 S4 S6 S7 SK", rung("S4 S4", "S6|S7|SK", 2),
     "S4 S6 S7 SK"),
    ("4个单牌", "S3 S4 S6 S9 SQ", rung("", "S3|S4|S6|S9|SQ", 4), None),
]


@pytest.mark.parametrize(("line", "hand", "want", "lower"), ITEM_6, ids=[r[0] for r in ITEM_6])
def test_item_6_each_rung(line: str, hand: str, want: set[str], lower: str | None) -> None:
    assert plays(PAIRS2, hand) == want, line
    if lower is not None:
        assert refusal(PAIRS2, hand, lower) is not None, line


# ---------------------------------------------------------------- items 7 and 8: card order

# Level 3 with hearts trump, 2s always trump: BJ LJ H3 (S3 C3 D3) H2 (S2 C2 D2) HA .. H4.


def test_item_8_quads_in_order() -> None:
    # "8．当打到3的情况下，4大王最大→4小王→主牌3333→副主3333→主牌2222→副主2222→主牌AAAA。。。。。。
    # 主牌4444→副牌AAAA。。。。副牌4444。"
    order = ["BJ", "LJ", "H3", "S3", "H2", "S2", "HA", "HK", "H4"]
    quads = [" ".join([c] * 4) for c in order]
    for higher, lower in itertools.pairwise(quads):
        assert winner(lower, higher, level="3", ruleset=FOUR) == 1, (higher, lower)
        assert winner(higher, lower, level="3", ruleset=FOUR) == 0, (higher, lower)
    # 副牌AAAA … 副牌4444 within the led suit; any trump quad (主牌4444) takes them
    assert winner("S4 S4 S4 S4", "SA SA SA SA", level="3", ruleset=FOUR) == 1
    assert winner("SA SA SA SA", "H4 H4 H4 H4", level="3", ruleset=FOUR) == 1


def test_item_7_tractors_around_the_twos() -> None:
    # "7．当打到3的情况下，牌型以点数分大小，顺序为：…主AA22为最小，副主2233比主牌AA22大，比主牌2233
    # 以上相同牌型小。" Read with Decision 3's ladder: 主AA22 = HA HA S2 S2, 副主2233 =
    # S2 S2 H2 H2, 主牌2233 = H2 H2 S3 S3 — all tractors, in that order. ("主AAKK为最大" is
    # garbled: with permanent 2s the jokers and level cards are above the As.)
    aa22, fu2233, zhu2233 = "HA HA S2 S2", "S2 S2 H2 H2", "H2 H2 S3 S3"
    assert winner(aa22, fu2233, level="3", ruleset=FOUR) == 1
    assert winner(fu2233, zhu2233, level="3", ruleset=FOUR) == 1
    assert winner(zhu2233, aa22, level="3", ruleset=FOUR) == 0
    assert winner("HK HK HA HA", aa22, level="3", ruleset=FOUR) == 1
