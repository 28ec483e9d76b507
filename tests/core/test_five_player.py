"""Five players (seed 002 "变异打法", 以五人三副牌为例): the three parts the first version left
out — 级数不浪费, the jokers (王) as a must-play level above A, and 亮牌权 after a takeover
(docs/rules.md Decisions 93–99).

Seed 002: "级数不浪费原则 当遇到必打的点数致使某个玩家升不了级时，该玩家可以将所剩余的级数转移给
同一方的指定玩家让其升相应的级数，或指定对方玩家降相应的级数。" Item 4: "J、A、王为必打点数，当玩家
因必打而升不了级时，少升的级数，可以指定对方的任意一个或多个玩家须退相应级数（退至2后，无须再退）；
或指定同一方的任意一个或多个玩家升相应级数（升到必打的点数不能再升）。" Item 1: "抓分方捉满120分即可
上台,即每个成员获得下一局的亮牌权".
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shengji.bots.build import compiled
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import SYSTEM, Deal, Declare, Pass
from shengji.core.bidding import legal_declarations, make_declaration
from shengji.core.cards import (
    BJ,
    JOKER_LEVEL,
    NO_TRUMP,
    counts_of,
    deck,
    level_str,
    parse_cards,
    parse_level,
)
from shengji.core.errors import NotationError, Reason
from shengji.core.events import DealStarted
from shengji.core.match import MatchState, takeover_rights
from shengji.core.order import TRUMP, context_for
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState
from shengji.core.units import classify
from shengji.core.views import view_for
from tests.core.dealkit import assert_illegal, deal_out, stacked, step
from tests.core.test_friend_levels import outcome

pytestmark = pytest.mark.skipif(
    compiled(), reason="fakes a DealState (SimpleNamespace), which a compiled function refuses"
)

FIVE = PRESETS["five-player"]
J, A, JK = 9, 12, JOKER_LEVEL  # level indices: five-player plays every rank, then JK

TRANSFER = "当遇到必打的点数致使某个玩家升不了级时，该玩家可以将所剩余的级数转移给同一方的指定玩家"
DOWN_TO_TWO = "可以指定对方的任意一个或多个玩家须退相应级数（退至2后，无须再退）"
UP_TO_MUST = "或指定同一方的任意一个或多个玩家升相应级数（升到必打的点数不能再升）"
MUST = "J、A、王为必打点数"
RIGHTS = "抓分方捉满120分即可上台,即每个成员获得下一局的亮牌权"


def lv(*ranks: str) -> tuple[int, ...]:
    """Level indices from rank names (five-player: the index is the rank, JK is 13)."""
    return tuple(FIVE.level_sequence.index(parse_level(r)) for r in ranks)


# ---------------------------------------------------------------------------- 级数不浪费


def test_wasted_levels_come_off_the_highest_opponent() -> None:
    """TRANSFER: the dealer on 9 wins with the attackers on 0 — 6 levels (2*3, fixed shares)
    but J stops it after 2; the 4 it cannot use come off the attackers one at a time, the
    highest first: seat 1 goes from K down to 9."""
    assert TRANSFER
    after = outcome(FIVE, lv("9", "K", "3", "5", "2"), 0, friend=2, last=0)[0]
    assert after == lv("J", "9", "6", "5", "2")  # the friend: 3 + 3 levels, no stop


def test_several_opponents_share_the_loss() -> None:
    """DOWN_TO_TWO "任意一个或多个玩家": two attackers on Q lose two each."""
    after = outcome(FIVE, lv("9", "Q", "3", "Q", "2"), 0, friend=2, last=0)[0]
    assert after == lv("J", "10", "6", "10", "2")


def test_opponents_on_two_lose_nothing_and_partners_go_up_to_a_must_play_rank() -> None:
    """DOWN_TO_TWO, UP_TO_MUST: the attackers are all on 2, so the dealer's 4 go to its
    friend, who climbs from 8 to J and stops; the last level is lost."""
    after = outcome(FIVE, lv("9", "2", "5", "2", "2"), 0, friend=2, last=0)[0]
    assert after == lv("J", "2", "J", "2", "2")


def test_the_partners_option_raises_the_partner_first() -> None:
    rs = preset("five-player", {"level_transfer": "partners"})
    after = outcome(rs, lv("9", "K", "3", "5", "2"), 0, friend=2, last=0)[0]
    assert after == lv("J", "K", "10", "5", "2")  # the friend 6 → 10; the attackers keep theirs


def test_an_attacker_on_a_must_play_rank_takes_its_levels_off_the_dealer_side() -> None:
    """MUST: an attacker on J that takes over cannot go up (it must deal at J first): its
    level comes off the highest of the dealer and the friend."""
    after = outcome(FIVE, lv("5", "J", "7", "3", "2"), 180, friend=2, last=1)[0]
    assert after == lv("5", "J", "6", "4", "3")


def test_a_lone_dealer_has_no_partner_to_give_to() -> None:
    after = outcome(FIVE, lv("9", "2", "2", "2", "2"), 0, friend=None, last=0)[0]
    assert after == lv("J", "2", "2", "2", "2")  # 12 levels, 2 used, nobody to take the rest


def test_with_the_transfer_off_the_levels_are_lost() -> None:
    rs = preset("five-player", {"level_transfer": "off"})
    after = outcome(rs, lv("9", "K", "3", "5", "2"), 0, friend=2, last=0)[0]
    assert after == lv("J", "K", "6", "5", "2")


def test_transfer_needs_a_find_a_friend_game() -> None:
    from shengji.core.errors import RulesetError

    with pytest.raises(RulesetError, match="find-a-friend"):
        preset("classic", {"level_transfer": "opponents"})


# ---------------------------------------------------------------------------- 王: the joker level


def test_five_players_climb_past_a_to_the_jokers() -> None:
    """MUST: the sequence is 2..A then JK; J, A and JK must be played."""
    assert FIVE.level_sequence == (*range(13), JK)
    assert set(FIVE.must_play) == {J, A, JK}
    assert FIVE.to_dict()["level_sequence"][-1] == "JK" and "JK" in FIVE.to_dict()["must_play"]
    assert Ruleset.from_dict(FIVE.to_dict()) == FIVE


def test_a_dealer_winning_at_a_goes_to_jk_and_the_match_goes_on() -> None:
    levels, _, winners = outcome(FIVE, lv("A", "K", "A", "2", "2"), 55, friend=2, last=0)
    assert winners == () and levels[0] == levels[2] == JK  # dealer 4 levels, friend 2
    # 3 of the dealer's and 1 of the friend's cannot be used past JK: seat 1 loses 4
    assert levels[1] == lv("9")[0]


def test_winning_at_jk_wins_the_match() -> None:
    levels, _, winners = outcome(FIVE, lv("JK", "K", "3", "2", "2"), 55, friend=2, last=0)
    assert winners == (0,) and levels[1] == lv("K")[0]  # no transfer once the match is won


def test_notation_for_the_joker_level() -> None:
    assert parse_level("JK") == parse_level("王") == JK and level_str(JK) == "JK"
    assert parse_level("A") == A and level_str(A) == "A"
    with pytest.raises(NotationError):
        parse_level("JJ")


def test_at_jk_no_rank_is_the_level_only_the_jokers_are_trump() -> None:
    ctx = context_for(FIVE, JK, NO_TRUMP)
    trumps = set(ctx.suit_kinds[TRUMP])
    assert trumps == set(parse_cards("LJ BJ"))
    assert classify(parse_cards("S2 S2 S3 S3"), ctx).kind == "tractor"  # 2 is a plain card
    assert classify(parse_cards("LJ LJ BJ BJ"), ctx).kind == "tractor"
    hearts = context_for(FIVE, JK, 1)  # a trump suit, if one is ever named, ranks A..2
    assert hearts.is_trump(parse_cards("H2")[0]) and not hearts.is_trump(parse_cards("S2")[0])


def test_at_jk_only_jokers_declare() -> None:
    hand = counts_of(parse_cards("S2 S2 SA SA LJ LJ BJ"))
    assert make_declaration(0, parse_cards("SA SA"), JK, FIVE) is None
    decls = legal_declarations(0, hand, JK, None, FIVE)
    assert decls and all(d.trump == NO_TRUMP and d.joker for d in decls)


@pytest.mark.parametrize("seed", range(3))
def test_a_deal_at_jk_plays_out_with_every_card(seed: int) -> None:
    s = DealState.new(FIVE, f"jk/{seed}", JK, 0, 1, levels=(JK, 0, 5, 9, 12))
    rng = random.Random(seed)
    bots = [RandomBot(f"{seed}/{p}") for p in range(5)]
    while not s.is_over:
        seat = s.to_act
        if seat == SYSTEM:
            s = step(s, Deal())
            continue
        assert seat is not None
        s = step(s, bots[seat].choose(view_for(s, seat), s.legal_actions(seat)) or
                 s.legal_actions(seat).sample(rng))
    assert s.ctx is not None and s.ctx.level == JK and s.trump == NO_TRUMP
    played = Counter(c for t in s.tricks for _, cs in t.plays for c in cs)
    assert played + Counter(s.kitty) == Counter(deck(3))


# ---------------------------------------------------------------------------- 亮牌权


def contest(hands: dict[int, str], levels: tuple[str, ...] = ("5", "2", "5", "9", "J"),
            rights: tuple[int, ...] = (1, 3, 4)) -> DealState:
    """A deal after a takeover: seats ``rights`` contest it, each with its own level."""
    return deal_out(stacked(FIVE, hands, level=levels[rights[0]], dealer=None,
                            levels=levels, rights=rights))


def window(s: DealState, *moves: tuple[int, str]) -> DealState:
    """The declaration window: ``(seat, cards)`` declarations in turn, every other seat
    passes, until trump is fixed."""
    todo = list(moves)
    while s.phase is Phase.DECLARING:
        seat = s.to_act
        assert seat is not None
        if todo and todo[0][0] == seat:
            s = step(s, Declare(seat, tuple(parse_cards(todo.pop(0)[1]))))
        else:
            s = step(s, Pass(seat))
    assert not todo
    return s


def test_every_attacker_may_declare_with_its_own_level() -> None:
    """RIGHTS: seat 1 (on 2) shows S2, seat 3 (on 9) overturns with H9 H9: seat 3 deals the
    deal at its own 9, hearts trump."""
    s = contest({1: "S2", 3: "H9 H9", 2: "H5 H5"})
    assert s.rights == (1, 3, 4) and s.dealer is None and s.start == 1
    assert view_for(s, 3).declare_level == parse_level("9")
    assert view_for(s, 1).declare_level == parse_level("2")
    s = window(s, (1, "S2"), (3, "H9 H9"))
    assert s.dealer == 3 and s.level == parse_level("9") and s.trump == 1
    assert s.ctx is not None and s.ctx.level == parse_level("9")
    assert s.kitty_holder == 3 and s.phase is Phase.BURYING


def test_a_seat_without_the_right_cannot_declare() -> None:
    """RIGHTS: the old dealer side (seats 0 and 2) may not show cards in this deal."""
    s = contest({1: "S2", 3: "H9 H9", 2: "H5 H5", 0: "BJ BJ"})
    s = step(s, Pass(1))
    assert s.to_act == 2
    e = assert_illegal(s, Declare(2, tuple(parse_cards("H5 H5"))), Reason.BAD_DECLARATION)
    assert "亮牌权" in e.message
    assert [str(a) for a in s.legal_actions(2)] == ["pass 2"]
    # nor while the cards are dealt
    s = stacked(FIVE, {0: "BJ BJ"}, level="2", dealer=None, levels=("5", "2", "5", "9", "J"),
                rights=(1, 3, 4))
    while s.hands[0][BJ] < 2:
        s = step(s, Deal())
    assert_illegal(s, Declare(0, (BJ, BJ)), Reason.BAD_DECLARATION)
    assert not s.legal_actions(0)


def test_nobody_declares_the_first_attacker_deals_at_its_own_level() -> None:
    s = window(contest({}))
    assert s.dealer == 1 and s.level == parse_level("2") and s.trump == NO_TRUMP


def test_an_attacker_on_jk_declares_only_with_jokers() -> None:
    s = contest({4: "BJ BJ S3"}, levels=("5", "2", "5", "9", "JK"))
    assert view_for(s, 4).declare_level == JK
    assert [str(a) for a in s.legal_actions(1)][-1] == "pass 1"
    s = window(s, (4, "BJ BJ"))
    assert s.dealer == 4 and s.level == JK and s.trump == NO_TRUMP


def test_after_a_takeover_the_match_opens_the_next_deal_to_the_attackers() -> None:
    """RIGHTS, through whole matches: after each takeover the next deal has no dealer and
    the attackers of the deal before hold the right, in play order from the old dealer."""
    seen = 0
    for seed in range(6):
        m = MatchState.new(FIVE, f"rights/{seed}")
        bots = [RandomBot(f"{seed}/{p}") for p in range(5)]
        rng = random.Random(seed)
        while len(m.history) < 4 and not m.is_over:
            seat = m.to_act
            before = len(m.history)
            if seat == SYSTEM:
                m, events = m.apply(Deal())
            else:
                assert seat is not None
                a = bots[seat].choose(view_for(m.deal, seat), m.legal_actions(seat))
                m, events = m.apply(a or m.legal_actions(seat).sample(rng))
            if len(m.history) == before or m.is_over:
                continue
            done = m.history[-1]
            started = next(e for e in events if isinstance(e, DealStarted))
            if done.result.change.attackers_take_over:
                attackers = [(done.dealer + i) % 5 for i in range(1, 5)]
                attackers = [p for p in attackers if p not in done.result.defenders]
                assert m.deal.rights == tuple(attackers) == started.rights
                assert m.dealer is None and m.deal.dealer is None
                assert m.deal.level == FIVE.level_sequence[m.levels[attackers[0]]]
                seen += 1
            else:
                assert m.deal.rights == () and m.deal.dealer == done.dealer
    assert seen >= 2


def test_other_presets_keep_a_dealer_after_a_takeover() -> None:
    assert takeover_rights(PRESETS["find-friend"], None, 1) == ()  # type: ignore[arg-type]
    assert PRESETS["find-friend"].takeover_dealer == "next"
