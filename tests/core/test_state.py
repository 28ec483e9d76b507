"""Scenario tests for the deal state machine (RULES.md §4–§7), phase by phase.

Every deal is a real ``DealState`` driven through ``apply``; ``stacked`` only chooses the
order of the pack. Every refused action is checked for its ``Reason`` and for leaving the
state exactly as it was (``assert_illegal``).
"""

from __future__ import annotations

import pytest

from shengji.core.actions import SYSTEM, Bury, Deal, Declare, Pass, Play
from shengji.core.cards import (
    BJ,
    CLUBS,
    DIAMONDS,
    HEARTS,
    NO_TRUMP,
    SPADES,
    cards_str,
    points_of,
)
from shengji.core.errors import Reason
from shengji.core.events import (
    CardCountDealt,
    CardDealt,
    DealEnded,
    Declared,
    KittyBuried,
    KittyRevealed,
    KittyTaken,
    Passed,
    Played,
    ThrowFailed,
    TrickWon,
    TrumpFixed,
    visible,
)
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, preset
from shengji.core.state import DealState
from shengji.core.views import public_view, view_for
from tests.core.dealkit import (
    C,
    Step,
    assert_illegal,
    bury_back,
    deal_out,
    find_deal,
    pass_round,
    snapshot,
    stacked,
    step,
    to_play,
)

CLASSIC = PRESETS["classic"]


def d(seat: int, cards: str) -> Declare:
    return Declare(seat, tuple(C(cards)))


def p(seat: int, cards: str) -> Play:
    return Play(seat, tuple(C(cards)))


def deal_all_but_last(s: DealState) -> DealState:
    """Deal until one card is left (still DEALING; stacked cards are dealt first)."""
    total = s.players * s.ruleset.hand_size
    while s.n_dealt < total - 1:
        s = step(s, Deal())
    assert s.phase is Phase.DEALING
    return s


def last_declared(events: list) -> Declared:
    (e,) = [e for e in events if isinstance(e, Declared)]
    return e


# ---------------------------------------------------------------------------- dealing


@pytest.mark.parametrize("dealer", [0, 1, 2, 3, None])
def test_dealing_gives_one_card_at_a_time_in_seat_order_from_the_start_seat(dealer):
    s = DealState.new(CLASSIC, seed=11, level=0, dealer=dealer)
    start = 0 if dealer is None else dealer
    assert s.phase is Phase.DEALING and s.to_act == SYSTEM
    assert s.hand_sizes == (0, 0, 0, 0)
    total = 4 * CLASSIC.hand_size
    for i in range(total):
        assert [str(a) for a in s.legal_actions(SYSTEM)] == ["deal"]
        before = s.hand_sizes
        s2, events = s.apply(Deal())
        seat = (start + i) % 4
        card = s.deck[i]
        assert events == [CardDealt(seat, seat, card), CardCountDealt(None, seat)]
        assert [b - a for a, b in zip(before, s2.hand_sizes, strict=True)] == [
            int(q == seat) for q in range(4)
        ]
        assert s2.hands[seat][card] == s.hands[seat][card] + 1
        assert s.n_dealt == i and s2.n_dealt == i + 1  # the old state did not move
        s = s2
    assert s.phase is Phase.DECLARING
    assert s.to_act == start
    assert s.hand_sizes == (CLASSIC.hand_size,) * 4
    assert len(s.kitty) == CLASSIC.kitty_size
    assert sorted(s.kitty) == sorted(s.deck[total:])


def test_kitty_stays_out_of_every_hand_while_dealing():
    s = deal_out(DealState.new(CLASSIC, seed=3, level=0, dealer=0))
    counts = [sum(s.hands[p][k] for p in range(4)) for k in range(54)]
    for k in s.kitty:
        counts[k] += 1
    assert counts == [2] * 54


def test_actions_of_other_phases_are_refused_while_dealing():
    s = step(DealState.new(CLASSIC, seed=1, level=0, dealer=0), Deal())
    card = s.hand(0)[0]
    assert_illegal(s, Pass(0), Reason.WRONG_PHASE)
    assert_illegal(s, Bury(0, (card,)), Reason.WRONG_PHASE)
    assert_illegal(s, Play(0, (card,)), Reason.WRONG_PHASE)


def test_deal_is_refused_once_every_card_is_out():
    s = deal_out(DealState.new(CLASSIC, seed=1, level=0, dealer=0))
    assert_illegal(s, Deal(), Reason.WRONG_PHASE)
    assert not s.legal_actions(SYSTEM)


# ---------------------------------------------------------------------------- declarations


@pytest.fixture
def declaring() -> DealState:
    """Classic, level 2, dealer 0; everything dealt but the last card."""
    s = stacked(
        CLASSIC,
        {0: "S5", 1: "H2 H2 S2", 2: "S2 LJ LJ C2", 3: "D2 D2 BJ BJ"},
        level="2",
        dealer=0,
    )
    return deal_all_but_last(s)


def test_a_single_level_card_declares_its_suit(declaring):
    s, events = declaring.apply(d(1, "H2"))
    assert events == [Declared(None, 1, tuple(C("H2")), HEARTS, False, False)]
    assert s.declaration is not None and s.declaration.seat == 1
    assert s.declaration.trump == HEARTS
    assert s.stake == 1 and s.phase is Phase.DEALING
    assert declaring.declaration is None  # the old state is untouched


