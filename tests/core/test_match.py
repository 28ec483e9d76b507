"""A match of many deals (RULES.md §5, §7): level advance with must-play stops, dealer
rotation, the end of the match on A, the tournament J reset.

To reach exact point totals, a seeded random deal is stopped one play before its end and the
attackers' points on that state are set so that the last play lands on the wanted total; the
last play then goes through ``MatchState.apply`` like any other.
"""

from __future__ import annotations

import copy

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Deal, Pass
from shengji.core.cards import RANKS, parse_rank
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import DealEnded, DealStarted, Declared, TrumpFixed
from shengji.core.match import MatchState, team_of
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.scoring import advance
from tests.core.dealkit import Step, find_deal, random_deal

CLASSIC = PRESETS["classic"]
TOURNAMENT = PRESETS["tournament"]


def idx(rs: Ruleset, rank: str) -> int:
    """Index of a rank in the ruleset's level sequence."""
    return rs.level_sequence.index(parse_rank(rank))


def expected_advance(rs: Ruleset, index: int, steps: int, as_dealer: bool = True) -> int:
    """RULES.md §7, written independently: go up ``steps`` ranks along the sequence, but stop
    on the first must-play rank passed on the way; never beyond the last rank. A must-play
    rank is left only by winning there as the dealer side (attackers taking over stay)."""
    seq = rs.level_sequence
    if not as_dealer and seq[index] in rs.must_play:
        return index
    i = index
    for _ in range(steps):
        if i == len(seq) - 1:
            break
        i += 1
        if seq[i] in rs.must_play:
            break
    return i


# ---------------------------------------------------------------------------- advance


@pytest.mark.parametrize(
    ("start", "steps", "end"),
    [("2", 1, "3"), ("2", 3, "5"), ("10", 2, "Q"), ("Q", 3, "A"), ("A", 2, "A"), ("K", 0, "K")],
)
def test_classic_levels_go_up_and_stop_at_A(start, steps, end):
    assert advance(CLASSIC, idx(CLASSIC, start), steps) == idx(CLASSIC, end)


@pytest.mark.parametrize(
    ("start", "steps", "end"),
    [
        ("3", 3, "5"),  # must play 5: stop there
        ("3", 2, "5"),  # landing on it exactly
        ("5", 3, "8"),  # starting on it: go past
        ("9", 3, "10"),
        ("J", 3, "A"),
        ("4", 1, "5"),
    ],
)
def test_must_play_ranks_cannot_be_skipped(start, steps, end):
    rs = preset("classic", {"must_play": ["5", "10", "A"]})
    assert advance(rs, idx(rs, start), steps) == idx(rs, end)


@pytest.mark.parametrize(
    ("start", "steps", "end"),
    [("2", 1, "5"), ("2", 3, "J"), ("5", 2, "J"), ("J", 3, "A"), ("K", 3, "A"), ("Q", 1, "K")],
)
def test_tournament_sequence(start, steps, end):
    assert TOURNAMENT.level_sequence == tuple(
        parse_rank(r) for r in ("2", "5", "10", "J", "Q", "K", "A")
    )
    assert set(TOURNAMENT.must_play) == {parse_rank("2"), parse_rank("A")}
    assert advance(TOURNAMENT, idx(TOURNAMENT, start), steps) == idx(TOURNAMENT, end)


def test_advance_agrees_with_the_rules_everywhere():
    for rs in (
        CLASSIC,
        TOURNAMENT,
        preset("classic", {"must_play": ["5", "10", "A"]}),
        preset("tournament", {"must_play": ["2", "J", "A"]}),
    ):
        for i in range(len(rs.level_sequence)):
            for steps in range(5):
                for dealer in (True, False):
                    assert advance(rs, i, steps, as_dealer=dealer) == expected_advance(
                        rs, i, steps, dealer
                    ), (i, steps, dealer)


# ---------------------------------------------------------------------------- one deal scored


def end_of_deal(rs: Ruleset, dealer: int, level: str, seed: int = 0, pred=None) -> Step:
    """The last step of a seeded random deal (a later seed if ``pred`` refuses one)."""
    lvl = parse_rank(level)
    if pred is None:
        steps = random_deal(rs, seed, level=lvl, dealer=dealer)
    else:
        steps = find_deal(rs, pred, level=lvl, dealer=dealer)
    last = steps[-1]
    assert last.after.is_over and not last.before.is_over
    return last


def score(
    rs: Ruleset,
    team_levels: tuple[int, int],
    dealer: int,
    points: int,
    seed: int = 0,
    pred=None,
):
    """A match whose current deal ends with exactly ``points`` for the attackers."""
    level = RANKS[rs.level_sequence[team_levels[team_of(dealer)]]]
    last = end_of_deal(rs, dealer, level, seed, pred)
    delta = last.after.attacker_points - last.before.attacker_points
    pre = copy.copy(last.before)
    pre.attacker_points = points - delta
    levels = tuple(team_levels[team_of(s)] for s in range(rs.players))
    m = MatchState(rs, "m", levels, dealer, pre)
    m2, events = m.apply(last.action)
    assert m2.history[-1].result.attacker_points == points
    return m2, events


