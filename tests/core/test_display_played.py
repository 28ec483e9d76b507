"""The played-cards panel (记牌器) and the hand's suit groups (``table_facts``): the cards
played so far per effective suit, how many of each suit a seat has not seen, and the sizes
of the hand's runs of one suit, so that a client may reorder whole groups without knowing
which card is which suit. Checked against the deal itself on random deals of every preset."""

from __future__ import annotations

import pytest

from shengji.core.cards import cards_str, parse_cards
from shengji.core.display import (
    SUIT_NAMES,
    _runs,
    _trump_context,
    hand_groups,
    played_by_suit,
    played_counts,
    seat_played,
    shared_facts,
    table_facts,
)
from shengji.core.order import TRUMP
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.state import DealState, display_order
from tests.core.test_views_display import _random_deal


def _aids(name: str) -> Ruleset:
    """The preset with its card counter on (tournament rooms have none: Decision 140)."""
    return PRESETS[name].replace({"player_aids": True})


def _played_so_far(state: DealState) -> list[int]:
    cards = [c for t in state.tricks for _, cs in t.plays for c in cs]
    return cards + [c for _, cs in state.trick for c in cs]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_played_cards_and_unseen_counts_add_up(name: str) -> None:
    rs = _aids(name)
    for state, _ in _random_deal(name, 3, rs):
        played = sorted(_played_so_far(state))
        for seat in (*range(rs.players), None):
            f = table_facts(state, seat)
            assert sorted(c for g in f.played for c in g.cards) == played
            assert len({g.suit for g in f.played}) == len(f.played)
            if f.played:
                assert f.played[0].suit == TRUMP
            mine = 0 if seat is None else sum(state.hands[seat])
            kitty = 0
            if (
                seat == state.kitty_holder
                and not state.kitty_kept
                and state.phase in (Phase.CALLING, Phase.PLAYING, Phase.DONE)
            ):
                kitty = len(state.kitty)
            unseen = sum(g.unseen for g in f.played)
            assert unseen + len(played) + mine + kitty == 54 * rs.decks
            assert all(g.unseen >= 0 for g in f.played)
            if seat is not None:  # the groups cover the hand, one run per suit
                assert sum(f.hand_groups) == len(f.hand)
                assert len(f.hand_groups) <= len(f.played)
                assert all(n > 0 for n in f.hand_groups)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_played_counts_match_a_recount_at_every_step(name: str) -> None:
    """The finished tricks' counts are kept between updates (by the tricks' identity): at
    every step, and asked twice, they equal a count of the deal's played cards."""
    for state, _ in _random_deal(name, 4):
        want = [0] * 54
        for c in _played_so_far(state):
            want[c] += 1
        assert list(played_counts(state)) == want
        assert list(played_counts(state)) == want


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_seats_cards_worked_out_in_one_pass_equal_each_worked_out_apart(name: str) -> None:
    """``table_facts`` sorts the hand, groups it and counts the unseen cards of each suit
    in one pass (from the spectator's panel); each equals its own reference function."""
    rs = _aids(name)
    for state, _ in _random_deal(name, 6, rs):
        for seat in range(rs.players):
            f = table_facts(state, seat)
            ctx = _trump_context(state, seat)
            hand = _runs(display_order(ctx), state.hands[seat])
            assert f.hand == hand
            assert f.hand_groups == hand_groups(ctx, hand)
            assert f.played == played_by_suit(state, seat, ctx)


def test_a_table_without_aids_shows_no_card_counter_and_the_same_hand() -> None:
    """Tournament: "不许查牌" — ``played`` is empty for every seat and a spectator; the hand,
    its groups and every other fact are those of the same deal with the counter on."""
    on, off = _random_deal("tournament", 3, _aids("tournament")), _random_deal("tournament", 3)
    assert not PRESETS["tournament"].player_aids and len(on) == len(off)
    for (a, _), (b, _) in zip(on, off, strict=True):
        for seat in (*range(4), None):
            fa, fb = table_facts(a, seat), table_facts(b, seat)
            assert fb.played == () and (fa.played != () or seat is None)
            assert (fa.hand, fa.hand_groups, fa.options, fa.point_cards) == (
                fb.hand, fb.hand_groups, fb.options, fb.point_cards)


def test_a_play_shows_under_its_effective_suit() -> None:
    """Level 2, hearts trump: H2 S2 and the jokers are trump, SA is a spade."""
    for state, _ in _random_deal("classic", 5):
        if state.phase is Phase.PLAYING and state.trick and state.trump is not None:
            f = table_facts(state, None)
            by_suit = {SUIT_NAMES[g.suit]: cards_str(g.cards) for g in f.played}
            seat, cards = state.trick[-1]
            ctx = state.ctx
            assert ctx is not None
            for c in cards:
                letter = "T" if ctx.is_trump(c) else SUIT_NAMES[ctx.esuit[c]]
                assert cards_str((c,)) in by_suit[letter].split()
            assert seat in range(4)
            return
    pytest.fail("no trick was played")


def test_a_hand_splits_into_runs_of_one_suit() -> None:
    state = next(s for s, _ in _random_deal("classic", 11) if s.phase is Phase.PLAYING)
    f = table_facts(state, 0)
    ctx = state.ctx
    assert ctx is not None
    runs: list[list[int]] = []
    start = 0
    for n in f.hand_groups:
        runs.append(list(f.hand[start : start + n]))
        start += n
    suits = [{ctx.esuit[c] for c in run} for run in runs]
    assert all(len(s) == 1 for s in suits)
    assert len({next(iter(s)) for s in suits}) == len(suits)
    assert parse_cards(cards_str(f.hand)) == list(f.hand)


@pytest.mark.parametrize("name", ["classic", "four-deck", "find-friend", "tournament"])
def test_a_seats_counts_of_some_suits_equal_those_of_its_whole_facts(name: str) -> None:
    """``seat_played`` (a delta's ``played_suits``: only some suits' counts) equals the
    groups of those suits in the seat's whole ``table_facts``."""
    rs = PRESETS[name]
    for i, (state, _) in enumerate(_random_deal(name, 5, rs)):
        shared = shared_facts(state)
        suits = frozenset({i % 5, (i * 3 + 1) % 5})
        for seat in range(rs.players):
            whole = table_facts(state, seat, shared).played
            assert seat_played(state, seat, shared, suits) == tuple(
                g for g in whole if g.suit in suits
            )
