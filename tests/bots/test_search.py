"""The search bot's worlds come from its view only, and it plays legal, finished deals."""

from __future__ import annotations

import random

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot, deal_value
from shengji.core.cards import counts_of, deck
from shengji.core.determinize import known_voids, state_from_view, unseen_cards
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for


def mid_deal(name: str = "classic", seed: int = 4, plays: int = 30) -> DealState:
    """A real deal, a few tricks into the play phase."""
    seen: list[DealState] = []

    def keep(_a, state, _e) -> None:  # type: ignore[no-untyped-def]
        if state.deal.phase is Phase.PLAYING and not state.history:
            seen.append(state.deal)

    play_match(PRESETS[name], [RandomBot(i) for i in range(4)], seed=seed, deals=1,
               on_action=keep)
    return seen[min(plays, len(seen) - 1)]


def swap_hidden(state: DealState, seat: int) -> DealState:
    """The same deal as ``seat`` sees it, with two other seats' hands swapped where they can be
    (same size, and no card breaks a shown void): the view must not change."""
    other = [s for s in range(4) if s != seat]
    a, b = other[0], other[2]
    out = state._copy()
    hands = list(state.hands)
    hands[a], hands[b] = state.hands[b], state.hands[a]
    out.hands = tuple(hands)
    return out


@pytest.mark.parametrize("name", ["classic", "three-deck", "two-color"])
def test_a_world_keeps_what_the_seat_knows(name: str) -> None:
    state = mid_deal(name)
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    hands, kitty = sample_hidden(view, random.Random(1))
    assert hands[seat] == list(state.hands[seat])
    assert [sum(h) for h in hands] == list(state.hand_sizes)
    pack = counts_of(deck(state.ruleset.decks))
    held = [sum(h[k] for h in hands) for k in range(54)]
    played = counts_of(view.played_cards)
    assert [held[k] + played[k] + kitty.count(k) for k in range(54)] == pack
    voids = known_voids(view)
    ctx = view.ctx
    assert ctx is not None
    for s, suits in enumerate(voids):
        if s != seat:
            assert not any(hands[s][k] for k in range(54) if ctx.esuit[k] in suits)


def test_the_sampler_reads_the_view_only() -> None:
    state = mid_deal("classic", seed=9, plays=8)
    seat = state.to_act
    assert seat is not None
    twin = swap_hidden(state, seat)
    assert view_for(twin, seat) == view_for(state, seat) or (
        view_for(twin, seat).hand_sizes != view_for(state, seat).hand_sizes
    )
    if view_for(twin, seat) != view_for(state, seat):
        pytest.skip("the swapped hands differ in size here")
    assert sample_hidden(view_for(state, seat), random.Random(7)) == sample_hidden(
        view_for(twin, seat), random.Random(7)
    )


def test_a_world_with_the_true_cards_is_the_true_deal() -> None:
    state = mid_deal("classic", seed=2, plays=21)
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    world = state_from_view(view, state.hands, state.kitty)
    for s in range(4):
        assert view_for(world, s).hand == view_for(state, s).hand
    assert world.to_act == state.to_act and world.trick == state.trick
    action = state.legal_actions(seat).sample(random.Random(3))
    assert world.is_legal(action) and state.is_legal(action)
    assert len(unseen_cards(view)) == sum(state.hand_sizes) - state.hand_sizes[seat] + (
        0 if view.kitty is not None else len(state.kitty)
    )


def test_search_plays_whole_deals_legally_and_deterministically() -> None:
    def run() -> list[str]:
        bots = [SearchBot(seed=i, samples=2, rollout="random") for i in range(4)]
        _, record = play_match(PRESETS["one-deck"], bots, seed=5, deals=1)
        return record.actions

    assert run() == run()


def test_deal_value_is_signed_by_side() -> None:
    state, _ = play_match(PRESETS["one-deck"], [RandomBot(i) for i in range(4)], seed=1,
                          deals=1)
    res = state.history[0].result
    d = res.defenders[0]
    a = next(s for s in range(4) if s not in res.defenders)
    assert deal_value(res, d) == -deal_value(res, a) != 0


def test_shortlist_starts_with_the_heuristic_choice() -> None:
    from shengji.bots.heuristic import HeuristicBot

    for plays in (0, 1, 2, 3, 12, 30, 31):
        state = mid_deal(plays=plays)
        seat = state.to_act
        assert seat is not None
        view, legal = view_for(state, seat), state.legal_actions(seat)
        short = HeuristicBot(1).shortlist(view, legal, 5)
        assert short[0] == HeuristicBot(1).choose(view, legal)
        assert 1 <= len(short) <= 5 and len(set(short)) == len(short)
        assert all(a in legal for a in short)


