"""The display facts a table shows (``core.display.table_facts``): trump marks, the hand's
order, a seat's choices, roles, the attackers' goal and their point pile. The browser
computes none of these, so they are checked here against the rules."""

from __future__ import annotations

import itertools
import random

import pytest

from shengji.core.actions import Deal, Declare, Play
from shengji.core.cards import cards_str, points
from shengji.core.display import table_facts
from shengji.core.events import FriendRevealed
from shengji.core.legal import legal_actions
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState
from tests.core.dealkit import C, deal_out, pass_round, stacked, step


def _random_deal(
    name: str, seed: int, ruleset: Ruleset | None = None
) -> list[tuple[DealState, list[object]]]:
    """Every state of one random deal of a preset (or ``ruleset``), with the events that led
    to it."""
    rng = random.Random(seed)
    m = MatchState.new(PRESETS[name] if ruleset is None else ruleset, seed=seed)
    out: list[tuple[DealState, list[object]]] = [(m.deal, [])]
    deal_no = m.deal.deal_no
    while True:
        seat = m.to_act
        assert seat is not None
        before = m.deal
        action = m.legal_actions(seat).sample(rng)
        m, events = m.apply(action)
        if m.deal.deal_no != deal_no or m.is_over:
            final, _ = before.apply(action)
            out.append((final, list(events)))
            return out
        out.append((m.deal, list(events)))


def _until_declared(s: DealState, seat: int, cards: str) -> DealState:
    """Deal until ``seat`` may declare ``cards``, then declare them."""
    want = Declare(seat, tuple(C(cards)))
    while not s.is_legal(want):
        s = step(s, Deal())
    return step(s, want)


def test_two_colour_marks_the_partner_suit_as_trump() -> None:
    """Seed 002, 两色: "the two black suits are one suit and the two red suits are another"
    — so with hearts trump every diamond is trump too, and sorts with the trumps."""
    s = stacked(preset("two-color"), {0: "H2 DA D3 SA CK"}, level="2", dealer=0)
    s = deal_out(_until_declared(s, 0, "H2"))
    tentative = table_facts(s, 1)  # before the window closes: under the standing H2
    assert {"DA", "D3", "HA", "H3"} <= set(cards_str(tentative.trumps).split())
    s = pass_round(s)
    facts = table_facts(s, 0)
    trumps = set(cards_str(facts.trumps).split())
    reds = {cards_str([k]) for k in range(26, 39)} | {cards_str([k]) for k in range(13, 26)}
    assert reds <= trumps  # every ♥ and every ♦
    assert trumps - reds == {"BJ", "LJ", "S2", "C2"}  # jokers and the black level cards
    hand = facts.hand
    first_plain = next(i for i, k in enumerate(hand) if cards_str([k]) not in trumps)
    assert all(cards_str([k]) not in trumps for k in hand[first_plain:])  # trumps come first


def test_before_any_declaration_the_level_cards_and_jokers_are_marked() -> None:
    s = DealState.new(preset("classic"), seed=1, level=8, dealer=0)  # level 10
    assert cards_str(table_facts(s, None).trumps) == "BJ LJ S10 H10 D10 C10"


def test_permanent_twos_are_marked_as_trump() -> None:
    """Four decks (常主): the 2s are always trump."""
    s = DealState.new(preset("four-deck"), seed=1, level=5, dealer=0)  # level 7
    marks = cards_str(table_facts(s, None).trumps).split()
    assert {"S2", "H2", "D2", "C2", "S7", "D7"} <= set(marks) and "SA" not in marks


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_options_are_the_seats_legal_choices_other_than_cards(name: str) -> None:
    for state, _ in _random_deal(name, seed=11):
        for seat in range(state.players):
            facts = table_facts(state, seat)
            legal = legal_actions(state, seat)
            small = legal.small if legal.kind == "list" else []
            assert list(facts.options) == [a for a in small if not isinstance(a, Deal | Play)]
            assert all(state.is_legal(a) for a in facts.options)
        assert table_facts(state, None).options == ()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_point_pile_adds_up_to_the_attackers_points(name: str) -> None:
    """What the table shows: the attackers' points are their point cards plus penalties
    (plus the kitty's gain once the deal is over), at every step of a deal."""
    for seed in (2, 3):
        for state, _ in _random_deal(name, seed):
            f = table_facts(state, None)
            gain = state.result.kitty_gain if state.result else 0
            assert sum(points(c) for c in f.point_cards) + f.penalty_points + gain == (
                state.attacker_points
            )
            if not PRESETS[name].failed_throw_penalty:
                assert f.penalty_points == 0


