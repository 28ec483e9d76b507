"""Stakes of a deal (RULES.md §9, seeds 000/001): rating points 积分, game coins 游戏币 and
欢乐豆, with the worked examples of the seeds and properties over random outcomes; the
room's 反主/反底 doubling option and the 欢乐 game base (docs/rules.md 75–87, 120–129)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESETS
from shengji.core.scoring import LevelChange, level_change
from shengji.core.stakes import (
    DealOutcome,
    StakeRules,
    coin_points,
    deal_base,
    deal_outcome,
    rating_multiplier,
    rating_points,
    settle,
    settle_outcome,
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


RATING = StakeRules("rating")


def deltas(
    o: DealOutcome, rules: StakeRules, ratings: list[int | None] | None = None
) -> tuple[int, ...]:
    """Each seat's change for the room ``rules`` (every seat unrated unless ``ratings``)."""
    return settle_outcome(o, rules, ratings or [None] * o.seats).deltas


def coins(n: int, doubling: bool | None = None) -> StakeRules:
    return StakeRules("coins", n, overturn_doubling=doubling)


def beans(n: int, a: int, doubling: bool | None = None) -> StakeRules:
    return StakeRules("beans", n, a, overturn_doubling=doubling)


# ------------------------------------------------------------------------------ who won


def test_dealer_side_wins_when_it_goes_up() -> None:
    o = outcome(45)  # classic 40-79: dealer side +1
    assert (o.dealer_side_won, o.levels, o.winners, o.losers) == (True, 1, (0, 2), (1, 3))
    assert not o.slam


def test_a_takeover_without_a_level_is_a_win_for_the_attackers() -> None:
    o = outcome(85)  # classic 80-119: the dealer steps down, nobody goes up
    assert (o.dealer_side_won, o.levels, o.winners) == (False, 0, (1, 3))
    assert rating_points(o) == 2  # "闲家转庄家得两分"
    assert coin_points(o) == 2  # X = Y + 2


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
    assert deltas(outcome(0), RATING, [90, 90, 90, 90]) == (8, -8, 8, -8)


def test_seed_example_all_at_400_triples() -> None:
    assert deltas(outcome(0), RATING, [400] * 4) == (12, -12, 12, -12)


def test_seed_example_special_big_slam_value_tripled() -> None:
    six = StakeRules("rating", slam_points=6)
    assert deltas(outcome(0), six, [400] * 4) == (18, -18, 18, -18)
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
    assert deltas(outcome(45), RATING, [90, None, 90, 120]) == (4, -4, 4, -4)


def test_attackers_win_ratings() -> None:
    assert deltas(outcome(165), RATING, [0, 0, 0, 0]) == (-4, 4, -4, 4)  # takeover +2


# ------------------------------------------------------------------------------ coins


def test_seed_coin_example() -> None:
    # seed 000: N = 1000, dealer side +2 → winners +2700 each, losers −3000 each
    o = outcome(20)
    assert (o.levels, coin_points(o)) == (2, 3)
    assert deltas(o, coins(1000)) == (2700, -3000, 2700, -3000)
    s = settle(result(20), StakeRules("coins", coefficient=1000), [None] * 4)
    assert (s.deltas, s.base, s.house) == ((2700, -3000, 2700, -3000), 3, 600)


def test_attackers_coin_base_is_y_plus_two() -> None:
    assert coin_points(outcome(125)) == 3  # takeover +1
    assert deltas(outcome(125), coins(10)) == (-30, 27, -30, 27)


def test_beans_winners_get_xn_minus_a_losers_pay_xn_plus_a() -> None:
    o = outcome(45)  # dealer side +1: X = 2
    assert deltas(o, beans(100, 30)) == (170, -230, 170, -230)
    s = settle(result(45), StakeRules("beans", coefficient=100, house=30), [None] * 4)
    assert s.house == 4 * 30


def test_plain_room_settles_nothing() -> None:
    assert settle(result(45), StakeRules(), [None] * 4).deltas == (0, 0, 0, 0)


# ------------------------------------------------------------------------------ sides


def test_one_against_three_stakes_for_the_missing_partners() -> None:
    o = deal_outcome(result(0, defenders=(1,)), 4)  # find a friend, dealer alone, 大光
    assert o.winners == (1,) and o.losers == (0, 2, 3)
    assert deltas(o, RATING) == (-4, 12, -4, -4)
    assert deltas(o, coins(100)) == (-400, 1080, -400, -400)


