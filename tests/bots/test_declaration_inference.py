"""What the declaring window says (``bots/declaration_inference.py``): sound among heuristic
players, informative against drawn worlds, and read from the view only."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.declaration_inference import judged, window_misses
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.plausible import seat_misses
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for

JUDGED = ["classic", "one-deck", "two-color", "lianzhong", "tournament", "three-deck",
          "four-deck", "bianfeng"]


def plays(name: str, seed: int) -> list[DealState]:
    """Every play-phase position of one seeded heuristic deal with a known dealer."""
    seen: list[DealState] = []
    rs = PRESETS[name]

    def keep(_a, m, _e) -> None:  # type: ignore[no-untyped-def]
        if m.deal.tricks and not m.history:
            seen.append(m.deal)

    play_match(rs, [HeuristicBot(i) for i in range(rs.players)], seed=seed, deals=1,
               on_action=keep, first_dealer=seed % rs.players)
    return seen


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(JUDGED), st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_the_true_deal_passes_the_window(name: str, seed: int, when: float) -> None:
    """Soundness: among heuristic players the cards as they lie explain every pass."""
    states = plays(name, seed)
    state = states[int(when * (len(states) - 1))]
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    judges = [HeuristicBot(i) for i in range(state.players)]
    assert window_misses(view, state.hands, state.kitty, judges) == [0] * state.players


def test_some_drawn_worlds_break_the_window_and_count_as_misses() -> None:
    found = 0
    for seed in range(30):
        state = plays("three-deck", seed)[8]
        seat = state.to_act
        assert seat is not None
        view = view_for(state, seat)
        assert judged(view)
        judges = [HeuristicBot(i) for i in range(state.players)]
        for r in range(4):
            hands, kitty = sample_hidden(view, random.Random(r))
            window = window_misses(view, hands, kitty, judges)
            if any(window):
                with_it = seat_misses(view, hands, kitty, judges, window=True)
                without = seat_misses(view, hands, kitty, judges)
                if without is None:  # the plays rule this world out anyway
                    assert with_it is None
                    continue
                found += 1
                assert with_it is not None
                assert with_it == [a + b for a, b in zip(without, window, strict=True)]
    assert found


def test_no_window_is_judged_where_it_is_not_the_whole_story() -> None:
    state = plays("classic", 1)[4]
    view = view_for(state, 0)
    assert judged(view) and 0 not in judged(view) and view.kitty_holder not in judged(view)
    assert judged(view._replace(dealer=None)) == []
    rebury = plays("huanle", 1)[4]  # a 反底 round may change the declaration after the window
    assert PRESETS["huanle"].rebury and judged(view_for(rebury, 0)) == []


def _traded(state: DealState, seat: int) -> DealState | None:
    """The deal with one card of each of two other seats traded, same effective suit, where
    ``seat``'s view does not change."""
    ctx = state.ctx
    assert ctx is not None
    others = [s for s in range(state.players) if s != seat and s != state.kitty_holder]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in range(54):
                for y in range(54):
                    if (x != y and state.hands[a][x] and state.hands[b][y]
                            and ctx.esuit[x] == ctx.esuit[y]):
                        out = state.writable(False)
                        assert isinstance(out, DealState)
                        hands = [list(h) for h in state.hands]
                        hands[a][x] -= 1
                        hands[b][x] += 1
                        hands[b][y] -= 1
                        hands[a][y] += 1
                        out.hands = tuple(hands)
                        if view_for(out, seat) == view_for(state, seat):
                            return out
    return None


def test_hidden_cards_traded_behind_an_unchanged_view_change_nothing() -> None:
    """The view-swap check with the window judged: the same worlds, misses and choice."""
    checked = 0
    for seed, at in ((3, 10), (5, 30), (8, 50)):
        state = plays("classic", seed)[at]
        seat = state.to_act
        assert seat is not None
        twin = _traded(state, seat)
        if twin is None:
            continue
        runs = []
        for s in (state, twin):
            bot = SearchBot(seed=3, samples=6, window=True)
            choice = bot.choose(view_for(s, seat), s.legal_actions(seat))
            assert bot.chains is not None and bot.chains.window
            worlds = [(c.misses, c.hands, c.kitty) for c in bot.chains.chains]
            runs.append((choice, [(w, r) for w, r, _cpu in bot.stats], worlds))
        assert runs[0] == runs[1]
        checked += 1
    assert checked