def test_a_pair_of_another_seat_overturns_a_single_and_doubles_the_stake(declaring):
    s = step(declaring, d(1, "H2"))
    s2, events = s.apply(d(3, "D2 D2"))
    assert events == [Declared(None, 3, tuple(C("D2 D2")), DIAMONDS, True, False)]
    assert s2.declaration is not None and s2.declaration.trump == DIAMONDS
    assert s2.stake == 2


def test_weaker_or_equal_declarations_are_refused(declaring):
    s = step(declaring, d(1, "H2"))
    assert_illegal(s, d(2, "S2"), Reason.BAD_DECLARATION)  # single on single
    assert_illegal(s, d(1, "H2"), Reason.BAD_DECLARATION)  # the same again
    s = step(s, d(3, "D2 D2"))
    assert_illegal(s, d(1, "H2 H2"), Reason.BAD_DECLARATION)  # pair on pair
    assert_illegal(s, d(2, "S2"), Reason.BAD_DECLARATION)
    s = step(s, d(3, "BJ BJ"))
    assert_illegal(s, d(2, "LJ LJ"), Reason.BAD_DECLARATION)  # small jokers under big ones
    assert_illegal(s, d(1, "H2 H2"), Reason.BAD_DECLARATION)


def test_shapes_that_are_no_declaration_are_refused(declaring):
    assert_illegal(declaring, d(0, "S5"), Reason.BAD_DECLARATION)  # not a level card
    assert_illegal(declaring, d(3, "BJ"), Reason.BAD_DECLARATION)  # one joker
    assert_illegal(declaring, d(2, "S2 C2"), Reason.BAD_DECLARATION)  # two suits
    assert_illegal(declaring, d(2, "LJ S2"), Reason.BAD_DECLARATION)


def test_an_empty_declaration_is_refused(declaring):
    assert_illegal(declaring, Declare(1, ()), Reason.BAD_DECLARATION)
    assert_illegal(declaring, Declare(1, (99,)), Reason.BAD_NOTATION)


def test_two_colour_red_level_cards_pair_up():
    rs = PRESETS["two-color"]
    s = deal_all_but_last(stacked(rs, {1: "H2 D2", 2: "S2 C2"}, level="2", dealer=0))
    s = step(s, d(1, "H2"))
    s2 = step(s, d(2, "S2 C2"))  # black pair: ♠2 ♣2
    assert s2.declaration.count == 2 and s2.declaration.trump == SPADES
    s3 = step(s, d(1, "H2 D2"))  # 自保 with a red pair
    assert s3.declaration.count == 2 and s3.declaration.trump == HEARTS
    mixed = deal_all_but_last(stacked(rs, {1: "H2 S2"}, level="2", dealer=0))
    assert_illegal(mixed, d(1, "H2 S2"), Reason.BAD_DECLARATION)


def test_declaring_cards_one_does_not_hold_is_refused(declaring):
    assert_illegal(declaring, d(0, "H2"), Reason.NOT_IN_HAND)
    assert_illegal(declaring, d(1, "S2 S2"), Reason.NOT_IN_HAND)
    assert_illegal(declaring, d(7, "H2"), Reason.NOT_YOUR_TURN)


def test_a_joker_pair_overturns_to_no_trump_and_big_jokers_beat_small_ones(declaring):
    s = step(declaring, d(1, "H2 H2"))
    s, events = s.apply(d(2, "LJ LJ"))
    assert last_declared(events).trump == NO_TRUMP and last_declared(events).overturn
    s, events = s.apply(d(3, "BJ BJ"))
    assert s.declaration is not None and s.declaration.cards == (BJ, BJ)
    assert s.declaration.trump == NO_TRUMP
    assert s.stake == 4


@pytest.mark.parametrize("allowed", [True, False])
def test_reinforce_self_protection_follows_the_ruleset(allowed):
    rs = preset("classic", {"allow_reinforce": allowed})
    s = deal_all_but_last(stacked(rs, {1: "H2 H2"}, level="2", dealer=0))
    s = step(s, d(1, "H2"))
    if allowed:
        s2, events = s.apply(d(1, "H2 H2"))
        assert last_declared(events) == Declared(None, 1, tuple(C("H2 H2")), HEARTS, False, False)
        assert s2.stake == 1  # 自保 is no overturn
        assert s2.declaration is not None and s2.declaration.count == 2
    else:
        assert_illegal(s, d(1, "H2 H2"), Reason.BAD_DECLARATION)


@pytest.mark.parametrize("allowed", [True, False])
def test_self_overturn_follows_the_ruleset(allowed):
    rs = preset("classic", {"allow_self_overturn": allowed})
    s = deal_all_but_last(stacked(rs, {1: "H2 S2 S2 LJ LJ"}, level="2", dealer=0))
    s = step(s, d(1, "H2"))
    if allowed:
        s2 = step(s, d(1, "S2 S2"))
        assert s2.declaration is not None and s2.declaration.trump == SPADES
        assert s2.declaration.seat == 1
        # and again with jokers
        assert step(s2, d(1, "LJ LJ")).declaration.trump == NO_TRUMP
    else:
        assert_illegal(s, d(1, "S2 S2"), Reason.BAD_DECLARATION)
        assert_illegal(s, d(1, "LJ LJ"), Reason.BAD_DECLARATION)


