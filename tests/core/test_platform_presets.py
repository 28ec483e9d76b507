"""Each platform preset plays its own sheet (issue 12 item 8; Decisions 113–115).

``classic`` is QQ游戏 (no 反底); ``huanle`` is 欢乐升级 (seed 001/003: 反底 as a standing rule,
欢乐豆 stakes); ``lianzhong-three-deck`` is 联众's three-deck text (seed 000 §一 3副牌规则). Each
preset names its sheet in ``PRESET_INFO``, and ``docs/rules.md`` shows the same words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from shengji.core.actions import Declare, Pass
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESET_INFO, PRESETS, Ruleset
from tests.core.dealkit import bury_back, deal_out, pass_round, stacked, step
from tests.core.helpers import C, follows, forced, kitty, norm

ROOT = Path(__file__).resolve().parents[2]


def changed(a: Ruleset, b: Ruleset) -> dict[str, object]:
    """The fields where ``b`` differs from ``a`` (the name aside)."""
    da, db = a.to_dict(), b.to_dict()
    return {k: db[k] for k in da if da[k] != db[k] and k != "name"}


# ---------------------------------------------------------------- the sheets, named


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_names_the_sheet_it_follows(name: str) -> None:
    info = PRESET_INFO[name]
    assert "seed 00" in info.source, info.source
    # docs/rules.md §3 shows the same words (the table of sheets)
    assert f"| `{name}` | {info.source} |" in (ROOT / "docs" / "rules.md").read_text()


def test_classic_is_qq_and_has_no_rebury() -> None:
    assert PRESET_INFO["classic"].source.startswith("QQ游戏")
    assert PRESETS["classic"].rebury is False
    assert PRESET_INFO["classic"].stakes == {"kind": "plain"}


# ---------------------------------------------------------------- 欢乐升级

HUANLE = PRESETS["huanle"]


def test_huanle_is_the_qq_rules_with_rebury() -> None:
    # seed 003 "反底规则 决定了庄家，且庄家扣底牌后，其他玩家可以不断选择反底，重新扣底牌" —
    # the rest of the sheet is the QQ text (亮牌, 出牌, 轮庄, 记分, 扣底 word for word)
    assert changed(PRESETS["classic"], HUANLE) == {"rebury": True}
    assert PRESET_INFO["huanle"].source.startswith("欢乐升级")


def test_huanle_plays_for_beans_by_default() -> None:
    # seed 001 积分规则 "在欢乐升级游戏中，以欢乐积分计划中累计产生的积分“欢乐豆”做为游戏计分单位…
    # 每次反主游戏基数*2 每次反底游戏基数*2"
    assert dict(PRESET_INFO["huanle"].stakes) == {"kind": "beans", "coefficient": 100,
                                                  "house": 10}


def test_huanle_deal_has_a_rebury_round_and_each_rebury_doubles_the_stake() -> None:
    s = deal_out(stacked(HUANLE, {0: "H2", 1: "D2 D2"}, level="2", dealer=0))
    s = step(s, _declare(0, "H2"))
    for seat in (1, 2, 3, 0):
        s = step(s, Pass(seat))
    s = bury_back(s)
    assert s.phase is Phase.REBURY and s.to_act == 1  # "其他玩家可以不断选择反底"
    s = step(s, _declare(1, "D2 D2"))  # "对子级牌，可以反任意单张级牌"
    assert s.kitty_holder == 1 and s.stake == 2  # "每次反底游戏基数*2"
    # the same deal in classic (QQ游戏) goes straight to the play
    q = bury_back(pass_round(deal_out(stacked(PRESETS["classic"], {1: "D2 D2"}, level="2",
                                              dealer=0))))
    assert q.phase is Phase.PLAYING


def _declare(seat: int, cards: str) -> Declare:
    return Declare(seat, tuple(C(cards)))


# ---------------------------------------------------------------- 联众, three decks

LZ3 = PRESETS["lianzhong-three-deck"]


def test_lianzhong_three_deck_is_lianzhong_with_three_decks() -> None:
    # seed 000 §一 底牌 "打三副牌时每方得牌 39张，剩余的 6张为底牌"; 亮主 "抢亮"; 上下台规则 as
    # the three-deck table
    assert changed(PRESETS["lianzhong"], LZ3) == {
        "decks": 3, "kitty_size": 6, "level_table": "three-deck", "declaration": "grab"}
    assert (LZ3.hand_size, LZ3.kitty_size) == (39, 6)
    # against the QQ three decks: 联众's follow order and kitty list, and 联众's first deal
    # ("第一局的庄家由翻主方担任", Decision 101)
    assert changed(PRESETS["three-deck"], LZ3) == {
        "follow_order": "lianzhong", "kitty_formula": "lianzhong",
        "kitty_throw_units": "winner", "first_deal_overturn_takes_dealer": True}


TITANIC = "S3 S3 S3 S4 S4 S4"


def test_lianzhong_three_deck_titanic_order_two_triples_first() -> None:
    # seed 000 §一 "当第一家出“泰坦尼克”牌型时，其它玩家根据牌情按以下顺序出牌：泰坦尼克 两副三对
    # 一副拖拉机+两单张…": two triples before a tractor
    hand = "S6 S6 S7 S7 S9 S9 S9 SQ SQ SQ"
    assert follows(TITANIC, hand, ruleset=LZ3) == {norm("S9 S9 S9 SQ SQ SQ")}
    # the QQ order ("一副拖拉机 + 任意两张" before "两副三同张") is the three-deck preset's
    qq = follows(TITANIC, hand, ruleset="three-deck")
    assert norm("S9 S9 S9 SQ SQ SQ") not in qq
    assert all(p.count("S6") == 2 and p.count("S7") == 2 for p in (s.split() for s in qq))


def test_lianzhong_three_deck_triple_lead() -> None:
    # "当第一家出“三对”牌型时，其它玩家根据牌情按如下顺序出牌：三对 一副两对+一单张 三单张"
    assert follows("S8 S8 S8", "S5 S5 S5 S9 S9 SK", ruleset=LZ3) == {norm("S5 S5 S5")}
    assert follows("S8 S8 S8", "S5 S5 S9 SK", ruleset=LZ3) == {
        norm("S5 S5 S9"), norm("S5 S5 SK")}


def test_lianzhong_three_deck_kitty_list() -> None:
    # "若牌中含有 Titanic…2·3^len…若牌中含有三对则乘的倍数等于 6，且不再计算其他牌型"
    assert kitty("S4 S4 S4 S5 S5 S5", ruleset=LZ3) == 18
    assert kitty("SA SA SA SK SK SQ SQ", ruleset=LZ3) == 6
    assert kitty("S4 S4 S4 S5 S5 S5", ruleset="three-deck") == 64  # QQ: 2^6


def test_lianzhong_three_deck_throw_333_44() -> None:
    # "若其他玩家手中有与 33344同花色比 333大的一个三同张，则系统替首家出 333"
    assert forced("S3 S3 S3 S4 S4", "S6 S6 S6", "S5 S5", level="2", ruleset=LZ3) == norm(
        "S3 S3 S3")
    assert forced("S3 S3 S3 S4 S4", "S5 S5", level="2", ruleset=LZ3) == norm("S4 S4")