@pytest.mark.parametrize(
    ("points", "team0"),
    [(0, "5"), (5, "4"), (35, "4"), (40, "3"), (75, "3")],
)
def test_dealer_side_goes_up_and_the_partner_deals_next(points, team0):
    m, events = score(CLASSIC, (0, 0), dealer=0, points=points)
    assert m.team_levels == (idx(CLASSIC, team0), 0)
    assert m.dealer == 2 and m.deal.dealer == 2
    assert m.deal.level == parse_rank(team0) and m.deal.deal_no == 1
    assert m.deal.phase is Phase.DEALING and m.winner is None
    assert events[-1] == DealStarted(None, 2, parse_rank(team0), 1)
    assert isinstance(events[-2], DealEnded)
    (summary,) = m.history
    assert summary.dealer == 0 and summary.level == parse_rank("2")
    assert summary.team_levels_after == m.team_levels


@pytest.mark.parametrize(
    ("points", "team1"),
    [(80, "2"), (115, "2"), (120, "3"), (160, "4"), (200, "5"), (240, "6")],
)
def test_attackers_take_over_and_the_old_dealers_next_seat_deals(points, team1):
    m, _ = score(CLASSIC, (idx(CLASSIC, "9"), 0), dealer=2, points=points)
    assert m.team_levels == (idx(CLASSIC, "9"), idx(CLASSIC, team1))
    assert m.dealer == 3
    assert m.deal.level == parse_rank(team1)


def test_dealer_side_takeover_wraps_round_the_table():
    m, _ = score(CLASSIC, (0, 0), dealer=3, points=120)
    assert m.dealer == 0 and m.team_levels == (1, 0)


def test_same_dealer_rotation_keeps_the_dealer():
    rs = preset("classic", {"dealer_rotation": "same"})
    m, _ = score(rs, (0, 0), dealer=1, points=30)
    assert m.dealer == 1 and m.team_levels == (0, 2)
    m, _ = score(rs, (0, 0), dealer=1, points=90)
    assert m.dealer == 2


def test_must_play_stops_a_match_level():
    rs = preset("classic", {"must_play": ["5", "A"]})
    m, _ = score(rs, (idx(rs, "3"), 0), dealer=0, points=0)
    assert m.team_levels[0] == idx(rs, "5")


@pytest.mark.parametrize(
    ("points", "levels"),
    [(0, 3), (5, 2), (35, 2), (40, 1), (75, 1), (80, 0), (115, 0), (120, 2), (145, 2),
     (150, 3), (250, 3)],
)
def test_tournament_level_table(points, levels):
    five = idx(TOURNAMENT, "5")
    m, _ = score(TOURNAMENT, (idx(TOURNAMENT, "2"), five), dealer=0, points=points)
    res = m.history[-1].result
    if points < 80:
        assert m.team_levels == (levels, five) and m.dealer == 2
        assert not res.change.attackers_take_over
    else:
        assert res.change.attackers_take_over
        assert m.team_levels == (0, five + levels) and m.dealer == 1


@pytest.mark.parametrize("points", [120, 150])
def test_attackers_on_a_must_play_rank_stay_on_it_when_they_take_over(points):
    m, _ = score(TOURNAMENT, (idx(TOURNAMENT, "5"), 0), dealer=0, points=points)
    assert m.team_levels == (idx(TOURNAMENT, "5"), 0)
    assert m.dealer == 1 and m.deal.level == parse_rank("2")
    m, _ = score(CLASSIC, (0, 12), dealer=0, points=200)
    assert m.team_levels == (0, 12) and m.winner is None


# ---------------------------------------------------------------------------- the end


def test_dealer_side_winning_a_deal_on_A_wins_the_match():
    m, _ = score(CLASSIC, (12, 7), dealer=2, points=45)
    assert m.winner == 0 and m.is_over and m.to_act is None
    assert m.team_levels[0] == 12
    assert m.deal.phase is Phase.DONE
    assert len(m.history) == 1
    with pytest.raises(IllegalAction) as info:
        m.apply(Deal())
    assert info.value.reason == Reason.WRONG_PHASE
    with pytest.raises(IllegalAction):
        m.apply(Pass(0))


def test_losing_the_deal_on_A_does_not_end_the_match():
    m, _ = score(CLASSIC, (12, 7), dealer=0, points=100)
    assert m.winner is None and not m.is_over
    assert m.dealer == 1 and m.deal.level == parse_rank("9")


def test_attackers_reaching_A_do_not_win_yet():
    m, _ = score(CLASSIC, (0, 11), dealer=0, points=200)
    assert m.winner is None
    assert m.team_levels == (0, 12) and m.dealer == 1 and m.deal.level == parse_rank("A")


# ---------------------------------------------------------------------------- tournament J


