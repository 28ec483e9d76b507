"""What the burial says about the hidden kitty (``bots/burial_inference.py``).

A dealer who picked up the kitty kept its trumps and points and buried low side cards: a
world whose kitty holds ``♥A`` or a trump is one the burier would not have made.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots.burial_choice import choose_burial
from shengji.bots.burial_inference import MISS_WEIGHT, burial_misses, burier, played_by, rebury
from shengji.bots.sampler import sample_hidden
from shengji.bots.search import SearchBot
from shengji.core.cards import parse_cards
from shengji.core.determinize import known_voids, unseen_cards
from shengji.core.order import TRUMP, context
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView, view_for
from tests.bots.test_inference import playing_states


def hidden_kitty(name: str = "classic", seed: int = 1, first: bool = False
                 ) -> tuple[DealState, DealView]:
    """A seeded position whose seat to act did not bury the kitty (at the first lead when
    ``first``)."""
    for state in playing_states(name, seed, heuristic=True):
        seat = state.to_act
        if seat is None or seat < 0 or (first and state.tricks):
            continue
        view = view_for(state, seat)
        if burier(view) is not None:
            return state, view
    raise AssertionError("no position with a hidden kitty")


def test_the_burial_keeps_trumps_and_points_and_empties_a_short_suit() -> None:
    """Hearts trump: ``♣3 ♣4 ♣6`` go (an emptied suit), never ``♠10`` or a heart."""
    hand = [0] * 54
    for c in parse_cards("HA HK H3 H4 SA S10 S5 C3 C4 C6 D7 D8 D9"):
        hand[c] += 1
    assert sorted(choose_burial(hand, context(0, 1), 3)) == sorted(parse_cards("C3 C4 C6"))
    # ... unless a club was played since: then no club is buried, and clubs stay
    kept = choose_burial(hand, context(0, 1), 3, keep=parse_cards("C6"))
    assert not set(kept) & set(parse_cards("C3 C4 C6 S10 HA HK H3 H4"))


def test_the_true_kitty_is_the_burial_and_a_trump_in_it_is_a_miss() -> None:
    state, view = hidden_kitty()
    h = burier(view)
    assert h is not None and state.ctx is not None
    hands, kitty = [list(x) for x in state.hands], list(state.kitty)
    assert burial_misses(view, hands, kitty) == 0
    assert not any(state.ctx.esuit[c] == TRUMP for c in kitty)
    trump = next(c for c in range(54) if hands[h][c] and state.ctx.esuit[c] == TRUMP)
    out = kitty[0]
    hands[h][trump] -= 1
    hands[h][out] += 1
    kitty[0] = trump
    assert burial_misses(view, hands, kitty) >= 1


def test_a_reburied_world_is_all_but_the_burial_itself() -> None:
    """Drawn at random, a kitty holds several cards the burier would have kept; reburied
    (the cards it led since kept back), at most one or two."""
    _state, view = hidden_kitty(first=True)
    rng = random.Random(2)
    before, after = [], []
    for _ in range(20):
        hands, kitty = sample_hidden(view, rng)
        before.append(burial_misses(view, hands, kitty))
        assert rebury(view, hands, kitty)
        after.append(burial_misses(view, hands, kitty))
    assert sum(before) > 60 * MISS_WEIGHT and sum(after) <= 5 * MISS_WEIGHT, (before, after)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.floats(0.0, 1.0))
def test_the_burial_evidence_is_sound_and_rebury_keeps_every_other_evidence(
    name: str, seed: int, when: float
) -> None:
    """Among heuristic players the true kitty is always the burier's burial (no misses),
    and a world made to agree (``rebury``) holds the same unseen cards, each seat as many
    as it has, the burier the cards it played since and none of a suit it lacks."""
    states = playing_states(name, seed, heuristic=True)
    if not states:
        return
    state = states[int(when * (len(states) - 1))]
    if state.to_act is None or state.to_act < 0:
        return
    seat = state.to_act
    view = view_for(state, seat)
    h = burier(view)
    if h is None:
        return
    assert burial_misses(view, [list(x) for x in state.hands], list(state.kitty)) == 0
    hands, kitty = sample_hidden(view, random.Random(seed))
    voids = known_voids(view)
    if rebury(view, hands, kitty, voids):
        held = sorted([c for s, hand in enumerate(hands) if s != seat
                       for c in range(54) for _ in range(hand[c])] + kitty)
        assert held == unseen_cards(view)
        assert [sum(x) for x in hands] == [sum(x) for x in state.hands]
        assert view.ctx is not None
        assert not any(hands[h][c] and view.ctx.esuit[c] in voids[h] for c in range(54))
        assert not set(played_by(view, h)) & set(kitty) or all(
            kitty.count(c) + played_by(view, h).count(c) <= view.ruleset.decks
            for c in set(kitty))


def test_the_sampler_makes_the_kitty_a_burial_on_request() -> None:
    """Drawn at random a kitty holds trumps and points; drawn with ``burial`` it does not
    (at the first lead, where nothing else constrains it)."""
    _state, view = hidden_kitty(first=True)
    ctx = view.ctx
    assert ctx is not None
    rng = random.Random(4)
    plain = [sample_hidden(view, rng)[1] for _ in range(20)]
    inferred = [sample_hidden(view, rng, burial=True)[1] for _ in range(20)]
    trumps = [sum(ctx.esuit[c] == TRUMP for c in k) for k in (*plain, *inferred)]
    assert sum(trumps[:20]) > 10 and sum(trumps[20:]) == 0


def test_the_search_with_the_burial_decides_from_the_view_only() -> None:
    """The view-swap check for the kitty: trading a card of the true kitty for one of
    another seat's (the viewer's view unchanged) changes no world, rollout or choice."""
    state, view = hidden_kitty(seed=2)
    seat = view.seat
    assert seat is not None
    other = next(s for s in range(4) if s not in (seat, burier(view)))
    checked = 0
    for x in sorted(set(state.kitty)):
        y = next((c for c in range(54) if state.hands[other][c] and c != x), None)
        if y is None:
            continue
        twin = state._copy()
        hands = [list(h) for h in state.hands]
        hands[other][y] -= 1
        hands[other][x] += 1
        kitty = list(state.kitty)
        kitty[kitty.index(x)] = y
        twin.hands = tuple(hands)
        twin.kitty = tuple(kitty)
        if view_for(twin, seat) != view:
            continue
        picks = []
        for s in (state, twin):
            bot = SearchBot(seed=3, samples=3, chains=2, burial=True)
            worlds = [bot.world(view_for(s, seat)) for _ in range(2)]
            choice = bot.choose(view_for(s, seat), s.legal_actions(seat))
            picks.append((worlds, choice, [(w, r) for w, r, _c in bot.stats]))
        assert picks[0] == picks[1]
        checked += 1
        if checked >= 2:
            break
    assert checked
