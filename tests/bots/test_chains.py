"""Worlds kept across a seat's decisions (``bots/chains.py``): carried from view to view
they always hold just the cards the view leaves unseen and meet its evidence, and the
Metropolis swaps never trade a world for one that explains the plays worse when a miss
weighs heavily.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.chains import KITTY, Chains, usable
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.plausible import misses
from shengji.bots.registry import make_bot, parse_bot_spec
from shengji.bots.sampler import follows_hold, structured_follows
from shengji.bots.search import SearchBot
from shengji.core.determinize import known_voids, unseen_cards
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView, view_for

FIXED = sorted(n for n, rs in PRESETS.items() if rs.partnership == "fixed")


def seat_positions(name: str, seed: int, seat: int) -> list[DealState]:
    """Every play decision of ``seat`` in one seeded heuristic deal, in order."""
    seen: list[DealState] = []

    def keep(_a, state, _e) -> None:  # type: ignore[no-untyped-def]
        if state.deal.phase is Phase.PLAYING and not state.history \
                and state.deal.to_act == seat:
            seen.append(state.deal)

    rs = PRESETS[name]
    play_match(rs, [HeuristicBot(i) for i in range(rs.players)], seed=seed, deals=1,
               on_action=keep)
    return seen


def assert_meets(view: DealView, hands: list[list[int]], kitty: list[int],
                 evidence: bool = True) -> None:
    """The world holds the view's unseen cards, each seat as many as it has, and meets
    the voids and the follows' structure (``evidence``)."""
    assert view.seat is not None and view.ctx is not None
    assert hands[view.seat] == list(view.hand_counts)
    held = [c for s, h in enumerate(hands) if s != view.seat for c in range(54)
            for _ in range(h[c])]
    if view.kitty is None:
        held += kitty
    else:
        assert kitty == list(view.kitty)
    assert sorted(held) == unseen_cards(view)
    for s, h in enumerate(hands):
        if s != view.seat:
            assert sum(h) == view.hand_sizes[s]
    if not evidence:
        return
    for s, voids in enumerate(known_voids(view)):
        if s != view.seat:
            assert not any(hands[s][c] and view.ctx.esuit[c] in voids for c in range(54))
    assert follows_hold(view, hands, structured_follows(view))


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(FIXED), st.integers(0, 10_000), st.integers(0, 5))
def test_carried_worlds_hold_the_views_cards_and_evidence(
    name: str, seed: int, who: int
) -> None:
    rs = PRESETS[name]
    seat = who % rs.players
    chains = Chains(random.Random(seed), [HeuristicBot(k) for k in range(rs.players)],
                    count=2, steps=2)
    decisions = 0
    for state in seat_positions(name, seed, seat)[::2]:
        view = view_for(state, seat)
        if not usable(view):
            continue
        decisions += 1
        for _ in range(2):
            world = chains.world(view)
            assert chains.last is not None
            # a world the sampler drew when the evidence was too tight to meet at random
            # may break it (sampler.sample_hidden's fallback): then only the cards count
            assert_meets(view, *world, evidence=chains.last.valid)
    if decisions > 2:
        assert chains.carried > 0  # the chains went on from one decision to the next


def test_a_chain_of_another_deal_is_not_carried_into_this_one() -> None:
    chains = Chains(random.Random(1), [HeuristicBot(k) for k in range(4)], count=1, steps=1)
    first = seat_positions("classic", 1, 0)
    other = seat_positions("classic", 2, 0)
    chains.world(view_for(first[5], 0))
    view = view_for(other[8], 0)
    assert_meets(view, *chains.world(view))


def test_with_a_heavy_miss_no_swap_makes_the_plays_less_likely() -> None:
    state = seat_positions("classic", 3, 1)[12]
    view = view_for(state, 1)
    judges = [HeuristicBot(k) for k in range(4)]
    chains = Chains(random.Random(2), judges, count=1, steps=0, beta=1e9)
    chains.world(view)
    chain = chains.chains[0]
    before = chain.misses
    ev = chains._evidence(view)
    seen = [before]
    for _ in range(40):
        chains._step(chain, ev)
        seen.append(chain.misses)
        assert chain.misses == misses(view, chain.hands, chain.kitty, judges)
    assert seen == sorted(seen, reverse=True)
    assert chains.accepted > 0 and seen[-1] < before  # it found worlds explaining more


def test_the_kitty_is_a_holder_only_when_hidden() -> None:
    for state in seat_positions("classic", 4, 0)[3:5]:
        view = view_for(state, 0)
        ev = Chains(random.Random(0), [], count=1)._evidence(view)
        assert (KITTY in ev.holders) == (view.kitty is None)


@pytest.mark.parametrize("name", ["search", "search:300", "search:300:chains",
                                  "search:300:heuristic", "search:8w", "expert"])
def test_search_keeps_chains_by_default(name: str) -> None:
    spec = parse_bot_spec(name)
    assert spec.chains and spec.rollout in (None, "heuristic")
    bot = make_bot(name, seed=1)
    assert isinstance(bot, SearchBot) and bot.chains is not None


@pytest.mark.parametrize("name", ["search:300:plain", "search:300:random", "search:8w:plain"])
def test_plain_and_random_search_draw_every_world_afresh(name: str) -> None:
    spec = parse_bot_spec(name)
    assert not spec.chains
    bot = make_bot(name, seed=1)
    assert isinstance(bot, SearchBot) and bot.chains is None
    assert bot.players[0].name == ("random" if name.endswith("random") else "heuristic")


def test_an_unknown_world_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="chains, plain or random"):
        parse_bot_spec("search:300:chain")


def test_a_search_with_chains_plays_a_whole_deal() -> None:
    rs = PRESETS["classic"]
    bots = [SearchBot(seed=i, samples=3, chains=2, chain_steps=1) if i % 2 == 0
            else HeuristicBot(i) for i in range(4)]
    state, _ = play_match(rs, bots, seed=5, deals=1)
    assert len(state.history) == 1
    searcher = bots[0]
    assert isinstance(searcher, SearchBot) and searcher.chains is not None
    assert searcher.chains.carried > 0