def test_the_first_pair_shown_stands(declaring):
    """Among reinforce / overturn / self-overturn the first shown stands."""
    s = step(declaring, d(1, "H2"))
    s = step(s, d(1, "H2 H2"))  # 自保
    assert_illegal(s, d(3, "D2 D2"), Reason.BAD_DECLARATION)
    assert step(s, d(3, "BJ BJ")).declaration.trump == NO_TRUMP


def test_listed_declarations_are_exactly_the_accepted_ones(declaring):
    s = step(declaring, d(1, "H2"))
    for seat in range(4):
        listed = set(s.legal_actions(seat))
        for cards in ["H2", "H2 H2", "S2", "D2", "D2 D2", "C2", "LJ LJ", "BJ BJ", "S2 D2"]:
            action = d(seat, cards)
            assert (action in listed) == s.is_legal(action), (seat, cards)


def test_tournament_call_fix_and_overturn():
    rs = PRESETS["tournament"]
    s = deal_all_but_last(
        stacked(rs, {1: "H2 H2 S2 S2", 2: "D2 D2 LJ LJ", 3: "C2 C2"}, level="2", dealer=0)
    )
    s = step(s, d(1, "H2"))  # 叫主
    assert_illegal(s, d(1, "S2 S2"), Reason.BAD_DECLARATION)  # the caller may not overturn
    assert_illegal(s, d(3, "C2"), Reason.BAD_DECLARATION)
    over = step(s, d(2, "D2 D2"))  # 翻主 with a pair
    assert over.declaration.trump == DIAMONDS and over.stake == 2
    s = step(s, d(1, "H2 H2"))  # 定主
    assert s.declaration.count == 2 and s.stake == 1
    assert_illegal(s, d(2, "D2 D2"), Reason.BAD_DECLARATION)  # after 定主 only jokers
    assert_illegal(s, d(3, "C2 C2"), Reason.BAD_DECLARATION)
    s = step(s, d(2, "LJ LJ"))
    assert s.declaration.trump == NO_TRUMP and s.stake == 2


def test_three_deck_grab_ladder():
    """One level card < two < two jokers < three < three jokers; strictly higher only."""
    rs = PRESETS["three-deck"]
    s = deal_all_but_last(
        stacked(
            rs,
            {0: "H2 BJ BJ BJ", 1: "S2 S2 S2", 2: "LJ LJ LJ", 3: "D2 D2 D2"},
            level="2",
            dealer=0,
        )
    )
    s = step(s, d(0, "H2"))
    assert_illegal(s, d(3, "D2"), Reason.BAD_DECLARATION)
    s = step(s, d(1, "S2 S2"))
    assert_illegal(s, d(3, "D2 D2"), Reason.BAD_DECLARATION)
    s = step(s, d(2, "LJ LJ"))
    assert s.declaration.trump == NO_TRUMP
    assert_illegal(s, d(1, "S2 S2"), Reason.BAD_DECLARATION)
    s = step(s, d(3, "D2 D2 D2"))
    assert s.declaration.trump == DIAMONDS
    assert_illegal(s, d(0, "BJ BJ"), Reason.BAD_DECLARATION)
    assert_illegal(s, d(1, "S2 S2 S2"), Reason.BAD_DECLARATION)
    s = step(s, d(0, "BJ BJ BJ"))
    assert s.declaration.trump == NO_TRUMP and s.declaration.count == 3
    assert_illegal(s, d(2, "LJ LJ LJ"), Reason.BAD_DECLARATION)
    assert s.stake == 16


# ---------------------------------------------------------------------------- 4 decks, hidden


@pytest.fixture
def hidden() -> DealState:
    rs = preset("four-deck", {"deal_order": "dealer"})  # the window opens at the dealer
    return deal_all_but_last(
        stacked(rs, {0: "S3", 1: "H3 H3 S3 S3 S3", 2: "D3 D3"}, level="3", dealer=0)
    )


def test_hidden_declarations_are_seen_only_by_their_declarer(hidden):
    s, events = hidden.apply(d(1, "H3"))
    assert [e.audience for e in events] == [1]
    assert visible(events, 0) == [] and visible(events, None) == []
    assert view_for(s, 1).declaration == s.declaration
    assert view_for(s, 1).own_declaration == s.declaration
    for seat in (0, 2, 3):
        v = view_for(s, seat)
        assert v.declaration is None and v.own_declaration is None and v.trump is None
    assert public_view(s).declaration is None


def test_hidden_declarations_stand_by_strength_checked_against_ones_own(hidden):
    """4 decks: more cards overturn; a refusal never depends on what others declared."""
    s = step(hidden, d(1, "H3"))
    s = step(s, d(0, "S3"))  # accepted (hidden), but an equal one does not stand
    assert s.declaration.seat == 1
    assert_illegal(s, d(0, "S3"), Reason.BAD_DECLARATION)  # not above one's own
    assert_illegal(s, d(1, "S3 S3"), Reason.BAD_DECLARATION)  # no self-overturn (4 decks)
    assert step(s, d(1, "H3 H3")).declaration.count == 2  # reinforcing is fine
    s2, events = s.apply(d(2, "D3 D3"))  # one more card overturns
    assert s2.declaration.seat == 2 and s2.declaration.trump == DIAMONDS
    assert events[0].audience == 2 and not events[0].overturn  # others' moves stay unknown
    s3 = step(s2, d(1, "H3 H3"))  # equal count: accepted, does not stand
    assert s3.declaration.seat == 2
    assert_illegal(s3, d(1, "S3 S3 S3"), Reason.BAD_DECLARATION)  # still no self-overturn


