"""The judge's ``stakes`` op: the seeds' worked examples, the room's 反主/反底 option, unequal
sides, every refusal, and properties over random requests (RULES.md §9; rules.md 75–87,
120–129)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.core.ruleset import PRESETS
from shengji.core.stakes import DealOutcome, StakeRules, settle_outcome
from shengji.judge.oracle import answer, answer_line

DEAL = {"dealer_side": [0, 2], "winner": "dealer"}


def ask(stakes: dict[str, Any], **req: Any) -> dict[str, Any]:
    return answer({"id": "s", "op": "stakes", "stakes": stakes, **DEAL, **req})


# ------------------------------------------------------------------------------ the seeds


def test_seed_coin_example() -> None:
    """Seed 000: "N（房间系数）＝1000，庄家胜利，升2级，则庄家奖励的游戏币＝（2＋1）×1000×0.9＝2700
    游戏币 闲家消耗的游戏币＝（2＋1）×1000＝3000游戏币"."""
    a = ask({"kind": "coins", "coefficient": 1000}, levels=2, balances=[10_000] * 4)
    assert a == {
        "id": "s",
        "kind": "coins",
        "winners": [0, 2],
        "losers": [1, 3],
        "base": 3,
        "multiplier": 1,
        "stake": 1,
        "overturn_doubling": False,
        "house": 600,
        "deltas": [2700, -3000, 2700, -3000],
        "after": [12_700, 7000, 12_700, 7000],
        "reason": "dealer side +2, X 3, N 1000",
    }


@pytest.mark.parametrize(
    ("ratings", "slam_points", "points"),
    [
        ([90] * 4, None, 8),  # "四个玩家积分都是90…庄家＋8分，闲家－8分"
        ([400] * 4, None, 12),  # "如果四个玩家都是400分…庄家＋12分"
        ([400] * 4, 6, 18),  # "大光积分配置为庄家＋6分…翻三倍结果为庄家＋18分"
        ([0] * 4, None, 4),  # "最多闲家大光时得四分"
    ],
)
def test_seed_rating_examples(ratings: list[int], slam_points: int | None, points: int) -> None:
    a = ask({"kind": "rating", "slam_points": slam_points}, levels=3, slam=True, ratings=ratings)
    assert a["deltas"] == [points, -points, points, -points]
    assert a["after"] == [r + d for r, d in zip(ratings, a["deltas"], strict=True)]


def test_beans_x_is_the_game_base_with_the_bracket_and_the_doubling() -> None:
    """Seed 001's 游戏基数 (the points and the ×2/×3 bracket) times 2 per 反主/反底;
    "失败玩家的欢乐豆消耗：X×N+A 胜利玩家的欢乐豆奖励：X×N-A"."""
    beans = {"kind": "beans", "coefficient": 100, "house": 10}
    a = ask(beans, levels=3, slam=True, ratings=[90] * 4, overturns=1)
    assert (a["base"], a["multiplier"], a["stake"], a["overturn_doubling"]) == (16, 2, 2, True)
    assert a["deltas"] == [1590, -1610, 1590, -1610] and a["house"] == 40
    assert a["after"] == [None] * 4  # no balances given


def test_coins_double_only_when_the_room_chose_it() -> None:
    coins = {"kind": "coins", "coefficient": 10}
    assert ask(coins, levels=1, overturns=2)["deltas"] == [18, -20, 18, -20]
    doubled = ask({**coins, "overturn_doubling": True}, levels=1, overturns=2)
    assert (doubled["deltas"], doubled["stake"]) == ([72, -80, 72, -80], 4)


def test_a_takeover_without_a_level_is_the_attackers_win() -> None:
    """ "闲家转庄家得两分": winner attackers, levels 0 → 2 points; coins X = 0 + 2."""
    a = ask({"kind": "rating"}, winner="attackers", levels=0)
    assert (a["winners"], a["deltas"]) == ([1, 3], [-2, 2, -2, 2])
    assert ask({"kind": "coins"}, winner="attackers", levels=0)["base"] == 2


def test_plain_room_settles_nothing() -> None:
    a = ask({"kind": "plain"}, levels=1, balances=[5, None, 5, 5])
    assert (a["deltas"], a["after"], a["base"]) == ([0] * 4, [5, None, 5, 5], 0)


# ------------------------------------------------------------------------------ sides


def test_find_friend_dealer_alone_against_three() -> None:
    a = answer(
        {
            "op": "stakes",
            "preset": "find-friend",
            "stakes": {"kind": "coins", "coefficient": 100},
            "dealer_side": [1],
            "winner": "dealer",
            "levels": 3,
            "slam": True,
        }
    )
    assert (a["winners"], a["deltas"]) == ([1], [-400, 1080, -400, -400])


