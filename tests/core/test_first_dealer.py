"""Who deals the first deal (RULES.md §5; rules.md Decisions 33, 100, 101).

QQ / 欢乐升级: "开局中，双方争庄，先亮者为庄家" — the first to declare deals; an overturn (反主)
changes trump, not the dealer. The tournament sheet: "第一局翻主翻庄，第二局以后翻主不翻庄";
four decks: "第一盘反底反桩"; 联众 / 边锋: "第一局的庄家由翻主方担任" (read as: the seat whose
declaration fixed trump, the last one) — there an overturn takes the seat.

Every deal is a real ``DealState`` (``stacked`` only orders the pack); level 2 unless stated.
"""

from __future__ import annotations

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Deal, Declare, Pass
from shengji.core.cards import DIAMONDS, HEARTS, NO_TRUMP, SPADES
from shengji.core.events import Declared, TrumpFixed
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState
from shengji.core.views import public_view, view_for
from tests.core.dealkit import C, bury_back, pass_round, stacked, step


def d(seat: int, cards: str) -> Declare:
    return Declare(seat, tuple(C(cards)))


def first_deal(rs: Ruleset, hands: dict[int, str], level: str = "2") -> DealState:
    """A first deal (no dealer yet) dealt out but for its last card."""
    s = stacked(rs, hands, level=level, dealer=None)
    assert s.dealer is None and s.first_deal
    total = s.players * rs.hand_size
    while s.n_dealt < total - 1:
        s = step(s, Deal())
    return s


def fix_trump(s: DealState) -> tuple[DealState, TrumpFixed]:
    """Deal the last card and let every seat pass the window."""
    s = step(s, Deal())
    fixed: list[TrumpFixed] = []
    while s.phase is Phase.DECLARING:
        s, events = s.apply(Pass(s.to_act))
        fixed.extend(e for e in events if isinstance(e, TrumpFixed))
    (tf,) = fixed
    return s, tf


# Which presets give the seat to an overturn, and the sentence each value follows.
SHEETS = {
    "classic": (False, "QQ / 欢乐升级 轮庄规则: 开局中，双方争庄，先亮者为庄家"),
    "one-deck": (False, "一副牌规则: 与两副牌规则基本一致 (the QQ sheet)"),
    "two-color": (False, "两色规则: 其余打法与两副牌经典打法一致"),
    "three-deck": (False, "三副牌 亮主规则: 和两副牌拖拉机规则类似 (QQ)"),
    "five-player": (False, "5人3副牌: 出牌规则和3副牌升级一致"),
    "three-player": (False, "竞标: the auction decides the dealer; no first-deal declaration"),
    "lianzhong": (True, "联众: 第一局的庄家由翻主方担任"),
    "bianfeng": (True, "边锋: 第一局的庄家由翻主方担任"),
    "find-friend": (True, "边锋 (寻): 第一局的庄家由翻主方担任"),
    "four-deck": (True, "四副牌: 第一盘反底反桩"),
    "tournament": (True, "比赛: 第一局翻主翻庄，第二局以后翻主不翻庄"),
    "huanle": (False, "欢乐升级 (seed 001/003, the QQ text): 先亮者为庄家"),
    "lianzhong-three-deck": (True, "联众: 第一局的庄家由翻主方担任"),
}


def test_every_preset_names_its_sheets_first_dealer():
    assert set(PRESETS) == set(SHEETS), "a new preset must say who deals its first deal"
    known = {n: PRESETS[n].first_deal_overturn_takes_dealer for n in SHEETS}
    assert known == {n: takes for n, (takes, _) in SHEETS.items()}


