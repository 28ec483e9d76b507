"""The sampler's inference from play: every follow a seat made stays legal in every world.

A seat that followed a led pair with two singles of the suit (say ``♠K ♠4`` on ``♠7♠7``)
held no pair of spades then, and cannot hold one now: no world may give it one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.bots import sampler
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.plausible import misses
from shengji.bots.random_bot import RandomBot
from shengji.bots.sampler import follows_hold, sample_hidden, structured_follows, tells
from shengji.bots.search import SearchBot
from shengji.core.actions import Play
from shengji.core.cards import SPADES, parse_cards
from shengji.core.determinize import start_of_play, state_from_view
from shengji.core.order import TRUMP, context
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.units import decompose_counts, pos_counts_from_hand
from shengji.core.views import view_for


def playing_states(name: str, seed: int, heuristic: bool) -> list[DealState]:
    """Every play-phase position of one seeded deal."""
    seen: list[DealState] = []

    def keep(_a, state, _e) -> None:  # type: ignore[no-untyped-def]
        if state.deal.phase is Phase.PLAYING and not state.history:
            seen.append(state.deal)

    rs = PRESETS[name]
    kind = HeuristicBot if heuristic else RandomBot
    play_match(rs, [kind(i) for i in range(rs.players)], seed=seed, deals=1, on_action=keep)
    return seen


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 10_000), st.booleans(),
       st.floats(0.2, 1.0))
def test_the_true_deal_is_always_a_possible_world(
    name: str, seed: int, heuristic: bool, when: float
) -> None:
    """Soundness: the evidence never rules out the cards as they really lie."""
    states = playing_states(name, seed, heuristic)
    state = states[min(len(states) - 1, int(when * len(states)))]
    seat = state.to_act
    if seat is None or seat < 0:
        return
    view = view_for(state, seat)
    follows = structured_follows(view)
    assert follows_hold(view, [list(h) for h in state.hands], follows)


def constrained(name: str = "classic") -> tuple[DealState, int]:
    """A seeded position at a trick's start where some other seat followed a pair or
    tractor with no pair."""
    for seed in range(40):
        for state in playing_states(name, seed, heuristic=True)[::4]:
            seat = state.to_act
            if seat is None or seat < 0 or state.trick:
                continue  # at a trick's start: the other hands are of one size
            view = view_for(state, seat)
            ctx = view.ctx
            assert ctx is not None
            for who, lead, play, _since in structured_follows(view):
                units = decompose_counts(pos_counts_from_hand(
                    [play.count(k) for k in range(54)], lead.suit, ctx), lead.suit)
                if all(u.width == 1 for u in units):
                    return state, who
    raise AssertionError("no declined pair in 40 deals")


def test_a_seat_that_declined_a_pair_is_never_dealt_one_of_that_suit() -> None:
    state, who = constrained()
    seat = state.to_act
    assert seat is not None
    view = view_for(state, seat)
    follows = structured_follows(view)
    rng = random.Random(5)
    for _ in range(25):
        hands, _kitty = sample_hidden(view, rng)
        assert follows_hold(view, hands, follows)
    # ... while worlds that only keep the voids break that evidence now and then
    broken = 0
    for _ in range(200):
        hands, _kitty = sample_hidden(view, rng, follows=False)
        broken += not follows_hold(view, hands, follows)
    assert broken > 0, who


def test_replaying_the_plays_from_the_first_lead_reaches_the_world_again() -> None:
    """``start_of_play`` puts every played card back; the view's plays, replayed, lead to
    the same hands, trick, tricks and points as the world itself."""
    for seed in (1, 2):
        states = playing_states("classic", seed, heuristic=False)
        for state in states[5::9]:
            seat = state.to_act
            assert seat is not None and seat >= 0
            view = view_for(state, seat)
            hands = [list(h) for h in state.hands]
            start = start_of_play(view, hands, list(state.kitty))
            assert start.tricks == () and start.trick == () and start.attacker_points == 0
            for who, cards in [p for t in view.tricks for p in t.plays] + list(view.trick):
                start.apply_in_place(Play(who, tuple(cards)))
            world = state_from_view(view, hands, list(state.kitty))
            assert [list(h) for h in start.hands] == [list(h) for h in world.hands]
            assert start.trick == world.trick and start.tricks == world.tricks
            assert start.attacker_points == world.attacker_points
            assert start.to_act == world.to_act


def test_the_true_deal_explains_every_heuristic_play() -> None:
    """Among heuristic players the real deal has no misses, while random worlds do: the
    filter's evidence points at the truth (worlds of 2-14 misses in these positions)."""
    states = playing_states("classic", 3, heuristic=True)
    judges = [HeuristicBot(k) for k in range(4)]
    rng = random.Random(1)
    for state in states[10::15]:
        seat = state.to_act
        assert seat is not None
        view = view_for(state, seat)
        assert misses(view, [list(h) for h in state.hands], list(state.kitty), judges) == 0
        drawn = [misses(view, *sample_hidden(view, rng), judges) for _ in range(4)]
        assert max(drawn) > 0


@pytest.mark.parametrize(("draws", "tells", "chains"),
                         [(1, False, 0), (3, False, 0), (1, True, 0), (1, False, 2)])
