"""The 竞标 auction and the target's level table (seed 002 三人打法; rules.md 60–66, 126).

Pure values: ``Auction`` (bid ladder, refusals, who deals) and ``target_level_change``.
The state machine around them is in ``test_three_player.py``.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.core.auction import Auction, lowest_bid, target_level_change
from shengji.core.errors import IllegalAction, Reason
from shengji.core.ruleset import preset
from shengji.core.scoring import LevelChange

RS = preset("three-player")
ONE_STEP = preset("three-player", {"bid_min": 0})
"""The floor before ``bid_min`` (one step), as rulesets stored without it replay."""


def play(*moves: tuple[int, int | None], opener: int = 0) -> Auction:
    """An auction after ``(seat, target)`` moves, None for a pass."""
    a = Auction(opener, 3)
    for seat, target in moves:
        a = a.pass_(seat) if target is None else a.bid(seat, target, RS)
    return a


# --------------------------------------------------------------------------- the ladder


def test_the_seed_example_lowest_bidder_deals() -> None:
    """甲 150, 乙 120, 丙 115, then nobody goes lower: 丙 deals at 115."""
    a = play((0, 150), (1, 120), (2, 115))
    assert not a.is_over and a.turn == 0 and a.standing == (2, 115)
    a = play((0, 150), (1, 120), (2, 115), (0, None), (1, None))
    assert a.is_over and a.turn is None
    assert a.result(RS) == (2, 115)


def test_first_bid_at_most_the_opening_value_in_steps_of_five() -> None:
    a = Auction(0, 3)
    targets = a.legal_targets(RS)
    assert targets[0] == 150 and targets[-1] == 100
    assert targets == list(range(150, 95, -5))


def test_each_bid_at_least_one_step_lower() -> None:
    a = play((0, 150), (1, 120))
    assert a.legal_targets(RS)[:2] == [115, 110]
    assert a.ceiling(RS) == 115


def test_a_pass_drops_out_for_good() -> None:
    a = play((0, 150), (1, None), (2, 140))
    assert a.turn == 0  # seat 1 is skipped from now on
    a = a.bid(0, 130, RS)
    assert a.turn == 2
    with pytest.raises(IllegalAction) as err:
        a.bid(1, 100, RS)
    assert err.value.reason == Reason.NOT_YOUR_TURN


def test_the_last_seat_left_holding_the_bid_deals_without_speaking_again() -> None:
    a = play((0, 150), (1, None), (2, None))
    assert a.is_over and a.result(RS) == (0, 150)


def test_the_last_seat_left_without_a_bid_may_still_bid() -> None:
    a = play((0, None), (1, None))
    assert not a.is_over and a.turn == 2
    assert play((0, None), (1, None), (2, 145)).result(RS) == (2, 145)


def test_everybody_passes_the_opener_deals_at_the_opening_value() -> None:
    a = play((1, None), (2, None), (0, None), opener=1)
    assert a.is_over and a.result(RS) == (1, 150)


def test_bidding_goes_round_until_one_is_left() -> None:
    a = play((0, 150), (1, 145), (2, 140), (0, 135), (1, None), (2, 100), (0, None))
    assert a.is_over and a.result(RS) == (2, 100)


def test_the_lowest_bid_is_bid_min() -> None:
    """The sheet's bids ("甲出 150分", "乙出 120分", "丙出 115分") and no floor; ours is half
    the pack (Decision 142): 100 may be bid, 95 may not, and after 100 the others pass."""
    a = play((0, 105))
    assert a.legal_targets(RS) == [100]
    assert a.refusal(1, 95, RS) == (Reason.BAD_BID, "the lowest bid is 100 points")
    a = a.bid(1, 100, RS)
    assert a.legal_targets(RS) == []  # nothing is left: the others can only pass
    assert a.pass_(2).pass_(0).result(RS) == (1, 100)


def test_bid_min_zero_is_one_step_as_before() -> None:
    a = Auction(0, 3).bid(0, 10, ONE_STEP)
    assert a.legal_targets(ONE_STEP) == [5] and lowest_bid(ONE_STEP) == 5
    a = a.bid(1, 5, ONE_STEP)
    assert a.legal_targets(ONE_STEP) == []  # nothing is left below 5: the others can only pass
    assert a.pass_(2).pass_(0).result(ONE_STEP) == (1, 5)


# ------------------------------------------------- the sheet's sentences (Decision 126)


@pytest.mark.parametrize(
    ("moves", "dealer"),
    [
        (((0, 150), (1, None), (2, None)), (0, 150)),  # 甲出150分：如果乙和丙同意…由甲做庄家
        (((0, 150), (1, 120), (2, None), (0, None)), (1, 120)),  # 乙出120分…由乙做庄家
        (((0, 150), (1, 120), (2, 115), (0, None), (1, None)), (2, 115)),  # 丙出115分
    ],
)
def test_when_the_others_agree_the_bidder_deals_at_its_bid(
    moves: tuple[tuple[int, int | None], ...], dealer: tuple[int, int]
) -> None:
    """"如果乙和丙同意，那么由甲做庄家，乙丙为抓分方", and so for each of the seed's bids."""
    a = play(*moves)
    assert a.is_over and a.result(RS) == dealer