def test_five_players_two_against_three() -> None:
    a = answer(
        {
            "op": "stakes",
            "preset": "five-player",
            "stakes": {"kind": "rating"},
            "dealer_side": [0, 3],
            "winner": "attackers",
            "levels": 1,
        }
    )
    assert a["deltas"] == [-5, 3, 3, -4, 3] and sum(a["deltas"]) == 0


def test_three_players_dealer_alone() -> None:
    a = answer(
        {
            "op": "stakes",
            "preset": "three-player",
            "stakes": {"kind": "coins", "coefficient": 10},
            "dealer_side": [2],
            "winner": "dealer",
            "levels": 6,
            "slam": True,
        }
    )
    assert a["deltas"] == [-70, -70, 126]


# ------------------------------------------------------------------------------ errors

COINS = {"kind": "coins"}
BAD: list[tuple[dict[str, Any], str]] = [
    ({"levels": 1}, "missing field 'stakes'"),
    ({"stakes": "coins", "levels": 1}, "stakes must be an object"),
    ({"stakes": {"kind": "gold"}, "levels": 1}, "stakes kind must be one of"),
    ({"stakes": {"kind": "coins", "house": 5}, "levels": 1}, "欢乐豆 rooms only"),
    ({"stakes": {"kind": "coins", "overturn_doubling": 1}, "levels": 1}, "true or false"),
    ({"stakes": {"kind": "plain", "overturn_doubling": True}, "levels": 1}, "plain room"),
    ({"stakes": COINS}, "missing field 'levels'"),
    ({"stakes": COINS, "levels": "2"}, "levels must be a whole number 0..99"),
    ({"stakes": COINS, "levels": True}, "levels must be a whole number"),
    ({"stakes": COINS, "levels": 100}, "levels must be a whole number 0..99"),
    ({"stakes": COINS, "levels": 0}, "levels must be at least 1"),
    ({"stakes": COINS, "levels": 1, "winner": "us"}, "winner must be 'dealer' or 'attackers'"),
    ({"stakes": COINS, "levels": 0, "winner": "attackers", "slam": True}, "win of the dealer"),
    ({"stakes": COINS, "levels": 1, "slam": "yes"}, "slam must be true or false"),
    ({"stakes": COINS, "levels": 1, "overturns": -1}, "overturns must be a whole number 0..30"),
    ({"stakes": COINS, "levels": 1, "overturns": 31}, "overturns must be a whole number 0..30"),
    ({"stakes": COINS, "levels": 1, "dealer_side": None}, "missing field 'dealer_side'"),
    ({"stakes": COINS, "levels": 1, "dealer_side": []}, "distinct seats 0..3"),
    ({"stakes": COINS, "levels": 1, "dealer_side": [0, 0]}, "distinct seats 0..3"),
    ({"stakes": COINS, "levels": 1, "dealer_side": [0, 4]}, "distinct seats 0..3"),
    ({"stakes": COINS, "levels": 1, "dealer_side": "0 2"}, "distinct seats 0..3"),
    ({"stakes": COINS, "levels": 1, "dealer_side": [1]}, "a whole team, [1, 3]"),
    ({"stakes": COINS, "levels": 1, "ratings": [90, 90, 90]}, "3 entries for 4 seats"),
    ({"stakes": COINS, "levels": 1, "ratings": [90, "90", 90, 90]}, "ratings must be a list"),
    ({"stakes": COINS, "levels": 1, "balances": {"0": 5}}, "balances must be a list"),
    ({"stakes": COINS, "levels": 1, "balances": [10**13, 0, 0, 0]}, "balances must be a list"),
    (
        {"stakes": {"kind": "rating"}, "levels": 1, "ratings": [1] * 4, "balances": [2] * 4},
        "a rating room's balances are the ratings",
    ),
    ({"stakes": COINS, "levels": 1, "colour": "red"}, "unknown field(s) for stakes: ['colour']"),
    ({"stakes": COINS, "levels": 1, "preset": "nope"}, "unknown preset"),
]


@pytest.mark.parametrize(("req", "words"), BAD)
def test_bad_requests_are_refused_with_a_clear_error(req: dict[str, Any], words: str) -> None:
    a = answer({"id": 9, "op": "stakes", **DEAL, **req})
    assert set(a) == {"id", "error"} and a["id"] == 9
    assert words in a["error"], a["error"]


@pytest.mark.parametrize(
    ("preset", "side", "words"),
    [
        ("three-player", [0, 1], "the dealer plays alone"),
        ("find-friend", [0, 1, 2], "at most one friend"),
        ("five-player", [0, 1, 2], "at most one friend"),
    ],
)
def test_sides_the_partnership_cannot_make_are_refused(
    preset: str, side: list[int], words: str
) -> None:
    a = answer(
        {
            "op": "stakes",
            "preset": preset,
            "stakes": COINS,
            "dealer_side": side,
            "winner": "dealer",
            "levels": 1,
        }
    )
    assert words in a["error"]


