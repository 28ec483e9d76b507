"""The exact endgame solver (``bots/endgame.py``) against brute force, and where the search and
``cheat`` use it; the search's budget by need (``search.settle``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shengji.bots.build import compiled
from shengji.bots.cheat import CheatBot
from shengji.bots.endgame import Solver, brute, moves, position_after, settled, solve
from shengji.bots.search import MIN_WORLDS, SearchBot, deal_value, settle
from shengji.core.actions import Play
from shengji.core.cards import cards_str
from shengji.core.legal import LegalActions
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealResult, DealState
from shengji.core.views import DealView, view_for

SOLVABLE = ["classic", "one-deck", "two-color", "lianzhong", "four-deck", "tournament",
            "three-player", "find-friend"]
"""Presets whose seeded heuristic deals reach small endgames with the sides known."""


def _position(name: str, seed: int, left: int, mid: int) -> DealState:
    try:
        return position_after(PRESETS[name], seed, left, mid)
    except ValueError:
        assume(False)  # this deal never reaches such a position
        raise


def _hands(state: DealState) -> list[str]:
    return [cards_str(c for c in range(54) for _ in range(h[c])) for h in state.hands]


def _redealt(state: DealState, rng: random.Random) -> DealState:
    """``state`` with its hands' cards dealt again at random, each seat as many as before."""
    pool = [c for h in state.hands for c in range(54) for _ in range(h[c])]
    rng.shuffle(pool)
    out = state.writable(False)
    assert isinstance(out, DealState)
    hands = []
    for size in state.hand_sizes:
        hand = [0] * 54
        for c in pool[:size]:
            hand[c] += 1
        del pool[:size]
        hands.append(hand)
    out.hands = tuple(hands)
    return out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SOLVABLE), st.integers(0, 10_000), st.integers(1, 3),
       st.integers(0, 3), st.integers(0, 3), st.booleans(), st.integers(0, 10**6))
def test_the_solver_equals_brute_force(
    name: str, seed: int, left: int, mid: int, seat: int, redeal: bool, shuffle: int
) -> None:
    """Alpha-beta with its table and merged moves finds the minimax value of every legal
    play: deal values and bare attacker points, from a trick's start or mid-trick, in the
    deal as played or with its cards dealt again at random."""
    state = _position(name, seed, left, min(mid, PRESETS[name].players - 1))
    if redeal and not state.trick:
        state = _redealt(state, random.Random(shuffle))
    seat %= state.players
    values = [lambda r: deal_value(r, seat), lambda r: float(r.attacker_points)]
    for value in values:
        exact = brute(state, value, seat)
        assert solve(state, value, seat, nodes=None) == exact, _hands(state)
        plain = Solver(value, seat, None, merge=False)
        assert plain.solve(state) == exact, _hands(state)
        # one solver (its table kept) for every play in turn, as the search and cheat use it
        shared = Solver(value, seat, None)
        for play in moves(state, merge=False):
            after = state.apply(play)[0]
            assert shared.solve(after) == brute(after, value, seat), (_hands(state), play)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 40), st.integers(0, 10**6))
def test_a_solver_kept_across_plays_answers_as_a_fresh_one(seed: int, shuffle: int) -> None:
    """Bounds kept in the table from one play's solve never spoil the next one's (four cards
    a seat, dealt again at random: too big for brute force, so a fresh solver, held to
    brute force above, is the reference)."""
    state = _redealt(_position("classic", seed, 4, 0), random.Random(shuffle))
    seat = state.to_act
    assert seat is not None

    def value(r: DealResult) -> float:
        return deal_value(r, seat)

    shared = Solver(value, seat, None)
    for play in moves(state, merge=False):
        after = state.apply(play)[0]
        assert shared.solve(after) == Solver(value, seat, None).solve(after), _hands(state)


def test_merged_moves_are_one_per_class_and_keep_the_rest() -> None:
    state = position_after(PRESETS["classic"], 0, 3)
    assert _hands(state)[0] == "D8 D9 DJ"
    merged = [cards_str(p.cards) for p in moves(state)]
    assert merged == ["D8", "DJ", "D8 D9", "D8 DJ", "D8 D9 DJ"]
    every = {cards_str(p.cards) for p in moves(state, merge=False)}
    assert set(merged) <= every and every - set(merged) == {"D9", "D9 DJ"}


def test_an_unsettled_friend_game_is_not_solved() -> None:
    for seed in range(20):
        try:
            state = position_after(PRESETS["find-friend"], seed, 25)
        except ValueError:
            continue
        if state.friend_call is not None and state.friend is None:
            assert not settled(state)
            with pytest.raises(ValueError):
                Solver(lambda r: 0.0, 0).solve(state)
            return
    assert settled(position_after(PRESETS["classic"], 0, 3))


def test_the_solver_gives_up_past_its_nodes() -> None:
    state = position_after(PRESETS["classic"], 0, 6)
    assert solve(state, lambda r: float(r.attacker_points), 0, nodes=50) is None