def test_a_seat_may_give_up_when_its_turn_comes() -> None:
    """"按照逆时针顺序轮到乙竞标（乙如果不想要可以放弃）"."""
    a = play((0, 150))
    assert a.turn == 1 and a.legal_targets(RS)[0] == 145
    assert play((0, 150), (1, None)).turn == 2


def test_bidding_goes_on_until_nobody_bids_lower() -> None:
    """"接着竞拍直到没有玩家再出更低分为止；出最低分者为庄家，其余的玩家为抓分方"."""
    a = play((0, 150), (1, 120), (2, 115), (0, 110))
    assert not a.is_over and a.standing == (0, 110)
    assert a.pass_(1).pass_(2).result(RS) == (0, 110)


def test_the_opening_bid_may_be_lower_than_the_examples_150() -> None:
    """The sheet's 150 is its example's opening bid (甲出150分), not a fixed first bid; the
    cap at 150 is ours (Decision 126)."""
    assert play((0, 120), (1, None), (2, None)).result(RS) == (0, 120)
    with pytest.raises(IllegalAction):
        play((0, 155))


def test_options_change_the_ladder() -> None:
    rs = preset("three-player", {"bid_open": 100, "bid_step": 10, "bid_min": 50})
    assert Auction(0, 3).legal_targets(rs)[:3] == [100, 90, 80]
    assert Auction(0, 3).bid(0, 100, rs).legal_targets(rs)[0] == 90
    assert Auction(0, 3).legal_targets(rs)[-1] == 50


@pytest.mark.parametrize(
    ("moves", "seat", "target", "reason", "says"),
    [
        ((), 0, 155, Reason.BAD_BID, "first bid is at most 150"),
        ((), 0, 149, Reason.BAD_BID, "multiple of 5"),
        ((), 0, 0, Reason.BAD_BID, "lowest bid is 100"),
        ((), 0, -5, Reason.BAD_BID, "lowest bid is 100"),
        ((), 0, 95, Reason.BAD_BID, "lowest bid is 100"),
        (((0, 120),), 1, 120, Reason.BAD_BID, "at least 5 below the standing bid of 120"),
        (((0, 120),), 1, 125, Reason.BAD_BID, "at least 5 below"),
        (((0, 120),), 2, 100, Reason.NOT_YOUR_TURN, "seat 1's turn"),
        (((0, 120), (1, None), (2, None)), 0, 100, Reason.WRONG_PHASE, "auction is over"),
    ],
)
def test_bad_bids_are_refused_with_a_reason(
    moves: tuple[tuple[int, int | None], ...], seat: int, target: int, reason: Reason, says: str
) -> None:
    a = play(*moves)
    assert a.refusal(seat, target, RS) is not None
    with pytest.raises(IllegalAction) as err:
        a.bid(seat, target, RS)
    assert err.value.reason == reason
    assert says in err.value.message
    assert a == play(*moves)  # a value: nothing changed