def test_a_revealed_friend_takes_its_earlier_tricks_off_the_attackers_pile() -> None:
    """Seed 002 找朋友: the friend is on the dealer's side from the start, so the points it
    won before it showed itself were never the attackers': once revealed they leave the
    attackers' pile (a summary once said 170 while the cards shown added up to 180)."""
    for seed in range(300):
        states = _random_deal("find-friend", seed)
        for (before, _), (after, events) in itertools.pairwise(states):
            reveal = [e for e in events if isinstance(e, FriendRevealed)]
            if not reveal:
                continue
            friend = reveal[0].seat
            earlier = sum(t.points for t in before.tricks if t.winner == friend)
            if earlier == 0:
                break
            pile_before = sum(points(c) for c in table_facts(before, None).point_cards)
            shown = table_facts(after, None)
            assert table_facts(before, None).roles[friend] is None  # hidden until now
            assert shown.roles[friend] == "friend"
            assert {r for i, r in enumerate(shown.roles) if i not in after.defenders} == {
                "attacker"
            }
            # this play's own trick may have ended too; count the tricks before it only
            still = sum(
                points(c)
                for t in after.tricks[: len(before.tricks)]
                if t.winner not in after.defenders
                for _, cs in t.plays
                for c in cs
            )
            assert still == pile_before - earlier
            assert sum(points(c) for c in shown.point_cards) == after.attacker_points
            return
    pytest.fail("no seed revealed a friend that had won points before")


def test_roles_and_goal_per_partnership() -> None:
    classic = DealState.new(preset("classic"), seed=1, level=0, dealer=1)
    f = table_facts(classic, None)
    assert f.roles == ("attacker", "dealer", "attacker", "partner") and f.teams == (0, 1, 0, 1)
    assert f.goal == 80
    friend = DealState.new(preset("find-friend"), seed=1, level=0, dealer=2)
    f = table_facts(friend, None)
    assert f.roles == (None, None, "dealer", None) and f.teams == () and f.goal == 80
    bidding = DealState.new(preset("three-player"), seed=1, level=0)
    f = table_facts(bidding, None)
    assert f.roles == (None, None, None) and f.goal is None  # the auction sets both
    assert table_facts(DealState.new(preset("four-deck"), seed=1), None).goal == 160


def test_bury_count_is_the_kitty_less_what_a_swap_left() -> None:
    """竞标 反牌 (rules.md): the overturning seat takes ``rebury_swap`` kitty cards and
    buries as many, so the burial holds 6 cards there, not the kitty's 9."""
    rs = preset("three-player")
    for seed in range(200):
        rng = random.Random(seed)
        s = DealState.new(rs, seed=seed, level=0)
        assert table_facts(s, 0).bury_count == 9
        while s.phase not in (Phase.PLAYING, Phase.DONE):
            seat = s.to_act
            legal = legal_actions(s, seat if seat is not None else -1)
            overturns = [a for a in legal.small if isinstance(a, Declare)]
            if s.phase is Phase.REBURY and overturns:
                s = step(s, overturns[0])
                assert s.kitty_kept and s.phase is Phase.BURYING
                assert table_facts(s, s.kitty_holder).bury_count == rs.rebury_swap == 6
                assert table_facts(s, None).bury_count == 6  # the kitty backs everyone sees
                return
            s = step(s, legal.sample(rng))
    pytest.fail("no seed gave a 反底 overturn")


def test_the_hand_is_shown_in_display_order_while_dealing() -> None:
    """Before trump is fixed the hand is ordered as if the standing declaration were
    trump: jokers, level cards (the declared suit's first), that suit, then the others."""
    s = stacked(preset("classic"), {0: "H2 HA H5 SA S3 BJ"}, level="2", dealer=0)
    s = deal_out(_until_declared(s, 0, "H2"))
    hand = cards_str(table_facts(s, 0).hand).split()
    assert hand[0] in ("BJ", "LJ", "H2")
    hearts = [i for i, c in enumerate(hand) if c.startswith("H") and c != "H2"]
    spades = [i for i, c in enumerate(hand) if c.startswith("S") and c != "S2"]
    if hearts and spades:
        assert max(hearts) < min(spades)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_view_is_a_whole_named_tuple_of_its_state(name: str) -> None:
    # views are made as plain tuples for speed: each has every field, by name and place
    from shengji.core.views import DealView, public_view, view_for

    rs = PRESETS[name]
    m = MatchState.new(rs, seed=3, first_dealer=0)
    rng = random.Random(3)
    for _ in range(160):
        deal = m.deal
        if deal.phase is Phase.DONE or m.is_over:
            break
        for seat in (None, *range(rs.players)):
            v = public_view(deal) if seat is None else view_for(deal, seat)
            assert type(v) is DealView and len(v) == len(DealView._fields)
            assert v == DealView(*v) and v.seat == seat and v.phase is deal.phase
            assert v.hand_sizes == deal.hand_sizes and v.rights == deal.rights
        actor = deal.to_act
        assert actor is not None
        m, _ = m.apply(Deal() if actor < 0 else m.legal_actions(actor).sample(rng))
