"""Three decks, 抢亮 (RULES.md §5; rules.md Decision 102).

Seed 000 / 002, 三副牌 亮主规则: "四位玩家中任意一位亮了合法的牌后，其它玩家就不能再亮同级别
或该级别以下的牌了", with the tiers (假定当前打 2) 单张 2 < 两张 2 < 两张王（打无主）< 三张 2 <
三张王（打无主）. A later declaration must be in a strictly higher tier: two big jokers do not
overturn two small jokers, three big jokers do not overturn three small jokers.
"""

from __future__ import annotations

import itertools

import pytest

from shengji.core.actions import Deal, Declare
from shengji.core.bidding import beats, make_declaration, refusal, tier
from shengji.core.cards import NO_TRUMP, SPADES
from shengji.core.errors import Reason
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.state import DealState
from tests.core.dealkit import C, assert_illegal, stacked, step

THREE = PRESETS["three-deck"]
FIVE = PRESETS["five-player"]

TIERS = [["H2"], ["S2 S2"], ["LJ LJ", "BJ BJ"], ["D2 D2 D2"], ["LJ LJ LJ", "BJ BJ BJ"]]
"""The seed's five tiers, low to high, with every way to show each (level 2)."""


def d(seat: int, cards: str) -> Declare:
    return Declare(seat, tuple(C(cards)))


def dealing(rs: Ruleset, hands: dict[int, str]) -> DealState:
    s = stacked(rs, hands, level="2", dealer=0)
    while s.n_dealt < s.players * rs.hand_size - 1:
        s = step(s, Deal())
    return s


def decl(seat: int, cards: str, rs: Ruleset = THREE):
    made = make_declaration(seat, C(cards), 0, rs)
    assert made is not None
    return made


@pytest.mark.parametrize("rs", [THREE, FIVE], ids=["three-deck", "five-player"])
@pytest.mark.parametrize(
    ("low", "high"),
    [(a, b) for i, j in itertools.combinations(range(5), 2) for a in TIERS[i] for b in TIERS[j]],
)
def test_each_tier_overturns_every_lower_one_and_never_the_reverse(rs, low, high):
    assert beats(decl(1, high, rs), decl(0, low, rs), rs)
    assert not beats(decl(1, low, rs), decl(0, high, rs), rs)


@pytest.mark.parametrize("rs", [THREE, FIVE], ids=["three-deck", "five-player"])
@pytest.mark.parametrize("shown", [s for t in TIERS for s in t])
@pytest.mark.parametrize("later", [s for t in TIERS for s in t])
def test_the_same_tier_never_overturns(rs, shown, later):
    """"不能再亮同级别…的牌了": equal tiers, whatever the suit or the joker's colour."""
    if tier(decl(0, shown, rs), rs) == tier(decl(1, later, rs), rs):
        assert not beats(decl(1, later, rs), decl(0, shown, rs), rs)


def test_two_big_jokers_do_not_overturn_two_small_jokers():
    s = dealing(THREE, {1: "LJ LJ", 2: "BJ BJ", 3: "S2 S2 S2"})
    s = step(s, d(1, "LJ LJ"))
    e = assert_illegal(s, d(2, "BJ BJ"), Reason.BAD_DECLARATION)
    assert "not in a higher tier" in e.message
    assert d(2, "BJ BJ") not in set(s.legal_actions(2))
    s = step(s, d(3, "S2 S2 S2"))  # three level cards are the next tier up
    assert s.declaration.trump == SPADES


def test_three_big_jokers_do_not_overturn_three_small_jokers():
    s = dealing(THREE, {1: "LJ LJ LJ", 2: "BJ BJ BJ"})
    s = step(s, d(1, "LJ LJ LJ"))
    assert_illegal(s, d(2, "BJ BJ BJ"), Reason.BAD_DECLARATION)
    assert s.declaration.trump == NO_TRUMP and s.declaration.seat == 1


def test_two_small_jokers_do_not_overturn_two_big_jokers_either():
    s = step(dealing(THREE, {1: "BJ BJ", 2: "LJ LJ"}), d(1, "BJ BJ"))
    assert_illegal(s, d(2, "LJ LJ"), Reason.BAD_DECLARATION)


def test_the_declarer_too_needs_a_higher_tier():
    """Self-reinforcing or self-overturning also climbs a tier: LJ LJ → BJ BJ is refused."""
    s = step(dealing(THREE, {1: "LJ LJ BJ BJ S2 S2 S2"}), d(1, "LJ LJ"))
    assert_illegal(s, d(1, "BJ BJ"), Reason.BAD_DECLARATION)
    s = step(s, d(1, "S2 S2 S2"))
    assert s.declaration.trump == SPADES and s.stake == 1  # self-overturn: no doubling


def test_the_full_ladder_in_one_deal():
    """单张 2 → 两张 2 → 两张王 → 三张 2 → 三张王, each by another seat, each doubling."""
    s = dealing(THREE, {0: "H2 BJ BJ BJ", 1: "S2 S2", 2: "LJ LJ", 3: "D2 D2 D2"})
    for seat, cards in [(0, "H2"), (1, "S2 S2"), (2, "LJ LJ"), (3, "D2 D2 D2"), (0, "BJ BJ BJ")]:
        s = step(s, d(seat, cards))
    assert s.declaration.seat == 0 and s.declaration.trump == NO_TRUMP and s.stake == 16


def test_two_decks_keep_their_ladder():
    """Only 抢亮 drops the joker colour: in the two-deck classic ladder (Decision 31) a big-
    joker pair still overturns a small-joker pair."""
    rs = PRESETS["classic"]
    assert beats(decl(1, "BJ BJ", rs), decl(0, "LJ LJ", rs), rs)


def test_the_refusal_says_which_tiers():
    why = refusal(decl(2, "BJ BJ BJ"), decl(1, "LJ LJ LJ"), THREE)
    assert why == (
        "BJ BJ BJ is not in a higher tier than LJ LJ LJ (抢亮: one level card < two < two "
        "jokers < three < three jokers)"
    )