def test_two_against_three_share_the_larger_total() -> None:
    o = DealOutcome((0, 3), (1, 2, 4), False, 1)  # five players, attackers +1
    assert side_stakes(o, 3) == {0: 5, 3: 4, 1: 3, 2: 3, 4: 3}
    assert deltas(o, RATING) == (-5, 3, 3, -4, 3)


def test_three_players() -> None:
    o = deal_outcome(result(0, defenders=(2,), change=LevelChange(6, 0, False)), 3)
    assert deltas(o, coins(10)) == (-70, -70, 126)


# ------------------------------------------------------------- 反主/反底 doubling (Decision 120)


def test_beans_double_x_for_each_overturn_and_rebury_by_default() -> None:
    """Seed 001 (欢乐豆): "每次反主游戏基数*2 每次反底游戏基数*2"."""
    assert beans(100, 10).overturn_doubling is True
    o = outcome(20, stake=2)  # dealer side +2 (X = 3), one 反主
    assert deltas(o, beans(100, 10)) == (590, -610, 590, -610)  # X = 6
    o = outcome(20, stake=4)  # one 反主 and one 反底
    assert deltas(o, beans(100, 10)) == (1190, -1210, 1190, -1210)  # X = 12
    s = settle_outcome(o, beans(100, 10), [None] * 4)
    assert (s.base, s.stake) == (12, 4) and "stake x4" in s.reason


def test_coins_are_not_doubled_unless_the_room_chose_it() -> None:
    """Seed 000's 游戏币场计算规则 has no doubling ("庄家赢：X＝Y＋1"); the 欢乐 sheet states it
    for 欢乐豆 only, so a coin room doubles only when its creator asked for it."""
    o = outcome(20, stake=4)  # dealer side +2, one 反主 and one 反底
    assert coins(1000).overturn_doubling is False
    assert deltas(o, coins(1000)) == (2700, -3000, 2700, -3000)  # X = 3, as the seed
    s = settle_outcome(o, coins(1000), [None] * 4)
    assert (s.base, s.stake) == (3, 1) and "stake" not in s.reason
    assert deltas(o, coins(1000, True)) == (10800, -12000, 10800, -12000)  # X = 12
    assert settle_outcome(o, coins(1000, True), [None] * 4).reason == (
        "dealer side +2, stake x4, X 12, N 1000"
    )


def test_a_bean_room_may_turn_the_doubling_off() -> None:
    o = outcome(20, stake=4)
    assert deltas(o, beans(100, 10, False)) == (290, -310, 290, -310)  # X = 3


def test_ratings_are_not_doubled_unless_the_room_chose_it() -> None:
    """Seed 000's 【积分规则】 (rating rooms) says nothing of 反主; the option may add it."""
    o = outcome(45, stake=2)  # dealer side +1: 2 points, one 反主
    assert deltas(o, RATING) == (2, -2, 2, -2)
    doubled = StakeRules("rating", overturn_doubling=True)
    assert deltas(o, doubled) == (4, -4, 4, -4)
    assert deltas(o, doubled, [90] * 4) == (8, -8, 8, -8)  # bracket ×2 and 反主 ×2


def test_no_overturn_no_doubling_either_way() -> None:
    o = outcome(20)
    assert deltas(o, coins(1000, True)) == deltas(o, coins(1000))


# ------------------------------------------------------------ the 欢乐 game base (Decision 121)


def test_bean_x_is_the_rating_points_with_the_bracket() -> None:
    """Seed 001, 游戏基数计算规则: "闲家转庄家得两分…庄家升一级得两分…最多闲家大光时得四分"
    and, in the same rule, "如果一局游戏四个玩家积分都在80分以上，300分以下，在以上基础上该局
    游戏积分输赢翻倍…如果四个玩家积分都在300分以上，在以上基础上翻3倍"; its example: "四个玩家
    积分都是90，某局游戏庄家打闲家大光…积分为庄家＋8分" — X = 8."""
    o = outcome(0)  # dealer side 大光
    s = settle_outcome(o, beans(100, 10), [90] * 4)
    assert (s.base, s.multiplier) == (8, 2)
    assert s.deltas == (790, -810, 790, -810)  # X·N − A, X·N + A
    assert "X 8 (x2)" in s.reason
    assert deal_base(o, beans(100, 10), [400] * 4).x == 12  # "积分翻3倍为庄家＋12分"
    special = StakeRules("beans", 100, 10, slam_points=6)
    assert deal_base(o, special, [400] * 4).x == 18  # "大光积分配置为庄家＋6分…＋18分"