def test_hidden_declaration_changes_no_other_seats_legal_actions(hidden):
    before = {seat: set(hidden.legal_actions(seat)) for seat in range(4)}
    s = step(hidden, d(2, "D3 D3"))
    for seat in (0, 1, 3):
        assert set(s.legal_actions(seat)) == before[seat]
    assert s.is_legal(d(0, "S3")) and s.is_legal(d(1, "H3"))  # singles still go in


def test_hidden_declaration_is_public_once_trump_is_fixed(hidden):
    s = step(hidden, d(2, "D3 D3"))
    s = step(s, Deal())
    assert s.phase is Phase.DECLARING
    s, events = s.apply(Pass(0))
    for _ in range(3):
        s, events = s.apply(Pass(s.to_act))
    fixed = [e for e in events if isinstance(e, TrumpFixed)]
    assert fixed == [TrumpFixed(None, DIAMONDS, 0, 2, None)]
    assert s.phase is Phase.PLAYING  # no kitty with 4 decks
    for seat in range(4):
        assert view_for(s, seat).declaration == s.declaration
        assert view_for(s, seat).trump == DIAMONDS


def test_a_hidden_overturn_changes_nothing_other_seats_see(hidden):
    s = step(hidden, d(0, "S3"))
    before = {seat: view_for(s, seat) for seat in (0, 3)}
    s2 = step(s, d(2, "D3 D3"))
    for seat in (0, 3):
        assert view_for(s2, seat) == before[seat]


@pytest.mark.parametrize("other", ["S3", "D3 D3"])
def test_a_hidden_declarer_cannot_tell_what_others_declared(hidden, other):
    seat_other = 0 if other == "S3" else 2
    mine = "H3" if other == "S3" else "S3 S3 S3"  # equal to / stronger than the other
    alone, ev_alone = hidden.apply(d(1, mine))
    after = step(hidden, d(seat_other, other))
    both, ev_both = after.apply(d(1, mine))
    assert ev_both == ev_alone
    assert view_for(both, 1) == view_for(alone, 1)


def test_a_hidden_declaration_in_the_window_looks_like_a_pass_to_others(hidden):
    s = step(hidden, Deal())
    assert s.phase is Phase.DECLARING and s.to_act == 0
    declared, ev_declared = s.apply(d(0, "S3"))
    passed, ev_passed = s.apply(Pass(0))
    assert declared.to_act == passed.to_act
    for seat in (1, 2, 3, None):
        assert visible(ev_declared, seat) == visible(ev_passed, seat)


# ---------------------------------------------------------------------------- the window


def test_the_window_opens_at_the_start_seat_and_goes_round():
    s = deal_out(stacked(CLASSIC, {}, level="2", dealer=2))
    assert s.phase is Phase.DECLARING and s.to_act == 2
    assert_illegal(s, Pass(3), Reason.NOT_YOUR_TURN)
    assert_illegal(s, Bury(2, tuple(s.hand(2)[:8])), Reason.WRONG_PHASE)
    assert_illegal(s, Play(2, tuple(s.hand(2)[:1])), Reason.WRONG_PHASE)
    seen = []
    for _ in range(3):
        seen.append(s.to_act)
        s, events = s.apply(Pass(s.to_act))
        assert events == [Passed(None, seen[-1])]
        assert s.phase is Phase.DECLARING
    assert seen == [2, 3, 0]
    s, events = s.apply(Pass(1))
    assert isinstance(events[1], TrumpFixed)
    assert s.phase is Phase.BURYING


def test_every_seat_passes_fixes_trump_and_hands_over_the_kitty():
    s = deal_out(stacked(CLASSIC, {1: "H2"}, level="2", dealer=0))
    s = step(s, Pass(0))
    s = step(s, d(1, "H2"))
    # a declaration in the window restarts the round: every seat must pass again
    for seat in (2, 3, 0):
        s = step(s, Pass(seat))
        assert s.phase is Phase.DECLARING
    assert_illegal(s, Pass(2), Reason.NOT_YOUR_TURN)
    kitty = s.kitty
    s2, events = s.apply(Pass(1))
    assert events == [
        Passed(None, 1),
        TrumpFixed(None, HEARTS, 0, 1, None),
        KittyTaken(0, 0, kitty),
    ]
    assert s2.trump == HEARTS and s2.dealer == 0 and s2.defenders == (0, 2)
    assert s2.phase is Phase.BURYING and s2.kitty_holder == 0 and s2.to_act == 0
    assert s2.hand_sizes == (33, 25, 25, 25)
    assert visible(events, 1) == events[:2]


def test_a_declaration_in_the_window_out_of_turn_is_refused():
    s = deal_out(stacked(CLASSIC, {1: "H2"}, level="2", dealer=0))
    assert_illegal(s, d(1, "H2"), Reason.NOT_YOUR_TURN)