def test_the_search_with_inference_decides_from_the_view_only(
    draws: int, tells: bool, chains: int
) -> None:
    """The view-swap check where the new evidence is in play (``draws=3``: the filter
    too; ``chains``: worlds moved by swaps scored on the plays): swapping two other
    seats' hands, the view unchanged, changes no world, no rollout and no choice."""
    state, _who = constrained()
    seat = state.to_act
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    checked = 0
    for a, b in ((others[0], others[1]), (others[0], others[2]), (others[1], others[2])):
        twin = state._copy()
        hands = list(state.hands)
        hands[a], hands[b] = state.hands[b], state.hands[a]
        twin.hands = tuple(hands)
        if view_for(twin, seat) != view_for(state, seat):
            continue
        picks = []
        for s in (state, twin):
            bot = SearchBot(seed=3, samples=3, draws=draws, tells=tells, chains=chains)
            worlds = [bot.world(view_for(s, seat)) for _ in range(2)]
            choice = bot.choose(view_for(s, seat), s.legal_actions(seat))
            picks.append((worlds, choice, [(w, r) for w, r, _c in bot.stats]))
        assert picks[0] == picks[1]
        checked += 1
    assert checked


def _holds(state: DealState, tell: sampler.Tell) -> bool:
    """Whether the seat a tell names holds no card of the tell's range now (it held none
    then, so it holds none now)."""
    other, suit, lo, hi, _trust = tell
    assert state.ctx is not None
    return not any(
        state.hands[other][k] and lo < state.ctx.pos[k] < hi for k in state.ctx.suit_kinds[suit]
    )


def test_the_follows_tell_the_truth_most_of_the_time() -> None:
    """A duck under an opponent's winning card of the led suit, or the cheapest beat of
    it, tells which cards the seat lacks: among heuristic players the true hands agree
    with nearly every tell (the sampler still only weighs them, ``sampler.TRUST``)."""
    met = told = 0
    for seed in range(6):
        for state in playing_states("classic", seed, heuristic=True)[::7]:
            seat = state.to_act
            assert seat is not None and state.ctx is not None
            for tell in tells(view_for(state, seat)):
                assert tell[0] != seat and 0 < tell[4] < 1
                told += 1
                met += _holds(state, tell)
    assert told > 50
    assert met / told > 0.9


def test_a_declined_ruff_tells_which_trumps_the_seat_lacked() -> None:
    """A seat void in a led side suit that let an opponent keep points on the table (it
    discarded, or played a trump too low to take them) held no trump that would have taken
    them; a ruff that takes the trick, or a trick with no points, tells nothing."""
    ctx = context(0, SPADES)  # level 2, spades trump
    hk, h3, c3, s3, s4, sa, bj = parse_cards("HK H3 C3 S3 S4 SA BJ")
    led = ((0, (hk,)),)
    assert sampler._declined_ruff(led, c3, hk, ctx) == (-1, 1 << 30)  # no trump at all
    ruffed = ((0, (hk,)), (1, (s4,)))
    assert sampler._declined_ruff(ruffed, c3, s4, ctx) == (ctx.pos[s4], 1 << 30)
    assert sampler._declined_ruff(ruffed, s3, s4, ctx) == (ctx.pos[s4], 1 << 30)  # too low
    assert sampler._declined_ruff(ruffed, sa, s4, ctx) is None  # over-ruffed
    assert sampler._declined_ruff(led, s3, hk, ctx) is None  # ruffed
    assert sampler._declined_ruff(((0, (h3,)),), c3, h3, ctx) is None  # no points on it
    assert sampler._declined_ruff(((0, (hk,)), (1, (bj,))), c3, bj, ctx) is None  # nothing above


def test_declined_ruffs_tell_the_truth_among_heuristic_players() -> None:
    """Among heuristic players the declined ruffs are right nearly always (a world still
    keeps one only with ``TRUST_NO_RUFF``: people hold a trump back on purpose)."""
    met = told = 0
    for seed in range(24):
        state = playing_states("classic", seed, heuristic=True)[-1]  # the last trick's
        assert state.ctx is not None
        for seat in range(4):
            ruffs = [t for t in tells(view_for(state, seat)) if t[4] == sampler.TRUST_NO_RUFF]
            for tell in ruffs:
                assert tell[1] == TRUMP
                told += 1
                met += _holds(state, tell)
    assert told > 20
    assert met / told > 0.9


def test_a_world_keeps_the_tells_it_trusts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every tell trusted, no world gives a seat a card its follows said it lacked;
    a world is still found when they cannot all hold."""
    monkeypatch.setattr(sampler, "TRUST", dict.fromkeys(sampler.TRUST, 1.0))
    states = playing_states("classic", 5, heuristic=True)
    checked = kept = 0
    rng = random.Random(2)
    for state in states[20::6]:
        seat = state.to_act
        assert seat is not None and state.ctx is not None
        view = view_for(state, seat)
        said = [(o, s, lo, hi, 1.0) for o, s, lo, hi, _t in tells(view)]
        for _ in range(3):
            hands, _kitty = sample_hidden(view, rng, tells=said)
            gaps_met = all(
                not any(hands[o][k] and lo < state.ctx.pos[k] < hi
                        for k in state.ctx.suit_kinds[s])
                for o, s, lo, hi, _t in said
            )
            checked += 1
            kept += gaps_met
    assert checked >= 15 and kept == checked, (kept, checked)


def test_no_tells_without_fixed_partners() -> None:
    """找朋友: who is whose opponent is not known while a follow is made."""
    for state in playing_states("find-friend", 2, heuristic=True)[10::10]:
        seat = state.to_act
        assert seat is not None
        assert tells(view_for(state, seat)) == []
