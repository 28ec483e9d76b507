"""找朋友 levels per seat (RULES.md §8; seed 002 "打法变异的基本原则 (以五人三副牌为例)").

Seed 002 item 1: "抓分方捉满120分即可上台…以后每增加60分升每个玩家一级". Item 2: "当庄家找到朋友
(2打3)时，抓分方未捉满120分，庄家方升3（分配方式为2+1）级；抓分方未捉满60分，庄家方升6
（分配方式为2*2+1*2）级；抓分方未捉分，庄家方升9（2*3+1*3）级；当庄家没找到朋友时（1打4）时，
…升4级…升8级…升12级。" Items 3 (shares), 5 (J), 6 (A) as options.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.build import compiled
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.core.cards import deck, parse_cards, parse_rank, parse_trump
from shengji.core.events import DealEnded
from shengji.core.friend_levels import friend_outcome, jack_penalty_total, side_shares
from shengji.core.match import MatchState
from shengji.core.order import context_for
from shengji.core.record import GameRecord, replay
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.scoring import level_change
from shengji.core.state import DealResult

pytestmark = pytest.mark.skipif(
    compiled(), reason="fakes a DealState (SimpleNamespace), which a compiled function refuses"
)

FIVE = PRESETS["five-player"]
FF = PRESETS["find-friend"]
OPEN_FIVE = preset("five-player", {"must_play": ["A"]})  # no J stop, to read the table plainly


def idx(rs: Ruleset, rank: str) -> int:
    return rs.level_sequence.index(parse_rank(rank))


def outcome(
    rs: Ruleset,
    levels: tuple[int, ...],
    points: int,
    *,
    dealer: int = 0,
    friend: int | None = 2,
    last: int | None = None,
    winning: str = "S3",
    trump: str = "H",
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """``friend_outcome`` for a deal at the dealer's level with the attackers on ``points``."""
    level = rs.level_sequence[levels[dealer]]
    side = (dealer,) if friend is None else tuple(sorted((dealer, friend)))
    last_winner = dealer if last is None else last
    res = DealResult(
        attacker_points=points, kitty_points=0, kitty_multiplier=0, kitty_gain=0,
        last_winner=last_winner, last_winning_cards=tuple(parse_cards(winning)),
        change=level_change(points, rs), defenders=side, stake=1, failed_throws=0,
        friend=friend,
    )
    deal: Any = SimpleNamespace(
        dealer=dealer, level=level, ctx=context_for(rs, level, parse_trump(trump))
    )
    return friend_outcome(rs, levels, deal, res)


def steps(rs: Ruleset, before: tuple[int, ...], points: int, **kw: Any) -> tuple[int, ...]:
    after = outcome(rs, before, points, **kw)[0]
    return tuple(a - b for a, b in zip(after, before, strict=True))


ZERO5 = (0, 0, 0, 0, 0)


# ---------------------------------------------------------------------------- seed 002 item 2