@pytest.mark.parametrize(
    ("name", "options", "kitty", "trump", "turned"),
    [
        ("classic", {}, "", NO_TRUMP, None),
        ("tournament", {}, "D9", DIAMONDS, "D9"),
        ("tournament", {}, "BJ", NO_TRUMP, "BJ"),
        ("tournament", {}, "LJ", NO_TRUMP, "LJ"),
        ("classic", {"no_declaration": "kitty-card"}, "S9 S9 S8 C6", CLUBS, "C6"),
        ("four-deck", {}, "", SPADES, None),
    ],
)
def test_nobody_declares_fallback(name, options, kitty, trump, turned):
    rs = preset(name, options)
    level = "3" if name == "four-deck" else "2"
    s = deal_out(stacked(rs, {}, kitty, level=level, dealer=1))
    s = pass_round(s)
    assert s.trump == trump and s.dealer == 1
    assert s.declaration is None


def test_kitty_card_fallback_event_names_the_turned_card():
    rs = PRESETS["tournament"]
    s = deal_out(stacked(rs, {}, "D9", level="2", dealer=1))
    for _ in range(3):
        s = step(s, Pass(s.to_act))
    s, events = s.apply(Pass(s.to_act))
    assert events[1] == TrumpFixed(None, DIAMONDS, 1, None, C("D9")[0])


# ---------------------------------------------------------------------------- first deal


@pytest.mark.parametrize(("takes", "dealer"), [(True, 2), (False, 1)])
def test_first_deal_declarer_becomes_dealer(takes, dealer):
    rs = preset("classic", {"first_deal_overturn_takes_dealer": takes})
    s = stacked(rs, {1: "H2", 2: "S2 S2"}, level="2", dealer=None)
    assert s.dealer is None and s.first_deal
    s = deal_all_but_last(s)
    s = step(s, d(1, "H2"))
    s = step(s, d(2, "S2 S2"))
    s = step(s, Deal())
    s, events = s.apply(Pass(0))
    for _ in range(3):
        s, events = s.apply(Pass(s.to_act))
    assert events[1] == TrumpFixed(None, SPADES, dealer, 2, None)
    assert s.dealer == dealer and s.kitty_holder == dealer
    assert s.defenders == tuple(q for q in range(4) if q % 2 == dealer % 2)
    s = bury_back(s)
    assert s.phase is Phase.PLAYING and s.to_act == dealer


def test_later_deal_declarer_does_not_take_the_dealer_seat():
    s = stacked(CLASSIC, {1: "H2"}, level="2", dealer=2)
    s = deal_all_but_last(s)
    s = step(s, d(1, "H2"))
    s = pass_round(step(s, Deal()))
    assert s.dealer == 2 and s.kitty_holder == 2 and s.trump == HEARTS


# ---------------------------------------------------------------------------- burying


@pytest.fixture
def burying() -> DealState:
    s = stacked(CLASSIC, {0: "SA", 1: "HA HA", 2: "SA"}, "S3", level="2", dealer=0)
    s = pass_round(deal_out(s))
    assert s.phase is Phase.BURYING
    return s


def test_burying_refusals(burying):
    s = burying
    eight = tuple(s.hand(0)[:8])
    assert_illegal(s, Bury(1, tuple(s.hand(1)[:8])), Reason.NOT_YOUR_TURN)
    assert_illegal(s, Bury(0, eight[:7]), Reason.BAD_KITTY)
    assert_illegal(s, Bury(0, (*eight, s.hand(0)[8])), Reason.BAD_KITTY)
    assert_illegal(s, Bury(0, ()), Reason.BAD_KITTY)
    assert_illegal(s, Bury(0, (*eight[:7], C("HA")[0])), Reason.NOT_IN_HAND)
    assert_illegal(s, Bury(0, (*eight[:6], *C("SA SA"))), Reason.NOT_IN_HAND)
    assert_illegal(s, Pass(0), Reason.WRONG_PHASE)
    assert_illegal(s, d(1, "H2"), Reason.WRONG_PHASE)
    assert_illegal(s, Play(0, eight[:1]), Reason.WRONG_PHASE)
    assert_illegal(s, Deal(), Reason.WRONG_PHASE)


def test_burying_any_eight_cards_of_the_hand(burying):
    s = burying
    hand = s.hand(0)
    assert len(hand) == 33
    cards = tuple(hand[-8:])
    s2, events = s.apply(Bury(0, cards))
    assert events == [KittyBuried(0, 0, cards, 8), KittyBuried(None, 0, (), 8)]
    assert visible(events, 1) == [KittyBuried(None, 0, (), 8)]
    assert sorted(s2.kitty) == sorted(cards)
    assert sorted(s2.hand(0)) == sorted(hand[:-8])
    assert s2.hand_sizes == (25, 25, 25, 25)
    assert s2.phase is Phase.PLAYING and s2.to_act == 0 and s2.leader == 0
    assert view_for(s2, 0).kitty == s2.kitty
    assert view_for(s2, 1).kitty is None and public_view(s2).kitty is None


def test_only_the_holder_sees_the_kitty_while_burying(burying):
    assert view_for(burying, 0).kitty == burying.kitty
    for seat in (1, 2, 3):
        assert view_for(burying, seat).kitty is None


# ---------------------------------------------------------------------------- 反底


REBURY = preset("classic", {"rebury": True})


def rebury_deal(hands: dict[int, str], declare: str | None = None) -> DealState:
    """Classic with 反底, dealer 0 (optionally declaring ``declare`` in the window), buried."""
    s = deal_out(stacked(REBURY, hands, level="2", dealer=0))
    if declare:
        s = step(s, d(0, declare))
        s = step(s, Pass(1))
        s = step(s, Pass(2))
        s = step(s, Pass(3))
        s = step(s, Pass(0))
    else:
        s = pass_round(s)
    s = bury_back(s)
    assert s.phase is Phase.REBURY and s.to_act == 1
    return s