def test_passing_out_of_turn_or_after_the_end_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        Auction(0, 3).pass_(1)
    assert err.value.reason == Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalAction) as err:
        play((0, 150), (1, None), (2, None)).pass_(0)
    assert err.value.reason == Reason.WRONG_PHASE
    with pytest.raises(ValueError):
        Auction(0, 3).result(RS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-1, max_value=200), max_size=40), st.integers(0, 2))
def test_any_sequence_of_moves_keeps_the_ladder(moves: list[int], opener: int) -> None:
    """Bids always fall by at least a step, a seat that passed never speaks again, and a
    finished auction's dealer is the last bidder (or the opener)."""
    a = Auction(opener, 3)
    for m in moves:
        if a.is_over:
            break
        seat = a.turn
        assert seat is not None and seat not in a.passed
        if m < 0 or not a.legal_targets(RS):
            a = a.pass_(seat)
            continue
        if a.refusal(seat, m, RS) is None:
            a = a.bid(seat, m, RS)
        else:
            assert m not in a.legal_targets(RS)
    bids = [t for _, t in a.bids if t is not None]
    assert all(x - y >= RS.bid_step for x, y in itertools.pairwise(bids))
    assert all(t % RS.bid_step == 0 and lowest_bid(RS) <= t <= RS.bid_open for t in bids)
    if a.is_over:
        dealer, target = a.result(RS)
        assert (dealer, target) == (a.standing or (opener, RS.bid_open))


# --------------------------------------------------------------------------- the target


@pytest.mark.parametrize(
    ("target", "points", "dealer", "attackers"),
    [
        # 甲 150: "抓到150分即可升一级，以后每75分升一级。不到150分庄家升2级，不到75分庄家升4级，
        # 没抓到分庄家升6级"
        (150, 0, 6, 0),
        (150, 5, 4, 0),
        (150, 70, 4, 0),
        (150, 75, 2, 0),
        (150, 145, 2, 0),
        (150, 150, 0, 1),
        (150, 220, 0, 1),
        (150, 225, 0, 2),
        (150, 300, 0, 3),
        # 乙 120: every 60 one more; under 120 dealer +2; under 60 +4; none +6
        (120, 0, 6, 0),
        (120, 55, 4, 0),
        (120, 60, 2, 0),
        (120, 115, 2, 0),
        (120, 120, 0, 1),
        (120, 175, 0, 1),
        (120, 180, 0, 2),
        (120, 240, 0, 3),
        # 丙 115: every 57.5 one more; under 115 (the seed's "116" read as 115) +2; under 57.5 +4
        (115, 55, 4, 0),
        (115, 60, 2, 0),
        (115, 110, 2, 0),
        (115, 115, 0, 1),
        (115, 170, 0, 1),
        (115, 175, 0, 2),
        (115, 230, 0, 3),
    ],
)
def test_level_change_against_the_target(
    target: int, points: int, dealer: int, attackers: int
) -> None:
    assert target_level_change(points, target) == LevelChange(dealer, attackers, False)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40).map(lambda n: 5 * n), st.integers(0, 80).map(lambda n: 5 * n))
def test_the_target_table_is_monotone(target: int, points: int) -> None:
    """More points never help the dealer; the attackers win exactly from the target on."""
    ch = target_level_change(points, target)
    nxt = target_level_change(points + 5, target)
    assert not ch.attackers_take_over
    assert (ch.attacker_levels > 0) == (points >= target)
    assert (ch.defender_levels > 0) == (points < target)
    assert nxt.defender_levels <= ch.defender_levels
    assert nxt.attacker_levels >= ch.attacker_levels