def test_bean_bracket_counts_every_rated_seat() -> None:
    o = outcome(45)  # dealer side +1: 2 points
    assert deal_base(o, beans(100, 10), [90, 90, 90, 79]).x == 2  # one below 80: ×1
    assert deal_base(o, beans(100, 10), [90, None, 90, 120]).x == 4  # a bot is unrated
    assert deal_base(o, beans(100, 10), [None] * 4).x == 2


def test_the_bracket_and_the_doubling_multiply() -> None:
    """Both rules raise the same 游戏基数: 大光 4, ×3 at 400, one 反主 ×2 → X = 24."""
    s = settle_outcome(outcome(0, stake=2), beans(10, 0), [400] * 4)
    assert (s.base, s.multiplier, s.stake, s.deltas) == (24, 3, 2, (240, -240, 240, -240))


def test_coins_have_no_bracket() -> None:
    """Seed 000's 游戏币 X is Y + 1 or Y + 2 only: ratings play no part."""
    o = outcome(20)
    assert deltas(o, coins(1000), [400] * 4) == deltas(o, coins(1000))
    assert settle_outcome(o, coins(1000), [400] * 4).multiplier == 1


# ------------------------------------------------------------------------------ options


def test_stake_rules_round_trip_and_refusals() -> None:
    for r in (
        StakeRules("beans", coefficient=500, house=50),
        StakeRules("coins", 100, overturn_doubling=True),
        StakeRules("beans", 100, overturn_doubling=False),
        StakeRules("rating", slam_points=6),
    ):
        assert StakeRules.from_dict(r.to_dict()) == r
    assert StakeRules.from_dict(None) == StakeRules()
    assert StakeRules.from_dict({"kind": "coins"}).to_dict() == {
        "kind": "coins",
        "coefficient": 1,
        "house": 0,
        "slam_points": None,
        "overturn_doubling": False,
    }
    assert StakeRules.from_dict({"kind": "beans"}).overturn_doubling is True
    assert StakeRules.from_dict({"kind": "plain", "overturn_doubling": False}) == StakeRules()
    for bad, words in (
        ({"kind": "gold"}, "kind must be one of"),
        ({"kind": "coins", "coefficient": 0}, "coefficient N must be"),
        ({"kind": "coins", "coefficient": "1000"}, "whole number"),
        ({"kind": "coins", "coefficient": True}, "whole number"),
        ({"kind": "coins", "house": 5}, "欢乐豆 rooms only"),
        ({"kind": "beans", "coefficient": 10, "house": 11}, "house take A must be 0..N"),
        ({"kind": "rating", "slam_points": 0}, "大光 value"),
        ({"kind": "rating", "colour": 1}, "unknown stakes option"),
        ({"kind": "coins", "overturn_doubling": "yes"}, "true or false"),
        ({"kind": "coins", "overturn_doubling": 1}, "true or false"),
        ({"kind": "plain", "overturn_doubling": True}, "plain room stakes nothing"),
    ):
        with pytest.raises(RulesetError, match=words):
            StakeRules.from_dict(bad)


def test_impossible_outcomes_are_refused() -> None:
    for args, words in (
        (((0, 2), (1, 3), True, 0), "levels must be at least 1"),
        (((0, 2), (1, 3), False, -1), "cannot be negative"),
        (((0, 2), (1, 2), False, 1), "split seats"),
        (((0, 1, 2, 3), (), True, 1), "split seats"),
        (((0, 2), (1, 4), True, 1), "split seats"),
    ):
        with pytest.raises(ValueError, match=words):
            DealOutcome(*args)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="大光"):
        DealOutcome((0, 2), (1, 3), False, 1, slam=True)
    with pytest.raises(ValueError, match="power of two"):
        DealOutcome((0, 2), (1, 3), True, 1, stake=3)
    with pytest.raises(ValueError, match="3 ratings for 4 seats"):
        settle_outcome(outcome(45), RATING, [0, 0, 0])


# ------------------------------------------------------------------------------ properties