def test_rebury_pair_beats_single_and_takes_the_kitty():
    s = rebury_deal({0: "H2", 1: "D2 D2 S2"}, declare="H2")
    assert s.trump == HEARTS and s.stake == 1
    assert_illegal(s, d(1, "S2"), Reason.BAD_DECLARATION)  # a single never 反底s
    assert_illegal(s, d(2, "D2 D2"), Reason.NOT_YOUR_TURN)
    kitty = s.kitty
    s2, events = s.apply(d(1, "D2 D2"))
    assert events == [
        Declared(None, 1, tuple(C("D2 D2")), DIAMONDS, True, True),
        KittyTaken(1, 1, kitty),
    ]
    assert s2.trump == DIAMONDS and s2.stake == 2
    assert s2.phase is Phase.BURYING and s2.kitty_holder == 1 and s2.to_act == 1
    assert s2.hand_sizes == (25, 33, 25, 25)
    assert s2.dealer == 0 and s2.defenders == (0, 2)
    assert view_for(s2, 1).kitty == kitty and view_for(s2, 0).kitty is None
    assert view_for(s2, 3).declaration.trump == DIAMONDS
    s3 = bury_back(s2)
    assert s3.phase is Phase.REBURY and s3.to_act == 2  # the round goes on after 1


def test_rebury_ladder_and_stake():
    """Pairs: ♦ < ♣ < ♥ < ♠ < small-joker pair < big-joker pair; each 反底 doubles."""
    s = rebury_deal({1: "D2 D2 LJ LJ", 2: "C2 C2 BJ BJ", 3: "H2 H2", 0: "S2 S2"})
    assert s.trump == NO_TRUMP
    order = [(1, "D2 D2"), (2, "C2 C2"), (3, "H2 H2"), (0, "S2 S2"), (1, "LJ LJ"), (2, "BJ BJ")]
    for i, (seat, cards) in enumerate(order):
        assert s.to_act == seat
        for lower_seat, lower in order[:i]:
            if lower_seat == seat:
                assert_illegal(s, d(seat, lower), Reason.BAD_DECLARATION)
        s = step(s, d(seat, cards))
        assert s.kitty_holder == seat and s.stake == 2 ** (i + 1)
        s = bury_back(s)
    assert s.trump == NO_TRUMP and s.rebury_decl.cards == (BJ, BJ)
    # nothing beats a big-joker pair with two decks: three passes start the play
    assert s.to_act == 3
    s = pass_round(s)
    assert s.phase is Phase.PLAYING and s.leader == 0 and s.to_act == 0
    assert s.defenders == (0, 2)


def test_rebury_equal_or_lower_pair_is_refused():
    s = rebury_deal({0: "C2", 1: "C2 H2 H2", 2: "D2 D2"}, declare="C2")
    s = step(s, d(1, "H2 H2"))
    s = bury_back(s)
    assert_illegal(s, d(2, "D2 D2"), Reason.BAD_DECLARATION)


def test_rebury_triple_beats_any_pair_with_three_decks():
    rs = preset("three-deck", {"rebury": True})
    s = deal_out(stacked(rs, {0: "S2 S2 S2", 1: "BJ BJ", 2: "D2 D2 D2"}, level="2", dealer=0))
    s = pass_round(s)
    s = bury_back(s)
    assert s.to_act == 1
    s = bury_back(step(s, d(1, "BJ BJ")))
    s = step(s, d(2, "D2 D2 D2"))
    assert s.trump == DIAMONDS and s.kitty_holder == 2
    s = step(bury_back(s), Pass(3))
    assert_illegal(s, d(0, "S2 S2"), Reason.BAD_DECLARATION)
    assert step(s, d(0, "S2 S2 S2")).trump == SPADES


def test_rebury_round_needs_every_other_seat_to_pass():
    s = rebury_deal({})
    seen = []
    while s.phase is Phase.REBURY:
        seen.append(s.to_act)
        s = step(s, Pass(s.to_act))
    assert seen == [1, 2, 3]
    assert s.phase is Phase.PLAYING


def test_no_rebury_round_without_the_option():
    s = bury_back(pass_round(deal_out(stacked(CLASSIC, {1: "D2 D2"}, level="2", dealer=0))))
    assert s.phase is Phase.PLAYING
    assert_illegal(s, d(1, "D2 D2"), Reason.WRONG_PHASE)


# ---------------------------------------------------------------------------- playing


@pytest.fixture
def playing() -> DealState:
    """Classic, level 2, no trump (nobody declared), dealer 0 leads."""
    s = stacked(
        CLASSIC,
        {
            0: "SQ SQ SK SK SA H3 D9",
            1: "S3 S3 S4 S4 S5 H4",
            2: "S6 H5 H5 SA",
            3: "S7 D3",
        },
        level="2",
        dealer=0,
    )
    s = to_play(s)
    assert s.trump == NO_TRUMP and s.to_act == 0
    return s