def test_too_few_worlds_never_overrule_the_heuristic() -> None:
    from shengji.bots.heuristic import HeuristicBot
    from shengji.bots.search import MIN_WORLDS

    for plays in (0, 5, 30):
        state = mid_deal(plays=plays)
        seat = state.to_act
        assert seat is not None
        view, legal = view_for(state, seat), state.legal_actions(seat)
        bot = SearchBot(seed=2, samples=MIN_WORLDS - 1)
        assert bot.choose(view, legal) == HeuristicBot(0).choose(view, legal)


def test_think_time_and_fixed_worlds_by_name() -> None:
    from shengji.bots.registry import make_bot, with_think_ms

    bot = make_bot("search:8w", seed=1)
    assert isinstance(bot, SearchBot) and bot.samples == 8
    assert with_think_ms(["search", "random"], 40) == ["search:40", "random"]
    for bad in ("search:0w", "search:-5", "search:xw", "search:10:minimax"):
        with pytest.raises(ValueError, match="search:<think ms>"):
            make_bot(bad, seed=1)
    with pytest.raises(ValueError, match="--think-ms"):
        with_think_ms(["search"], 0)


def test_shown_kitty_cards_stay_with_the_taker_or_the_kitty() -> None:
    """竞标: the 3 kitty cards shown to all went to the dealer; a world keeps them there (or
    back in the kitty) unless they were played."""
    from collections import Counter

    from shengji.bots.heuristic import HeuristicBot

    seen: list[DealState] = []

    def keep(_a, state, _e) -> None:  # type: ignore[no-untyped-def]
        if state.deal.phase is Phase.PLAYING and not state.history:
            seen.append(state.deal)

    rs = PRESETS["three-player"]
    play_match(rs, [HeuristicBot(i) for i in range(3)], seed=6, deals=1, on_action=keep)
    state = seen[4]
    dealer = state.kitty_holder
    assert dealer is not None and state.shown
    seat = (dealer + 1) % 3
    view = view_for(state, seat)
    played = Counter(c for t in view.tricks for _s, cs in t.plays for c in cs)
    played.update(c for _s, cs in view.trick for c in cs)
    rng = random.Random(2)
    for _ in range(30):
        hands, kitty = sample_hidden(view, rng)
        where = Counter(kitty)
        for c in range(54):
            where[c] += hands[dealer][c]
        need = Counter(view.shown) - played
        assert all(where[c] >= n for c, n in need.items())


def test_the_search_decides_from_the_view_only() -> None:
    """Swapping two other seats' hands (the view unchanged) changes nothing the search does:
    the same worlds, the same rollouts, the same choice."""
    checked = 0
    for seed, plays in ((9, 8), (4, 30), (2, 21)):
        state = mid_deal("classic", seed=seed, plays=plays)
        seat = state.to_act
        assert seat is not None
        twin = swap_hidden(state, seat)
        if view_for(twin, seat) != view_for(state, seat):
            continue
        choices = []
        for s in (state, twin):
            bot = SearchBot(seed=3, samples=6, rollout="heuristic")
            choice = bot.choose(view_for(s, seat), s.legal_actions(seat))
            choices.append((choice, [(w, r) for w, r, _cpu in bot.stats]))
        assert choices[0] == choices[1]
        checked += 1
    assert checked


def test_the_think_budget_is_cpu_time_and_respected() -> None:
    """p95 of the CPU time per searched decision stays within 1.2x the budget."""
    import time

    budget_ms = 60.0
    bot = SearchBot(seed=1, think_ms=budget_ms)
    spent: list[float] = []
    for seed, plays in ((4, 2), (4, 30), (9, 8), (2, 21), (5, 12), (6, 40), (7, 4), (8, 16)):
        state = mid_deal("classic", seed=seed, plays=plays)
        seat = state.to_act
        assert seat is not None
        t0 = time.thread_time()
        bot.choose(view_for(state, seat), state.legal_actions(seat))
        spent.append(1000 * (time.thread_time() - t0))
    spent.sort()
    p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
    assert p95 <= 1.2 * budget_ms, spent
    assert sum(r for _w, r, _c in bot.stats) > 0  # it did search