def test_the_op_over_a_json_line() -> None:
    line = json.dumps({"id": 3, "op": "stakes", "stakes": COINS, **DEAL, "levels": 1})
    assert json.loads(answer_line(line))["deltas"] == [1, -2, 1, -2]


# ------------------------------------------------------------------------------ properties

PRESET_NAMES = st.sampled_from(("classic", "find-friend", "five-player", "three-player"))


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A valid stakes request for a random preset, side, outcome and room."""
    name = draw(PRESET_NAMES)
    rs = PRESETS[name]
    n = rs.players
    if rs.partnership == "fixed":
        side = list(range(draw(st.integers(0, 1)), n, 2))
    elif rs.partnership == "bidding":
        side = [draw(st.integers(0, n - 1))]
    else:
        side = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2)))
    won = draw(st.booleans())
    kind = draw(st.sampled_from(("plain", "rating", "coins", "beans")))
    coefficient = draw(st.integers(1, 10_000))
    stakes: dict[str, Any] = {"kind": kind, "coefficient": coefficient}
    if kind == "beans":
        stakes["house"] = draw(st.integers(0, coefficient))
    if kind != "plain":
        stakes["overturn_doubling"] = draw(st.one_of(st.none(), st.booleans()))
        stakes["slam_points"] = draw(st.one_of(st.none(), st.integers(1, 100)))
    values = st.one_of(st.none(), st.integers(-1000, 1000))
    return {
        "op": "stakes",
        "preset": name,
        "stakes": stakes,
        "dealer_side": side,
        "winner": "dealer" if won else "attackers",
        "levels": draw(st.integers(1 if won else 0, 12)),
        "slam": won and draw(st.booleans()),
        "overturns": draw(st.integers(0, 5)),
        "ratings": draw(st.lists(values, min_size=n, max_size=n)),
        "balances": None if kind == "rating" else draw(st.lists(values, min_size=n, max_size=n)),
    }


@given(requests())
def test_every_seat_gets_exactly_one_settlement(req: dict[str, Any]) -> None:
    a = answer(req)
    assert "error" not in a, a
    n = PRESETS[req["preset"]].players
    assert len(a["deltas"]) == len(a["after"]) == n
    assert sorted(a["winners"] + a["losers"]) == list(range(n))
    kind = req["stakes"]["kind"]
    if kind != "plain":
        assert all(a["deltas"][s] > 0 for s in a["winners"])
        assert all(a["deltas"][s] < 0 for s in a["losers"])
    assert a["house"] == -sum(a["deltas"]) >= 0
    if kind in ("rating", "plain"):
        assert sum(a["deltas"]) == 0  # ratings are zero-sum
    balances = req["ratings"] if kind == "rating" else req["balances"]
    for b, d, after in zip(balances, a["deltas"], a["after"], strict=True):
        assert after == (None if b is None else b + d)


@given(requests())
def test_the_judge_answers_what_core_settles(req: dict[str, Any]) -> None:
    """The op is a thin reading of core.stakes, no logic of its own."""
    n = PRESETS[req["preset"]].players
    side = tuple(req["dealer_side"])
    o = DealOutcome(
        side,
        tuple(s for s in range(n) if s not in side),
        req["winner"] == "dealer",
        req["levels"],
        req["slam"],
        2 ** req["overturns"],
    )
    s = settle_outcome(o, StakeRules.from_dict(req["stakes"]), req["ratings"])
    a = answer(req)
    assert (a["deltas"], a["base"], a["multiplier"], a["stake"]) == (
        list(s.deltas),
        s.base,
        s.multiplier,
        s.stake,
    )


@given(requests(), st.integers(1, 500))
def test_coin_winners_get_nine_tenths(req: dict[str, Any], n: int) -> None:
    req["stakes"] = {"kind": "coins", "coefficient": 20 * n}  # no rounding
    a = answer(req)
    won = sum(d for d in a["deltas"] if d > 0)
    lost = -sum(d for d in a["deltas"] if d < 0)
    assert 10 * won == 9 * lost


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**15), 10**15),
    st.text(max_size=5),
    st.lists(st.one_of(st.none(), st.integers(-5, 5), st.booleans(), st.text(max_size=2))),
    st.dictionaries(st.sampled_from(("kind", "coefficient", "house", "x")), st.integers(0, 5)),
)


@given(
    requests(),
    st.sampled_from(
        sorted(
            {
                "stakes",
                "dealer_side",
                "winner",
                "levels",
                "slam",
                "overturns",
                "ratings",
                "balances",
            }
        )
    ),
    JUNK,
)
def test_any_value_in_any_field_gets_an_answer_or_a_clear_error(
    req: dict[str, Any], key: str, junk: Any
) -> None:
    req[key] = junk
    a = answer(req)
    assert ("error" in a) != ("deltas" in a)
    if "error" in a:
        assert set(a) == {"error"} and a["error"]