def test_wrong_seat_and_wrong_phase_in_play(playing):
    s = playing
    assert_illegal(s, p(1, "S3"), Reason.NOT_YOUR_TURN)
    assert_illegal(s, p(9, "S3"), Reason.NOT_YOUR_TURN)
    assert_illegal(s, Deal(), Reason.WRONG_PHASE)
    assert_illegal(s, Pass(0), Reason.WRONG_PHASE)
    assert_illegal(s, d(0, "S2"), Reason.WRONG_PHASE)
    assert_illegal(s, Bury(0, tuple(s.hand(0)[:8])), Reason.WRONG_PHASE)


def test_lead_refusals(playing):
    s = playing
    assert_illegal(s, p(0, "S3"), Reason.NOT_IN_HAND)
    assert_illegal(s, p(0, "SA SA"), Reason.NOT_IN_HAND)
    assert_illegal(s, Play(0, (99,)), Reason.BAD_NOTATION)
    assert_illegal(s, Play(0, ()), Reason.EMPTY_PLAY)
    assert_illegal(s, p(0, "SA H3"), Reason.MIXED_LEAD)
    assert_illegal(s, p(0, "SQ SQ D9"), Reason.MIXED_LEAD)


def test_a_single_lead_and_its_follows(playing):
    s = step(playing, p(0, "SA"))
    assert s.to_act == 1
    assert_illegal(s, p(1, "S3 S3"), Reason.WRONG_COUNT)
    assert_illegal(s, p(1, "H4"), Reason.MUST_FOLLOW_SUIT)
    assert_illegal(s, p(0, "SK"), Reason.NOT_YOUR_TURN)
    assert_illegal(s, p(1, "H5"), Reason.NOT_IN_HAND)
    s = step(s, p(1, "S5"))
    s = step(s, p(2, "S6"))
    s2, events = s.apply(p(3, "S7"))
    assert events == [
        Played(None, 3, tuple(C("S7"))),
        TrickWon(None, 1, 0, 5, 0),
    ]
    assert s2.leader == 0 and s2.to_act == 0 and s2.trick == ()
    assert s2.tricks[-1].winner == 0 and s2.tricks[-1].points == 5
    assert s2.defender_points == 5 and s2.attacker_points == 0


def test_a_pair_lead_must_be_followed_by_a_pair(playing):
    s = step(playing, p(0, "SK SK"))
    assert_illegal(s, p(1, "S3 S5"), Reason.MUST_FOLLOW_STRUCTURE)
    assert_illegal(s, p(1, "S3 H4"), Reason.MUST_FOLLOW_SUIT)
    s = step(s, p(1, "S4 S4"))
    assert s.to_act == 2


def test_a_tractor_lead_must_be_followed_by_a_tractor(playing):
    s = step(playing, p(0, "SQ SQ SK SK"))
    assert_illegal(s, p(1, "S3 S3 S4 S5"), Reason.MUST_FOLLOW_STRUCTURE)


def test_a_tractor_lead_refusal_changes_nothing(playing):
    s = step(playing, p(0, "SQ SQ SK SK"))
    before = snapshot(s)
    assert not s.is_legal(p(1, "S3 S3 S4 S5"))
    assert snapshot(s) == before
    assert s.is_legal(p(1, "S3 S3 S4 S4"))


# ---------------------------------------------------------------------------- throws


def throw_deal(rs, hands) -> DealState:
    return to_play(stacked(rs, hands, level="2", dealer=0))


@pytest.mark.parametrize("penalty", [0, 10])
def test_a_failed_throw_plays_the_failing_unit_and_penalises_the_defenders(penalty):
    rs = preset("classic", {"failed_throw_penalty": penalty})
    s = throw_deal(rs, {0: "SA SQ", 1: "S3 S6", 2: "SK", 3: "S4"})
    s2, events = s.apply(p(0, "SA SQ"))
    sq = tuple(C("SQ"))
    assert events == [
        ThrowFailed(None, 0, tuple(C("SA SQ")), sq, penalty),
        Played(None, 0, sq),
    ]
    assert s2.trick == ((0, sq),)
    assert s2.hands[0][C("SA")[0]] == s.hands[0][C("SA")[0]]  # the ace goes back
    assert s2.hand_sizes[0] == s.hand_sizes[0] - 1
    assert s2.failed_throws == 1
    assert s2.attacker_points == penalty  # the defenders' failure pays the attackers
    assert_illegal(s2, p(1, "S3 S6"), Reason.WRONG_COUNT)  # followers owe one card
    assert s2.is_legal(p(1, "S3"))


def test_a_failed_throw_by_the_attackers_costs_them_the_penalty():
    rs = preset("classic", {"failed_throw_penalty": 10})
    s = throw_deal(rs, {0: "S3 S8", 1: "SA HA HQ", 2: "S4 HK", 3: "S5"})
    s = step(s, p(0, "S3"))
    s = step(s, p(1, "SA"))
    s = step(s, p(2, "S4"))
    s = step(s, p(3, "S5"))
    assert s.leader == 1 and s.attacker_points == 5
    s2, events = s.apply(p(1, "HA HQ"))
    assert isinstance(events[0], ThrowFailed) and events[0].penalty == 10
    assert s2.trick == ((1, tuple(C("HQ"))),)
    assert s2.attacker_points == 5 - 10


def test_a_throw_nobody_can_beat_stands():
    s = throw_deal(CLASSIC, {0: "SA SA SK"})
    s2, events = s.apply(p(0, "SA SK"))
    assert events == [Played(None, 0, tuple(C("SA SK")))]
    assert s2.failed_throws == 0 and s2.lead.is_throw


