"""Stakes of a deal (RULES.md §9, seeds 000/001): rating points 积分, game coins 游戏币 and
欢乐豆, with the worked examples of the seeds and properties over random outcomes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.bots.driver import play_match
from shengji.bots.random import RandomBot
from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESETS
from shengji.core.scoring import LevelChange, level_change
from shengji.core.stakes import (
    DealOutcome,
    StakeRules,
    bean_deltas,
    coin_base,
    coin_deltas,
    deal_outcome,
    rating_deltas,
    rating_multiplier,
    rating_points,
    settle,
    side_stakes,
)
from shengji.core.state import DealResult

CLASSIC = PRESETS["classic"]


def result(
    points: int,
    defenders: tuple[int, ...] = (0, 2),
    stake: int = 1,
    change: LevelChange | None = None,
) -> DealResult:
    """A finished classic deal where the attackers scored ``points``."""
    return DealResult(
        attacker_points=points,
        kitty_points=0,
        kitty_multiplier=0,
        kitty_gain=0,
        last_winner=defenders[0],
        last_winning_cards=(12,),
        change=change or level_change(points, CLASSIC),
        defenders=defenders,
        stake=stake,
        failed_throws=0,
    )


def outcome(points: int, defenders: tuple[int, ...] = (0, 2), stake: int = 1) -> DealOutcome:
    return deal_outcome(result(points, defenders, stake), 4)


# ------------------------------------------------------------------------------ who won


def test_dealer_side_wins_when_it_goes_up() -> None:
    o = outcome(45)  # classic 40-79: dealer side +1
    assert (o.dealer_side_won, o.levels, o.winners, o.losers) == (True, 1, (0, 2), (1, 3))
    assert not o.slam


def test_a_takeover_without_a_level_is_a_win_for_the_attackers() -> None:
    o = outcome(85)  # classic 80-119: the dealer steps down, nobody goes up
    assert (o.dealer_side_won, o.levels, o.winners) == (False, 0, (1, 3))
    assert rating_points(o) == 2  # "闲家转庄家得两分"
    assert coin_base(o) == 2  # X = Y + 2


def test_big_slam_is_the_attackers_on_zero() -> None:
    assert outcome(0).slam and outcome(0).levels == 3
    assert not outcome(5).slam


def test_stake_comes_from_the_deal() -> None:
    assert outcome(45, stake=4).stake == 4


# ------------------------------------------------------------------------------ ratings


@pytest.mark.parametrize(
    ("points", "expected"),
    [(0, 4), (5, 3), (35, 3), (40, 2), (75, 2), (80, 2), (120, 3), (160, 4), (200, 5)],
)
def test_rating_points_by_result(points: int, expected: int) -> None:
    # dealer +3 (大光) 4, +2 3, +1 2; takeover 2, +1 3, +2 4, +3 5
    assert rating_points(outcome(points)) == expected


def test_dealer_side_rating_points_are_capped_at_four() -> None:
    o = DealOutcome((0,), (1, 2), True, 6)  # three players: dealer +6 on zero
    assert rating_points(o) == 4


def test_seed_example_all_at_90_big_slam_doubles() -> None:
    # seed 000: four players on 90, dealer side 大光: +4 doubled to +8
    assert rating_deltas(outcome(0), [90, 90, 90, 90]) == (8, -8, 8, -8)


def test_seed_example_all_at_400_triples() -> None:
    assert rating_deltas(outcome(0), [400] * 4) == (12, -12, 12, -12)


def test_seed_example_special_big_slam_value_tripled() -> None:
    assert rating_deltas(outcome(0), [400] * 4, slam_points=6) == (18, -18, 18, -18)
    s = settle(result(0), StakeRules("rating", slam_points=6), [400] * 4)
    assert (s.deltas, s.base, s.multiplier) == ((18, -18, 18, -18), 18, 3)


def test_special_value_only_for_a_big_slam() -> None:
    assert rating_points(outcome(5), slam_points=6) == 3


def test_rating_brackets() -> None:
    assert rating_multiplier([80, 299, 100, 200]) == 2
    assert rating_multiplier([79, 299, 100, 200]) == 1
    assert rating_multiplier([300, 300, 300, 300]) == 3
    assert rating_multiplier([300, 299, 300, 300]) == 1  # mixed brackets: no bonus
    assert rating_multiplier([]) == 1


def test_unrated_bot_seats_do_not_count_for_the_bracket() -> None:
    assert rating_deltas(outcome(45), [90, None, 90, 120]) == (4, -4, 4, -4)


def test_attackers_win_ratings() -> None:
    assert rating_deltas(outcome(165), [0, 0, 0, 0]) == (-4, 4, -4, 4)  # takeover +2


# ------------------------------------------------------------------------------ coins


def test_seed_coin_example() -> None:
    # seed 000: N = 1000, dealer side +2 → winners +2700 each, losers −3000 each
    o = outcome(20)
    assert (o.levels, coin_base(o)) == (2, 3)
    assert coin_deltas(o, 1000) == (2700, -3000, 2700, -3000)
    s = settle(result(20), StakeRules("coins", coefficient=1000), [None] * 4)
    assert (s.deltas, s.base, s.house) == ((2700, -3000, 2700, -3000), 3, 600)


def test_attackers_coin_base_is_y_plus_two() -> None:
    assert coin_base(outcome(125)) == 3  # takeover +1
    assert coin_deltas(outcome(125), 10) == (-30, 27, -30, 27)


def test_each_overturn_and_rebury_doubles_x() -> None:
    # one 反主 and one 反底 in the deal: stake 4
    assert coin_deltas(outcome(20, stake=4), 1000) == (10800, -12000, 10800, -12000)
    assert bean_deltas(outcome(20, stake=2), 100, 10) == (590, -610, 590, -610)


def test_beans_winners_get_xn_minus_a_losers_pay_xn_plus_a() -> None:
    o = outcome(45)  # dealer side +1: X = 2
    assert bean_deltas(o, 100, 30) == (170, -230, 170, -230)
    s = settle(result(45), StakeRules("beans", coefficient=100, house=30), [None] * 4)
    assert s.house == 4 * 30


def test_plain_room_settles_nothing() -> None:
    assert settle(result(45), StakeRules(), [None] * 4).deltas == (0, 0, 0, 0)


# ------------------------------------------------------------------------------ sides


def test_one_against_three_stakes_for_the_missing_partners() -> None:
    o = deal_outcome(result(0, defenders=(1,)), 4)  # find a friend, dealer alone, 大光
    assert o.winners == (1,) and o.losers == (0, 2, 3)
    assert rating_deltas(o, [None] * 4) == (-4, 12, -4, -4)
    assert coin_deltas(o, 100) == (-400, 1080, -400, -400)


def test_two_against_three_share_the_larger_total() -> None:
    o = DealOutcome((0, 3), (1, 2, 4), False, 1)  # five players, attackers +1
    assert side_stakes(o, 3) == {0: 5, 3: 4, 1: 3, 2: 3, 4: 3}
    assert rating_deltas(o, [None] * 5) == (-5, 3, 3, -4, 3)


def test_three_players() -> None:
    o = deal_outcome(result(0, defenders=(2,), change=LevelChange(6, 0, False)), 3)
    assert coin_deltas(o, 10) == (-70, -70, 126)


# ------------------------------------------------------------------------------ options


def test_stake_rules_round_trip_and_refusals() -> None:
    r = StakeRules("beans", coefficient=500, house=50)
    assert StakeRules.from_dict(r.to_dict()) == r
    assert StakeRules.from_dict(None) == StakeRules()
    for bad in (
        {"kind": "gold"},
        {"kind": "coins", "coefficient": 0},
        {"kind": "coins", "coefficient": "1000"},
        {"kind": "coins", "coefficient": True},
        {"kind": "coins", "house": 5},
        {"kind": "beans", "coefficient": 10, "house": 11},
        {"kind": "rating", "slam_points": 0},
        {"kind": "rating", "colour": 1},
    ):
        with pytest.raises(RulesetError):
            StakeRules.from_dict(bad)


# ------------------------------------------------------------------------------ properties

SIDES = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.just(n), st.sets(st.integers(0, n - 1), min_size=1, max_size=n - 1).map(sorted)
    )
)


@st.composite
def outcomes(draw: st.DrawFn) -> DealOutcome:
    n, dealer = draw(SIDES)
    won = draw(st.booleans())
    levels = draw(st.integers(1 if won else 0, 9))
    attackers = tuple(s for s in range(n) if s not in dealer)
    return DealOutcome(
        tuple(dealer),
        attackers,
        won,
        levels,
        slam=won and draw(st.booleans()),
        stake=2 ** draw(st.integers(0, 4)),
    )


@given(outcomes(), st.lists(st.one_of(st.none(), st.integers(-500, 2000)), min_size=5))
def test_ratings_are_zero_sum(o: DealOutcome, pool: list[int | None]) -> None:
    n = len(o.dealer_side) + len(o.attackers)
    deltas = rating_deltas(o, pool[:n], slam_points=None)
    assert sum(deltas) == 0
    assert all(d > 0 for s, d in enumerate(deltas) if s in o.winners)
    assert all(d < 0 for s, d in enumerate(deltas) if s in o.losers)


@given(outcomes(), st.integers(1, 10_000))
def test_coin_winners_get_nine_tenths_of_what_losers_pay(o: DealOutcome, n: int) -> None:
    deltas = coin_deltas(o, n * 20)  # N a multiple of 20: no rounding anywhere
    won = sum(d for d in deltas if d > 0)
    lost = -sum(d for d in deltas if d < 0)
    assert 10 * won == 9 * lost
    assert lost == coin_base(o) * n * 20 * max(len(o.dealer_side), len(o.attackers))


@given(outcomes(), st.integers(1, 10_000))
def test_coin_rounding_never_pays_out_more(o: DealOutcome, n: int) -> None:
    deltas = coin_deltas(o, n)
    won = sum(d for d in deltas if d > 0)
    lost = -sum(d for d in deltas if d < 0)
    assert 0 <= 9 * lost - 10 * won < 10 * len(o.winners)


@given(outcomes(), st.integers(1, 1000), st.data())
def test_beans_house_takes_a_from_everyone(o: DealOutcome, n: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, n))
    deltas = bean_deltas(o, n, a)
    assert -sum(deltas) == a * len(deltas)
    zero = bean_deltas(o, n, 0)
    assert sum(zero) == 0
    assert all(d - z == -a for d, z in zip(deltas, zero, strict=True))
    assert all(d > 0 for s, d in enumerate(deltas) if s in o.winners)


def test_random_matches_settle_for_every_deal() -> None:
    for name in ("classic", "lianzhong", "three-deck", "tournament"):
        rs = PRESETS[name]
        m, _ = play_match(rs, [RandomBot(f"s{i}") for i in range(rs.players)], "stakes", deals=6)
        for d in m.history:
            for rules in (
                StakeRules("rating"),
                StakeRules("coins", coefficient=100),
                StakeRules("beans", 100, 10),
            ):
                s = settle(d.result, rules, [100] * rs.players)
                assert len(s.deltas) == rs.players
                o = deal_outcome(d.result, rs.players)
                assert all(s.deltas[w] > 0 for w in o.winners), (name, d.result)
                assert all(s.deltas[x] < 0 for x in o.losers), (name, d.result)