def _captured_with(rank: int, want: bool):
    def pred(steps: list[Step]) -> bool:
        res = steps[-1].after.result
        with_rank = any(c < 52 and c % 13 == rank for c in res.last_winning_cards)
        return res.kitty_captured and with_rank == want

    return pred


J = parse_rank("J")


def test_tournament_dealer_side_on_J_drops_to_2_when_a_J_captures_the_kitty():
    jx = idx(TOURNAMENT, "J")
    m, _ = score(TOURNAMENT, (jx, idx(TOURNAMENT, "5")), dealer=0, points=125,
                 pred=_captured_with(J, True))
    res = m.history[-1].result
    assert res.kitty_captured
    assert m.team_levels == (0, idx(TOURNAMENT, "J"))  # attackers 5 → +2 → J
    assert m.dealer == 1


def test_tournament_J_reset_even_when_the_dealer_side_keeps_the_deal():
    jx = idx(TOURNAMENT, "J")
    m, _ = score(TOURNAMENT, (jx, 0), dealer=0, points=45, pred=_captured_with(J, True))
    assert m.team_levels == (0, 0)


def test_no_J_reset_without_a_J_in_the_capturing_play():
    jx = idx(TOURNAMENT, "J")
    m, _ = score(TOURNAMENT, (jx, 0), dealer=0, points=45, pred=_captured_with(J, False))
    assert m.team_levels == (idx(TOURNAMENT, "Q"), 0)


def test_no_J_reset_in_classic():
    jx = idx(CLASSIC, "J")
    m, _ = score(CLASSIC, (jx, 0), dealer=0, points=45, pred=_captured_with(J, True))
    assert m.team_levels == (idx(CLASSIC, "Q"), 0)


# ---------------------------------------------------------------------------- whole matches


def replay_levels(rs: Ruleset, m: MatchState) -> None:
    """Check every deal of a finished match against RULES.md §5/§7, computed here."""
    levels = [0, 0]
    dealer = None
    last = len(rs.level_sequence) - 1
    for i, summary in enumerate(m.history):
        res = summary.result
        if dealer is not None:
            assert summary.dealer == dealer
        d_team, a_team = summary.dealer % 2, 1 - summary.dealer % 2
        assert summary.level == rs.level_sequence[levels[d_team]]
        ended = False
        if res.change.attackers_take_over:
            levels[a_team] = expected_advance(
                rs, levels[a_team], res.change.attacker_levels, as_dealer=False
            )
            dealer = (summary.dealer + 1) % 4
        else:
            ended = levels[d_team] == last
            levels[d_team] = expected_advance(rs, levels[d_team], res.change.defender_levels)
            dealer = (summary.dealer + 2) % 4
        if (
            rs.jack_kitty_reset
            and summary.level == J
            and res.kitty_captured
            and any(c < 52 and c % 13 == J for c in res.last_winning_cards)
        ):
            levels[d_team] = 0
        assert summary.team_levels_after == tuple(levels)
        if ended:
            assert i == len(m.history) - 1 and m.winner == d_team
    if m.winner is None:
        assert m.dealer == dealer


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("classic", {"level_sequence": ["Q", "K", "A"]}),
        ("tournament", {"level_sequence": ["2", "J", "A"]}),
        ("one-deck", {"level_sequence": ["10", "J", "Q", "K", "A"]}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_matches_follow_the_level_rules_to_the_end(name, options, seed):
    rs = preset(name, options)
    bots = [RandomBot(f"{seed}/{p}") for p in range(4)]
    m, record = play_match(rs, bots, seed=seed, deals=60)
    assert m.history, "no deal finished"
    replay_levels(rs, m)
    assert m.winner is not None, "a three-to-five-level match should end within 60 deals"
    if m.winner is not None:
        final = m.history[-1]
        assert team_of(final.dealer) == m.winner
        assert final.level == rs.level_sequence[-1]
        assert not final.result.change.attackers_take_over
        assert record.result["winner"] == m.winner


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_first_deal_dealer_comes_from_the_declaration(seed):
    """QQ: "开局中，双方争庄，先亮者为庄家" — the first declarer deals, overturned or not."""
    m = MatchState.new(CLASSIC, seed=seed)
    assert m.dealer is None and m.deal.dealer is None and m.team_levels == (0, 0)
    fixed: list[TrumpFixed] = []
    declared: list[Declared] = []

    def listen(action, state, events):
        fixed.extend(e for e in events if isinstance(e, TrumpFixed))
        declared.extend(e for e in events if isinstance(e, Declared))

    bots = [RandomBot(f"first/{seed}/{p}", declare_chance=0.5) for p in range(4)]
    m, _ = play_match(CLASSIC, bots, seed=seed, deals=1, on_action=listen)
    (tf,) = fixed[:1]
    first = m.history[0]
    assert first.dealer == tf.dealer
    assert tf.dealer == (declared[0].seat if declared else 0)
    if declared:
        assert tf.declarer == declared[-1].seat
    assert first.result.defenders == (tf.dealer % 2, tf.dealer % 2 + 2)