@pytest.mark.parametrize(
    ("points", "with_friend", "alone"),
    [
        (0, (6, 0, 3, 0, 0), (12, 0, 0, 0, 0)),  # 抓分方未捉分: 9 (2*3+1*3) / 12
        (55, (4, 0, 2, 0, 0), (8, 0, 0, 0, 0)),  # 未捉满60分: 6 (2*2+1*2) / 8
        (60, (2, 0, 1, 0, 0), (4, 0, 0, 0, 0)),  # 未捉满120分: 3 (2+1) / 4
        (115, (2, 0, 1, 0, 0), (4, 0, 0, 0, 0)),
    ],
)
def test_five_player_dealer_side_table(points, with_friend, alone) -> None:
    assert steps(OPEN_FIVE, ZERO5, points, friend=2) == with_friend
    assert steps(OPEN_FIVE, ZERO5, points, friend=None) == alone
    assert sum(with_friend) == 3 * (sum(alone) // 4)  # 级差权: 3 attackers vs 4


@pytest.mark.parametrize(
    ("points", "each"), [(120, 0), (175, 0), (180, 1), (235, 1), (240, 2), (300, 3)]
)
def test_five_player_attackers_take_over_and_go_up_each(points, each) -> None:
    assert steps(OPEN_FIVE, ZERO5, points, friend=2) == (0, each, 0, each, each)
    assert steps(OPEN_FIVE, ZERO5, points, friend=None) == (0, each, each, each, each)


def test_takeover_the_first_attacker_after_the_dealer_deals() -> None:
    assert outcome(FIVE, ZERO5, 150, dealer=0, friend=1)[1] == 2
    assert outcome(FIVE, ZERO5, 150, dealer=3, friend=4)[1] == 0
    assert outcome(FIVE, ZERO5, 150, dealer=3, friend=None)[1] == 4


def test_dealer_side_keeps_the_deal() -> None:
    assert outcome(FIVE, ZERO5, 50, dealer=3, friend=1)[1] == 3  # five-player: the same dealer
    assert outcome(FF, (0, 0, 0, 0), 50, dealer=3, friend=1)[1] == 1  # 边锋: the friend (对家)
    assert outcome(FF, (0, 0, 0, 0), 50, dealer=3, friend=None)[1] == 3


# ---------------------------------------------------------------------------- item 3: shares


def test_fixed_shares_two_thirds_to_who_held_the_last_trick() -> None:
    # 靠朋友保底: the friend gets 2/3
    assert steps(OPEN_FIVE, ZERO5, 30, friend=2, last=2) == (2, 0, 4, 0, 0)
    # 自己保底 or 被抠底: the dealer gets 2/3
    assert steps(OPEN_FIVE, ZERO5, 30, friend=2, last=0) == (4, 0, 2, 0, 0)
    assert steps(OPEN_FIVE, ZERO5, 30, friend=2, last=3) == (4, 0, 2, 0, 0)


def test_elastic_shares_a_third_each_and_the_spoils() -> None:
    rs = preset("five-player", {"must_play": ["A"], "level_shares": "elastic"})
    # equal levels: the 保底 player keeps the spoils
    assert steps(rs, ZERO5, 0, friend=2, last=2) == (3, 0, 6, 0, 0)
    assert steps(rs, ZERO5, 0, friend=2, last=4) == (6, 0, 3, 0, 0)  # 被抠底: the dealer
    # the spoils go to the partner behind in level
    assert steps(rs, (3, 0, 1, 0, 0), 0, friend=2, last=0) == (3, 0, 6, 0, 0)
    assert steps(rs, (1, 0, 3, 0, 0), 0, friend=2, last=2) == (6, 0, 3, 0, 0)


def test_share_sizes() -> None:
    assert side_shares(FIVE, 1, 3, False, (0, 0)) == (2, 1)
    assert side_shares(FIVE, 2, 3, True, (0, 0)) == (2, 4)
    assert side_shares(FF, 2, 2, False, (0, 0)) == (2, 2)  # 4 players: +n each, like partners
    assert side_shares(FF, 1, 3, None, (0, 0)) == (3, 0)  # one against three: 3n


def test_four_player_find_friend_levels() -> None:
    # 边锋 table: <40 → +2 each for dealer and friend; 1 vs 3 → +6 for the dealer
    assert steps(FF, (0, 0, 0, 0), 35, friend=2) == (2, 0, 2, 0)
    assert steps(FF, (0, 0, 0, 0), 35, friend=None) == (6, 0, 0, 0)
    assert steps(FF, (0, 0, 0, 0), 130, friend=2) == (0, 1, 0, 1)
    assert steps(FF, (0, 0, 0, 0), 130, friend=None) == (0, 1, 1, 1)


# ---------------------------------------------------------------------------- must-play, the end


def test_must_play_j_stops_each_seat() -> None:
    # five-player: J and A must be played (seed 002 item 4)
    before = (idx(FIVE, "9"), 0, idx(FIVE, "8"), 0, 0)
    after = outcome(FIVE, before, 0, friend=2, last=0)[0]
    assert after[0] == idx(FIVE, "J") and after[2] == idx(FIVE, "J")


def test_winning_on_the_last_level_wins_the_match_for_the_seats_on_it() -> None:
    """Five players go on past A to the jokers (王, Decision 94): the last level is JK."""
    jk = idx(FIVE, "A") + 1
    assert FIVE.level_sequence[jk] == 13 and len(FIVE.level_sequence) == jk + 1
    assert outcome(FIVE, (jk, 0, jk, 0, 0), 50, friend=2)[2] == (0, 2)
    assert outcome(FIVE, (jk, 0, 3, 0, 0), 50, friend=2)[2] == (0,)
    assert outcome(FIVE, (3, 0, jk, 0, 0), 50, friend=2)[2] == ()  # played at the dealer's 5
    assert outcome(FIVE, (jk, 0, jk, 0, 0), 130, friend=2)[2] == ()
    a = idx(FIVE, "A")
    assert outcome(FIVE, (a, 0, a, 0, 0), 50, friend=2)[2] == ()  # A is no longer the end
    old = preset("five-player", {"level_sequence": [*"23456789", "10", "J", "Q", "K", "A"],
                                 "must_play": ["J", "A"]})
    assert outcome(old, (a, 0, a, 0, 0), 50, friend=2)[2] == (0, 2)


# ---------------------------------------------------------------------------- items 5, 6


@pytest.mark.parametrize(
    ("winning", "total"),
    # on J every J is trump; with hearts trump HJ HJ SJ SJ and HA HA SJ SJ are tractors
    [("SJ", 6), ("SJ SJ", 12), ("SJ SJ SJ", 18), ("HJ HJ SJ SJ", 24), ("HA HA SJ SJ", 24),
     ("HJ HJ HJ SJ SJ SJ", 36)],
)
def test_jack_penalty_sizes(winning: str, total: int) -> None:
    from shengji.core.units import decompose

    ctx = context_for(FIVE, parse_rank("J"), parse_trump("H"))
    (u,) = decompose(parse_cards(winning), ctx)
    assert jack_penalty_total(u.width, u.length) == total


def test_jack_penalty_dealer_four_friend_two() -> None:
    j = idx(FIVE, "J")
    before = (j, 5, 7, 5, 5)
    after = outcome(FIVE, before, 150, friend=2, last=3, winning="DJ")[0]
    assert after == (j - 4, 5, 7 - 2, 5, 5)  # takeover +0 for the attackers at 150
    after = outcome(FIVE, before, 150, friend=2, last=3, winning="DJ DJ")[0]
    assert after == (j - 8, 5, 7 - 4, 5, 5)


def test_jack_penalty_runs_over_to_the_attackers_the_capturer_last() -> None:
    j = idx(FIVE, "J")
    # triple J: 18 = dealer 12 + friend 6; the dealer loses 9 (to 2), 3 more to the friend
    after = outcome(FIVE, (j, 4, 2, 6, 1), 150, friend=2, last=3, winning="DJ DJ DJ")[0]
    # friend: 6 + 3 = 9 but on 4 (index 2): 2 lost, 7 left → attackers but the capturer,
    # highest first: seat 1 (index 4) → 0, seat 4 (1) → 0, then the capturer 3 (6 → 4)
    assert after == (0, 0, 0, 4, 0)


def test_jack_penalty_needs_a_takeover_a_capture_and_a_j() -> None:
    j = idx(FIVE, "J")
    before = (j, 5, 7, 5, 5)
    assert outcome(FIVE, before, 150, friend=2, last=3, winning="DQ")[0] == before
    assert outcome(FIVE, before, 150, friend=2, last=2, winning="DJ")[0] == before  # not captured
    assert outcome(FIVE, before, 100, friend=2, last=3, winning="DJ")[0] != before  # dealer wins
    off = preset("five-player", {"jack_kitty_penalty": False})
    assert outcome(off, before, 150, friend=2, last=3, winning="DJ")[0] == before


def test_ace_penalty_dealer_back_to_j_friend_down_three() -> None:
    a, j = idx(FIVE, "A"), idx(FIVE, "J")
    before = (a, 5, 7, 5, 8)
    after = outcome(FIVE, before, 130, friend=2, last=3, winning="CA")[0]
    assert after == (j, 5, 4, 5, 8)
    # the friend on 3 (index 1): 1 level, 2 more to the attacker highest in level (seat 4)
    after = outcome(FIVE, (a, 5, 1, 5, 8), 130, friend=2, last=3, winning="CA")[0]
    assert after == (j, 5, 0, 5, 6)
    # no A in the winning play, or not captured: nothing
    assert outcome(FIVE, before, 130, friend=2, last=3, winning="CK")[0] == before


# ---------------------------------------------------------------------------- through a match


def test_match_levels_are_per_seat_and_the_deal_is_at_the_dealers_rank() -> None:
    m = MatchState.new(FIVE, 3)
    assert m.levels == ZERO5 and m.team_levels == ZERO5
    assert m.level_rank(4) == m.seat_rank(4) == parse_rank("2")
    assert m.winner is None and m.winners == ()


# ---------------------------------------------------------------------------- properties

LEVEL = st.integers(min_value=0, max_value=13)


@given(
    base=st.integers(min_value=0, max_value=4),
    attackers=st.integers(min_value=1, max_value=4),
    shares=st.sampled_from(["equal", "fixed", "elastic"]),
    holder=st.sampled_from([None, False, True]),
    d=LEVEL,
    f=LEVEL,
)
def test_shares_add_up_to_one_level_per_attacker(base, attackers, shares, holder, d, f) -> None:
    rs = preset("five-player", {"level_shares": shares})
    dealer, friend = side_shares(rs, base, attackers, holder, (d, f))
    assert dealer + friend == base * attackers and dealer >= 0 and friend >= 0
    if holder is None:
        assert friend == 0
    elif shares == "fixed":
        assert (friend >= dealer) == holder or dealer == friend


@given(
    levels=st.lists(LEVEL, min_size=5, max_size=5),
    winning=st.sampled_from(["DJ", "DJ DJ", "DJ DJ DJ", "HJ HJ SJ SJ", "HJ HJ HJ SJ SJ SJ"]),
    friend=st.sampled_from([None, 1, 2, 3, 4]),
    capturer=st.integers(min_value=1, max_value=4),
)
@settings(max_examples=150)
def test_jack_penalty_conserves_levels(levels, winning, friend, capturer) -> None:
    """Nobody goes below 2; the dealer loses its 2/3 (or all it can); the levels taken add
    up to the total unless every seat the rest could pass to is already on 2; the attackers
    lose only once the friend (a lone dealer) is on 2."""
    if friend == capturer:
        return
    before = (idx(FIVE, "J"), *levels[1:])
    after = outcome(FIVE, before, 125, friend=friend, last=capturer, winning=winning)[0]
    assert min(after) >= 0
    lost = [b - a for a, b in zip(after, before, strict=True)]
    assert all(x >= 0 for x in lost)
    from shengji.core.units import decompose

    ctx = context_for(FIVE, parse_rank("J"), parse_trump("H"))
    total = max(jack_penalty_total(u.width, u.length) for u in decompose(parse_cards(winning), ctx))
    dealer_part = total - total // 3 if friend is not None else total
    assert lost[0] == min(dealer_part, before[0])
    assert sum(lost) <= total
    if sum(lost) < total:
        assert all(after[s] == 0 for s in range(1, 5))
    side = [0] if friend is None else [0, friend]
    if any(lost[s] for s in range(5) if s not in side):
        assert after[side[-1]] == 0  # the friend (or a lone dealer) is already on 2


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_random_find_friend_matches_finish_and_replay(seed: int) -> None:
    check_match(FF, [RandomBot(f"{seed}/{i}") for i in range(4)], seed)


@pytest.mark.parametrize("seed", [1])
def test_five_player_matches_finish_and_replay(seed: int) -> None:
    """A whole five-player match (to JK, Decision 94) finishes and replays; seeded, since a
    match runs 80 to several hundred deals (Decision 99)."""
    check_match(FIVE, [HeuristicBot(f"{seed}/{i}") for i in range(5)], seed)


def check_match(rs: Ruleset, bots: list[Any], seed: int) -> None:
    pack = Counter(deck(rs.decks))

    def conserve(_a: Any, m: MatchState, events: list[Any]) -> None:
        if any(isinstance(e, DealEnded) for e in events):
            done = m.history[-1]
            assert done.result.attacker_points % 5 == 0
            assert sum(done.levels_after) >= 0 and min(done.levels_after) >= 0
            deal = m.deal if m.is_over else None
            if deal is not None:
                played = Counter(c for t in deal.tricks for _, cs in t.plays for c in cs)
                assert played + Counter(deal.kitty) == pack

    m, record = play_match(rs, bots, f"whole.{seed}", deals=400, on_action=conserve)
    assert m.is_over, "a match should end"
    final = replay(GameRecord.from_json(record.to_json()))
    assert final.levels == m.levels and final.winners == m.winners
    assert final.history == m.history
    last = m.history[-1]
    assert last.levels_before[last.dealer] == len(rs.level_sequence) - 1
    assert set(m.winners) <= set(last.result.defenders)


def test_a_friend_leaves_a_must_play_rank_only_from_a_deal_played_there() -> None:
    j = idx(FIVE, "J")
    lost = preset("five-player", {"level_transfer": "off"})  # wasted levels are lost
    # the dealer on 5, the friend on J: the friend stays on J (it has not played J)
    after = outcome(lost, (3, 0, j, 0, 0), 30, friend=2, last=0)[0]
    assert after[0] == 3 + 4 and after[2] == j
    # both on J: both go on
    after = outcome(lost, (j, 0, j, 0, 0), 30, friend=2, last=0)[0]
    assert after[0] == j + 3 and after[2] == j + 2  # 4 and 2, A stops the dealer at A
    # 级数不浪费 (five-player): the attackers are on 2, so the friend's 2 go to the dealer,
    # who stops on J; the dealer's 1 past A goes to the friend, who stops on A
    assert outcome(FIVE, (3, 0, j, 0, 0), 30, friend=2, last=0)[0][:3] == (j, 0, j)
    assert outcome(FIVE, (j, 0, j, 0, 0), 30, friend=2, last=0)[0][:3] == (j + 3, 0, j + 3)