SIDES = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.just(n), st.sets(st.integers(0, n - 1), min_size=1, max_size=n - 1).map(sorted)
    )
)
KINDS = st.sampled_from(("rating", "coins", "beans"))


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


@st.composite
def rooms(draw: st.DrawFn) -> StakeRules:
    kind = draw(KINDS)
    n = draw(st.integers(1, 10_000))
    return StakeRules(
        kind,
        n,
        draw(st.integers(0, n)) if kind == "beans" else 0,
        draw(st.one_of(st.none(), st.integers(1, 100))),
        draw(st.one_of(st.none(), st.booleans())),
    )


RATINGS = st.lists(st.one_of(st.none(), st.integers(-500, 2000)), min_size=5, max_size=5)


@given(outcomes(), RATINGS, st.booleans())
def test_ratings_are_zero_sum(o: DealOutcome, pool: list[int | None], doubling: bool) -> None:
    rules = StakeRules("rating", overturn_doubling=doubling)
    d = deltas(o, rules, pool[: o.seats])
    assert sum(d) == 0
    assert all(x > 0 for s, x in enumerate(d) if s in o.winners)
    assert all(x < 0 for s, x in enumerate(d) if s in o.losers)


@given(outcomes(), st.integers(1, 10_000), st.booleans())
def test_coin_winners_get_nine_tenths_of_what_losers_pay(
    o: DealOutcome, n: int, doubling: bool
) -> None:
    rules = coins(n * 20, doubling)  # N a multiple of 20: no rounding anywhere
    d = deltas(o, rules)
    won = sum(x for x in d if x > 0)
    lost = -sum(x for x in d if x < 0)
    assert 10 * won == 9 * lost
    stake = o.stake if doubling else 1
    assert lost == coin_points(o) * stake * n * 20 * max(len(o.dealer_side), len(o.attackers))


@given(outcomes(), st.integers(1, 10_000))
def test_coin_rounding_never_pays_out_more(o: DealOutcome, n: int) -> None:
    d = deltas(o, coins(n))
    won = sum(x for x in d if x > 0)
    lost = -sum(x for x in d if x < 0)
    assert 0 <= 9 * lost - 10 * won < 10 * len(o.winners)


@given(outcomes(), st.integers(1, 1000), st.data())
def test_beans_house_takes_a_from_everyone(o: DealOutcome, n: int, data: st.DataObject) -> None:
    a = data.draw(st.integers(0, n))
    d = deltas(o, beans(n, a))
    assert -sum(d) == a * len(d)
    zero = deltas(o, beans(n, 0))
    assert sum(zero) == 0
    assert all(x - z == -a for x, z in zip(d, zero, strict=True))
    assert all(x > 0 for s, x in enumerate(d) if s in o.winners)


@given(outcomes(), rooms(), RATINGS)
def test_every_seat_gets_exactly_one_settlement(
    o: DealOutcome, rules: StakeRules, pool: list[int | None]
) -> None:
    s = settle_outcome(o, rules, pool[: o.seats])
    assert len(s.deltas) == o.seats
    assert all(s.deltas[w] > 0 for w in o.winners)
    assert all(s.deltas[x] < 0 for x in o.losers)
    assert s.house == -sum(s.deltas) >= 0
    assert s.stake == (o.stake if rules.doubles else 1)
    assert s.base % s.stake == 0 and s.base % s.multiplier == 0
    if rules.kind == "coins":
        assert s.base == coin_points(o) * s.stake and s.multiplier == 1


def test_random_matches_settle_for_every_deal() -> None:
    for name in ("classic", "lianzhong", "three-deck", "tournament"):
        rs = PRESETS[name]
        m, _ = play_match(rs, [RandomBot(f"s{i}") for i in range(rs.players)], "stakes", deals=6)
        for d in m.history:
            for rules in (
                StakeRules("rating"),
                StakeRules("coins", coefficient=100),
                StakeRules("coins", coefficient=100, overturn_doubling=True),
                StakeRules("beans", 100, 10),
            ):
                s = settle(d.result, rules, [100] * rs.players)
                assert len(s.deltas) == rs.players
                o = deal_outcome(d.result, rs.players)
                assert all(s.deltas[w] > 0 for w in o.winners), (name, d.result)
                assert all(s.deltas[x] < 0 for x in o.losers), (name, d.result)