# 两色: ♠2♣2 is a pair. One deck of four suits has no pairs of level cards or jokers at all.
@pytest.mark.parametrize(("name", "pair"), [("classic", "S2 S2"), ("two-color", "S2 C2")])
def test_qq_the_first_declarer_deals_and_an_overturn_changes_trump_only(name, pair):
    """"开局中，双方争庄，先亮者为庄家": S1 shows H2 first; S2's pair overturns to spades, but S1
    deals."""
    s = first_deal(PRESETS[name], {1: "H2", 2: pair})
    s = step(s, d(1, "H2"))
    s, events = s.apply(d(2, pair))
    assert events == [Declared(None, 2, tuple(C(pair)), SPADES, True, False, 1)]
    assert s.stake == 2  # the overturn still doubles the stake (Decision 35)
    s, tf = fix_trump(s)
    assert tf == TrumpFixed(None, SPADES, 1, 2, None)
    assert s.dealer == 1 and s.kitty_holder == 1 and s.trump == SPADES
    assert s.defenders == (1, 3)
    s = bury_back(s)
    assert s.phase is Phase.PLAYING and s.to_act == 1  # the dealer leads trick 1


def test_one_deck_nobody_can_overturn_so_the_first_declarer_deals():
    s = first_deal(PRESETS["one-deck"], {1: "H2", 2: "S2"})
    s = step(s, d(1, "H2"))
    assert not s.is_legal(d(2, "S2"))
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (HEARTS, 1, 1)


def test_qq_the_first_declarer_keeps_the_seat_after_a_no_trump_overturn():
    s = first_deal(PRESETS["classic"], {3: "D2", 0: "BJ BJ"})
    s = step(step(s, d(3, "D2")), d(0, "BJ BJ"))  # 反无主
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (NO_TRUMP, 3, 0)


def test_qq_a_partners_overturn_leaves_the_seat_with_the_first_declarer():
    s = first_deal(PRESETS["classic"], {0: "C2", 2: "H2 H2"})
    s = step(step(s, d(0, "C2")), d(2, "H2 H2"))
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (HEARTS, 0, 2)


def test_qq_the_first_declarer_reinforces_and_deals():
    s = first_deal(PRESETS["classic"], {1: "H2 H2"})
    s = step(step(s, d(1, "H2")), d(1, "H2 H2"))  # 自保
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (HEARTS, 1, 1)


def test_qq_a_declaration_in_the_window_counts_as_first_too():
    """Nobody shows while dealing; S2 declares first in the window, S3 overturns: S2 deals."""
    s = first_deal(PRESETS["classic"], {2: "D2", 3: "S2 S2"})
    s = step(s, Deal())
    s = step(step(s, Pass(0)), Pass(1))
    s = step(s, d(2, "D2"))
    s = step(s, d(3, "S2 S2"))
    s = pass_round(s)
    assert (s.dealer, s.trump, s.kitty_holder) == (2, SPADES, 2)


def test_three_deck_grab_the_first_declarer_deals():
    """QQ three decks (抢亮, "和两副牌拖拉机规则类似"): S0 shows H2, S1 grabs with LJ LJ; S0
    deals."""
    s = first_deal(PRESETS["three-deck"], {0: "H2", 1: "LJ LJ"})
    s = step(step(s, d(0, "H2")), d(1, "LJ LJ"))
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (NO_TRUMP, 0, 1)


def test_tournament_the_overturner_takes_the_first_deal():
    """"第一局翻主翻庄": S1 calls H2 (叫主), S2 overturns with D2 D2 (翻主) and deals."""
    s = first_deal(PRESETS["tournament"], {1: "H2", 2: "D2 D2"})
    s = step(s, d(1, "H2"))
    s, events = s.apply(d(2, "D2 D2"))
    assert events[0].dealer_to_be == 2
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (DIAMONDS, 2, 2)
    assert s.defenders == (0, 2)


def test_tournament_second_deal_an_overturn_does_not_take_the_seat():
    """"第二局以后翻主不翻庄": the dealer (S3) keeps the seat whoever overturns."""
    s = stacked(PRESETS["tournament"], {1: "H2", 2: "D2 D2"}, level="2", dealer=3)
    while s.n_dealt < s.players * s.ruleset.hand_size - 1:
        s = step(s, Deal())
    s = step(step(s, d(1, "H2")), d(2, "D2 D2"))
    assert s.dealer_to_be is None
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (DIAMONDS, 3, 2)