@pytest.mark.parametrize("policy", ["never", "others-void"])
def test_throw_policy_refuses(policy):
    rs = preset("classic", {"throw_policy": policy})
    s = throw_deal(rs, {0: "SA SA SK", 1: "S3"})
    e = assert_illegal(s, p(0, "SA SK"), Reason.THROW_NOT_ALLOWED)
    assert e.message
    assert s.is_legal(p(0, "SA"))


def test_others_void_throw_is_allowed_when_every_other_seat_is_void():
    rs = preset("classic", {"throw_policy": "others-void"})
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    spades = " ".join(f"S{r} S{r}" for r in ranks)
    s = throw_deal(rs, {0: spades})
    s2, events = s.apply(p(0, "SA S3"))
    assert events == [Played(None, 0, tuple(C("SA S3")))]
    assert s2.to_act == 1


# ---------------------------------------------------------------------------- the end


def last_step(steps: list[Step]) -> Step:
    assert steps[-1].after.is_over
    return steps[-1]


def _last_trick(steps: list[Step]):
    return steps[-1].after.tricks[-1]


def attackers_won_last_with(size: int):
    def pred(steps: list[Step]) -> bool:
        t = _last_trick(steps)
        lead = t.plays[0][1]
        win = dict(t.plays)[t.winner]
        done = steps[-1].after
        return (
            t.winner not in done.defenders
            and len(lead) == size
            and len(set(lead)) == 1
            and len(set(win)) == 1
            and points_of(done.kitty) > 0
        )

    return pred


@pytest.mark.parametrize(
    ("name", "size", "mult"),
    [
        ("classic", 1, 2),
        ("classic", 2, 4),
        ("lianzhong", 1, 2),
        ("tournament", 1, 2),
        ("one-deck", 1, 2),
        ("three-deck", 1, 2),
    ],
)
def test_attackers_taking_the_last_trick_get_the_kitty_multiplied(name, size, mult):
    rs = PRESETS[name]
    # A pair in the last trick is rare with random play: search further for it.
    steps = find_deal(rs, attackers_won_last_with(size), seeds=range(400 if size == 1 else 2000))
    last = last_step(steps)
    pre, done = last.before, last.after
    kp = points_of(done.kitty)
    trick_pts = done.tricks[-1].points
    res = done.result
    assert res.kitty_captured and res.kitty_points == kp
    assert res.kitty_multiplier == mult and res.kitty_gain == kp * mult
    assert res.attacker_points == pre.attacker_points + trick_pts + kp * mult
    assert done.attacker_points == res.attacker_points
    revealed = [e for e in last.events if isinstance(e, KittyRevealed)]
    assert revealed == [KittyRevealed(None, done.kitty, kp, mult, kp * mult)]
    ended = [e for e in last.events if isinstance(e, DealEnded)]
    assert ended[0].attacker_points == res.attacker_points


def test_defenders_taking_the_last_trick_keep_the_kitty():
    def pred(steps):
        done = steps[-1].after
        return _last_trick(steps).winner in done.defenders and points_of(done.kitty) > 0

    last = last_step(find_deal(CLASSIC, pred))
    pre, done = last.before, last.after
    res = done.result
    assert not res.kitty_captured and res.kitty_gain == 0 and res.kitty_multiplier == 0
    assert res.attacker_points == pre.attacker_points
    assert done.defender_points == pre.defender_points + done.tricks[-1].points + res.kitty_points


@pytest.mark.parametrize("attackers_win", [True, False])
def test_four_deck_last_trick_transfer(attackers_win):
    rs = PRESETS["four-deck"]

    def pred(steps):
        done, pre = steps[-1].after, steps[-1].before
        t = _last_trick(steps)
        lead = t.plays[0][1]
        return (
            (t.winner not in done.defenders) == attackers_win
            and len(lead) == 1
            and (pre.defender_points if attackers_win else pre.attacker_points) != 0
        )

    last = last_step(find_deal(rs, pred, seeds=range(200), level=1))
    pre, done = last.before, last.after
    res = done.result
    pts = done.tricks[-1].points
    if attackers_win:
        att = pre.attacker_points + pts
        assert res.attacker_points == att + pre.defender_points  # single: ×1
        assert res.kitty_gain == pre.defender_points
    else:
        assert res.attacker_points == 0  # the defenders take the attackers' points ×1
        assert res.kitty_gain == -pre.attacker_points


def test_a_finished_deal_refuses_everything_and_has_nobody_to_act():
    done = find_deal(PRESETS["one-deck"], lambda steps: True)[-1].after
    assert done.phase is Phase.DONE and done.to_act is None and done.is_over
    assert sum(done.hand_sizes) == 0
    for seat in range(4):
        assert not done.legal_actions(seat)
    assert not done.legal_actions(SYSTEM)
    assert_illegal(done, Deal(), Reason.WRONG_PHASE)
    assert_illegal(done, Pass(0), Reason.WRONG_PHASE)
    assert_illegal(done, Bury(0, ()), Reason.WRONG_PHASE)
    assert_illegal(done, d(0, "S2"), Reason.WRONG_PHASE)
    assert_illegal(done, p(done.leader, "SA"), Reason.WRONG_PHASE)
    assert public_view(done).kitty == done.kitty
    assert cards_str(done.kitty)