def test_the_search_solves_small_endgames_and_rolls_out_the_rest() -> None:
    state = position_after(PRESETS["classic"], 1, 3)
    seat = state.to_act
    assert seat is not None
    view, legal = view_for(state, seat), state.legal_actions(seat)
    bot = SearchBot(seed=1, samples=MIN_WORLDS)
    bot.choose(view, legal)
    assert bot.solved > 0
    off = SearchBot(seed=1, samples=MIN_WORLDS, endgame=0)
    off.choose(view, legal)
    assert off.solved == 0
    small = SearchBot(seed=1, samples=MIN_WORLDS, endgame_nodes=1)  # every solve gives up
    assert small.choose(view, legal) in legal and small.solved == 0
    assert small.stats[-1][1] > 0  # ... and the worlds were rolled out instead
    early = position_after(PRESETS["classic"], 1, 10)
    seat = early.to_act
    assert seat is not None
    far = SearchBot(seed=1, samples=MIN_WORLDS)
    far.choose(view_for(early, seat), early.legal_actions(seat))
    assert far.solved == 0 and far.searched == 1


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cheat_takes_a_best_play_of_the_true_endgame(seed: int) -> None:
    state = position_after(PRESETS["classic"], seed, 3)
    seat = state.to_act
    assert seat is not None
    view, legal = view_for(state, seat), state.legal_actions(seat)

    def value(r: DealResult) -> float:
        return deal_value(r, seat)

    bot = CheatBot(seed)
    bot.peek(state)
    choice = bot.choose(view, legal)
    assert choice is not None and choice in legal
    after, _ = state.apply(choice)
    assert brute(after, value, seat) == brute(state, value, seat)


# ---------------------------------------------------------------- budget by need


def test_settle_drops_what_cannot_overrule_and_takes_a_dominant_move() -> None:
    zero, worse, tie = [0.0] * 8, [-1.0] * 8, [0.0] * 8
    assert settle([zero, worse, tie], [0, 1, 2], 0.05, 2.0) == ([0], None, False)
    better, good = [1.0] * 8, [0.0, 0.5] * 4
    assert settle([zero, better, good], [0, 1, 2], 0.05, 2.0) == ([0, 1, 2], 1, False)
    # two that would overrule but are not apart yet: close
    a, b = [1.0, 0.2] * 4, [0.2, 1.0] * 4
    assert settle([zero, a, b], [0, 1, 2], 0.05, 2.0) == ([0, 1, 2], None, True)
    # one that might overrule with more worlds: close
    maybe = [0.5, -0.3] * 4
    assert settle([zero, maybe], [0, 1], 0.05, 2.0) == ([0, 1], None, True)


def _patched(bot: SearchBot, view: DealView, legal: LegalActions, gain: float) -> int:
    """The bot's world values made up by candidate (its lead): 0 for the policy's choice,
    and for every other one ``gain`` on average, +0.5 and ``2 * gain - 0.5`` in turn (so
    its paired gain stays in doubt for hundreds of worlds). Returns the candidates."""
    cands = bot.candidates(view, legal)
    index = {tuple(sorted(a.cards)): i for i, a in enumerate(cands) if isinstance(a, Play)}
    seen: dict[int, int] = {}

    def value(state: DealState, seat: int, solver: Solver) -> float:
        i = index[tuple(sorted(state.trick[0][1]))]
        seen[i] = seen.get(i, 0) + 1
        return 0.0 if i == 0 else (0.5 if seen[i] % 2 else 2 * gain - 0.5)

    bot._value = value  # type: ignore[method-assign]
    return len(cands)


@pytest.mark.skipif(compiled(), reason="makes up the bot's world values by replacing its "
                    "method, which a compiled class keeps read-only")
def test_one_sensible_move_stops_early_and_a_close_one_thinks_longer() -> None:
    state = position_after(PRESETS["classic"], 2, 12)
    seat = state.to_act
    assert seat is not None
    view, legal = view_for(state, seat), state.legal_actions(seat)
    plain = SearchBot(seed=1, think_ms=60_000)  # every world the same value: nothing to find
    plain._value = lambda s, seat, solver: 0.0  # type: ignore[method-assign]
    plain.choose(view, legal)
    assert plain.last_worlds == MIN_WORLDS and plain.stats[-1][2] < 30
    budget = 0.2
    close = SearchBot(seed=1, think_ms=budget * 1000, stretch=1.5, chains=0)
    assert _patched(close, view, legal, 0.02) > 1  # below the margin, in doubt all along
    close.choose(view, legal)
    spent = close.stats[-1][2]
    assert budget < spent <= 1.5 * budget
    steady = SearchBot(seed=1, think_ms=budget * 1000, need=False, chains=0)
    _patched(steady, view, legal, 0.02)
    steady.choose(view, legal)
    assert steady.stats[-1][2] <= budget