@pytest.mark.parametrize("name", ["lianzhong", "bianfeng", "find-friend"])
def test_lianzhong_bianfeng_the_seat_goes_to_the_declarer_who_fixed_trump(name):
    """"第一局的庄家由翻主方担任" with "最后翻出的级牌花色即为主花色": the last declarer deals."""
    s = first_deal(PRESETS[name], {1: "H2", 2: "S2 S2"})
    s = step(step(s, d(1, "H2")), d(2, "S2 S2"))
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (SPADES, 2, 2)


def test_four_decks_the_hidden_overturner_takes_the_first_deal():
    """"第一盘反底反桩，比对方叫牌多1张牌的情况可改变主牌花色": S1 shows H3, S2 shows D3 D3."""
    s = first_deal(PRESETS["four-deck"], {1: "H3", 2: "D3 D3"}, level="3")
    s = step(step(s, d(1, "H3")), d(2, "D3 D3"))
    assert s.dealer_to_be is None  # hidden: nobody may know who declared
    s = step(s, Deal())
    while s.phase is Phase.DECLARING:
        s = step(s, Pass(s.to_act))
    assert (s.dealer, s.trump) == (2, DIAMONDS)


def test_nobody_declares_in_a_first_deal_the_first_seat_dealt_to_deals():
    s = first_deal(PRESETS["classic"], {})
    s, tf = fix_trump(s)
    assert (tf.trump, tf.dealer, tf.declarer) == (NO_TRUMP, 0, None)


def test_the_table_is_told_who_will_deal_while_the_first_deal_is_declared():
    """Every seat and spectators see ``dealer_to_be``: the first declarer, overturn or not."""
    s = first_deal(PRESETS["classic"], {1: "H2", 2: "S2 S2", 3: "BJ BJ"})
    assert s.dealer_to_be is None
    s, events = s.apply(d(1, "H2"))
    assert events[0].dealer_to_be == 1
    s = step(s, d(2, "S2 S2"))
    s, events = s.apply(d(3, "BJ BJ"))
    assert events[0].dealer_to_be == 1
    views = [view_for(s, q) for q in range(4)] + [public_view(s)]
    assert {v.dealer_to_be for v in views} == {1}
    assert {v.dealer for v in views} == {None}
    s, tf = fix_trump(s)
    assert tf.dealer == 1 and s.dealer_to_be is None and view_for(s, 0).dealer_to_be is None


def test_dealer_to_be_follows_the_overturn_where_it_takes_the_seat():
    rs = preset("classic", {"first_deal_overturn_takes_dealer": True})
    s = first_deal(rs, {1: "H2", 2: "S2 S2"})
    s = step(s, d(1, "H2"))
    assert view_for(s, 0).dealer_to_be == 1
    s = step(s, d(2, "S2 S2"))
    assert public_view(s).dealer_to_be == 2


def test_a_later_deal_has_no_dealer_to_be():
    s = stacked(PRESETS["classic"], {1: "H2"}, level="2", dealer=0)
    s = step(step(s, Deal()), Deal())
    s, events = s.apply(d(1, "H2"))
    assert events[0].dealer_to_be is None and public_view(s).dealer_to_be is None


@pytest.mark.parametrize("seed", range(4))
def test_a_match_first_deal_and_the_next_dealer_follow_the_first_declarer(seed):
    """A whole first deal under QQ rules: the first declarer deals; the next dealer is its
    partner (dealer side kept the deal) or its next seat (attackers took over)."""
    declared: list[Declared] = []

    def listen(_a, _s, events):
        declared.extend(e for e in events if isinstance(e, Declared) and e.audience is None)

    bots = [RandomBot(f"first/{seed}/{p}", declare_chance=0.6) for p in range(4)]
    m, _ = play_match(PRESETS["classic"], bots, seed=seed, deals=1, on_action=listen)
    first = m.history[0]
    assert first.dealer == (declared[0].seat if declared else 0)
    if first.result.change.attackers_take_over:
        assert m.dealer == (first.dealer + 1) % 4
    else:
        assert m.dealer == (first.dealer + 2) % 4


def test_the_match_starts_without_a_dealer():
    m = MatchState.new(PRESETS["classic"], seed=1)
    assert m.deal.dealer is None and m.deal.dealer_to_be is None
