"""The heuristic's shortcuts choose what its full scoring chooses.

Rollouts call the heuristic tens of times a deal, so it skips work whose answer is known: a
follow the rules force is not scored, a lead reuses the finished tricks' memory without a
copy, and every follow that does not take the trick shares one chance of the side winning
it. These tests play seeded deals of every preset and check each shortcut against the long
way round, decision by decision.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.bots.heuristic import HeuristicBot, _forced_follow
from shengji.bots.memory import Memory
from shengji.bots.sampler import sample_hidden
from shengji.core.actions import Play
from shengji.core.cards import cards_str, parse_cards
from shengji.core.determinize import state_from_view
from shengji.core.follow import analyse_lead, suit_count
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.order import context
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.tricks import trick_winner
from shengji.core.units import pos_counts_from_hand
from shengji.core.views import DealView, view_for

EVERY_PRESET = sorted(PRESETS)


def plays(name: str, seed: int) -> Iterator[tuple[HeuristicBot, DealView, LegalActions]]:
    """Every play decision of one seeded deal played by heuristic bots (the bot to act, its
    view and legal actions), each taken before the bot acts."""
    rs = PRESETS[name]
    bots = [HeuristicBot(seed=k) for k in range(rs.players)]
    m = MatchState.new(rs, seed, seed % rs.players)
    while m.deal.phase is not Phase.DONE and not m.history:
        seat = m.to_act
        assert seat is not None
        legal = m.legal_actions(seat)
        if seat < 0:
            m, _ = m.apply_in_place(next(iter(legal)))
            continue
        view = view_for(m.deal, seat)
        if view.phase is Phase.PLAYING:
            yield bots[seat], view, legal
        action = bots[seat].choose(view, legal)
        assert action is not None
        m, _ = m.apply_in_place(action)


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6))
def test_the_shortcuts_choose_what_full_scoring_chooses(name: str, seed: int) -> None:
    """The playing bot (forced follows unscored, its memory kept between decisions, leads
    without a copy) plays what a fresh bot scoring every candidate plays."""
    forced = 0
    for bot, view, legal in plays(name, seed):
        full = HeuristicBot(seed=0).shortlist(view, legal, 1)[0]  # scores every candidate
        assert bot.choose(view, legal) == full
        if view.trick and view.ctx is not None:
            lead = analyse_lead(view.trick[0][1], view.ctx, view.ruleset)
            forced += _forced_follow(view.hand_counts, lead, view.ctx) is not None
    assert forced > 0  # a deal always ends with forced follows: the shortcut was taken


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6))
def test_follows_share_the_chance_only_when_they_do_not_take_the_trick(
    name: str, seed: int
) -> None:
    """Each legal follow scores the same on one outlook (the shared chance kept) as on a
    fresh outlook of its own."""
    for bot, view, legal in plays(name, seed):
        if not view.trick or view.ctx is None:
            continue
        lead = analyse_lead(view.trick[0][1], view.ctx, view.ruleset)
        shared = bot._outlook(view, view.ctx, lead)
        for i, action in enumerate(legal):
            if i >= 12:
                break
            assert isinstance(action, Play)
            alone = HeuristicBot(seed=0)._outlook(view, view.ctx, lead)
            assert shared.score(action.cards, lead, lead.cards) == alone.score(
                action.cards, lead, lead.cards
            )


def _single_steps_as_whole_trick(name: str, seed: int) -> int:
    """Check every legal follow of one seeded deal; how many were singles."""
    singles = 0
    for bot, view, legal in plays(name, seed):
        if not view.trick or view.ctx is None:
            continue
        lead = analyse_lead(view.trick[0][1], view.ctx, view.ruleset)
        o = bot._outlook(view, view.ctx, lead)
        for action in legal:
            assert isinstance(action, Play)
            table = [*o.plays, (o.seat, action.cards)]
            wi = trick_winner([c for _, c in table], view.ctx, view.ruleset)
            assert o.side_wins(action.cards, lead) == o._side_wins(lead, *table[wi])
            singles += len(action.cards) == 1
    return singles


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6))
def test_a_single_follow_is_compared_as_the_whole_trick_would_be(name: str, seed: int) -> None:
    """``side_wins`` compares a single with the table's best alone: the same chance as
    finding the winner of the whole trick with the follow added (``trick_winner``)."""
    _single_steps_as_whole_trick(name, seed)


def test_a_classic_deal_has_single_follows() -> None:
    """The check above is not empty: a classic deal has many single follows."""
    assert _single_steps_as_whole_trick("classic", 1) > 20


def _only_suit_scores_as_whole(name: str, seed: int) -> int:
    """Check every single followed in its suit in one seeded deal; how many were."""
    checked = 0
    for _bot, view, legal in plays(name, seed):
        if not view.trick or view.ctx is None:
            continue
        lead = analyse_lead(view.trick[0][1], view.ctx, view.ruleset)
        if lead.size != 1 or not suit_count(view.hand_counts, lead.suit, view.ctx):
            continue
        only = HeuristicBot(seed=0)._outlook(view, view.ctx, lead, lead.suit)
        whole = HeuristicBot(seed=0)._outlook(view, view.ctx, lead)
        for action in legal:
            assert isinstance(action, Play)
            assert only.score(action.cards, lead, lead.cards) == whole.score(
                action.cards, lead, lead.cards
            )
            checked += 1
    return checked


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6))
def test_a_single_followed_in_suit_scores_as_on_a_whole_outlook(name: str, seed: int) -> None:
    """An outlook that works out the worth of the led suit's cards only (``only_suit``)
    scores every legal follow of a single lead as the whole outlook does."""
    _only_suit_scores_as_whole(name, seed)


def test_a_classic_deal_has_singles_followed_in_suit() -> None:
    """The check above is not empty: a classic deal has many such follows."""
    assert _only_suit_scores_as_whole("classic", 1) > 20


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6))
def test_safe_throws_are_the_plain_ones(name: str, seed: int) -> None:
    """A suit held without a pair and with fewer than two cards above every unseen one is
    passed over at once: every lead finds the throws the long way (``_boss_throw``) finds."""
    for bot, view, _legal in plays(name, seed):
        if view.trick or view.ctx is None:
            continue
        o = bot._outlook(view, view.ctx, None)
        for s in range(5):
            pc = pos_counts_from_hand(view.hand_counts, s, view.ctx)
            assert bot._safe_throw(o, s, pc) == bot._boss_throw(o, s, pc)


def _memory_fields(m: Memory) -> tuple[object, ...]:
    return (m.played, m.unseen, m.voids, m.pairless, m.tricks_seen, m.unseen_total,
            m.unseen_points)


@settings(max_examples=len(EVERY_PRESET), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(EVERY_PRESET), seed=st.integers(0, 10**6),
       at=st.integers(8, 60))
def test_rollout_players_remember_as_fresh_bots_in_every_world(
    name: str, seed: int, at: int
) -> None:
    """Rollout players kept from world to world of one position (as a search keeps them)
    start each world from their checkpoint of the position's tricks: at every decision of
    every world their memory is the one a fresh bot builds from the first trick."""
    view = None
    for i, (_bot, v, _legal) in enumerate(plays(name, seed)):
        view = v
        if i == at:
            break
    assert view is not None and view.ctx is not None
    rng = random.Random(seed)
    players = [HeuristicBot(seed=k) for k in range(view.ruleset.players)]
    for _world in range(3):
        state = state_from_view(view, *sample_hidden(view, rng))
        while state.phase is Phase.PLAYING:
            seat = state.to_act
            assert seat is not None
            v = view_for(state, seat)
            assert v.ctx is not None
            kept = players[seat]._memory(v, v.ctx)
            assert _memory_fields(kept) == _memory_fields(HeuristicBot(seed=0)._memory(v, v.ctx))
            legal = state.legal_actions(seat)
            action = players[seat].choose(v, legal)
            assert action is not None
            state.apply_in_place(action)


def test_forced_follows() -> None:
    """The whole hand on the last trick; every card of the suit when it has just as many;
    the only kind of the suit for a single; otherwise nothing is forced."""
    ctx, rs = context(8, 1), PRESETS["classic"]

    def forced(lead: str, hand: str) -> str | None:
        counts = [0] * 54
        for c in parse_cards(hand):
            counts[c] += 1
        got = _forced_follow(tuple(counts), analyse_lead(tuple(parse_cards(lead)), ctx, rs), ctx)
        return None if got is None else cards_str(got)

    assert forced("S9 S9", "S3 HA") == "S3 HA"  # the last trick: the whole hand
    assert forced("S9 S9", "S3 S4 HA") == "S3 S4"  # both spades
    assert forced("S9", "S3 S3 HA D4") == "S3"  # one kind of spade
    assert forced("S9", "S3 S4 HA") is None  # two spades to choose from
    assert forced("S9", "HA D4") is None  # void: a discard or a ruff to choose
