"""The three-player 竞标 game through the state machine and the match (seed 002 三人打法;
rules.md 60–72): the shown kitty cards, the auction, naming trump, the overturn that swaps 6
random kitty cards, no throws, levels per seat against the target, the end of the match.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Bid, Bury, Deal, Declare, NameTrump, Pass, Play, parse_action
from shengji.core.auction import target_level_change
from shengji.core.cards import HEARTS, NO_TRUMP, SPADES, parse_rank
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import (
    AuctionWon,
    BidMade,
    Declared,
    KittyShown,
    KittyTaken,
    Passed,
    TrumpFixed,
    visible,
)
from shengji.core.match import OUTCOME_RULES
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay
from shengji.core.ruleset import preset
from shengji.core.scoring import LevelChange
from shengji.core.state import DealState
from shengji.core.views import public_view, view_for
from tests.core.dealkit import (
    C,
    assert_illegal,
    deal_out,
    random_deal,
    snapshot,
    stacked,
    step,
)

RS = preset("three-player")


def fresh(hands: dict[int, str] | None = None, kitty: str = "SA HA DA", level: str = "2",
          seat_levels: tuple[int, int, int] | None = None) -> DealState:
    """A dealt-out three-player deal (auction about to start, seat 0 opens)."""
    s = stacked(RS, hands or {}, kitty, level=level)
    if seat_levels is not None:
        s.seat_levels = seat_levels
    return deal_out(s)


def auction(s: DealState, *moves: int | None) -> DealState:
    """Bids (None = pass) from the seat to speak on."""
    for m in moves:
        seat = s.to_act
        assert seat is not None
        s = step(s, Pass(seat) if m is None else Bid(seat, m))
    return s


def to_burying(s: DealState, suit: int = HEARTS) -> DealState:
    """Seat 0 deals at 150 (the others pass) and names ``suit``."""
    s = auction(s, 150, None, None)
    return step(s, NameTrump(0, suit))


# --------------------------------------------------------------------------- the deal


def test_the_preset() -> None:
    assert (RS.players, RS.decks, RS.hand_size, RS.kitty_size) == (3, 2, 33, 9)
    assert (RS.kitty_shown, RS.bid_open, RS.bid_step, RS.rebury_swap) == (3, 150, 5, 6)
    assert RS.partnership == "bidding" and RS.throw_policy == "never" and RS.rebury


def test_three_kitty_cards_are_shown_to_everyone_after_the_deal() -> None:
    s = stacked(RS, {}, "SA HA DA S3 S4 S6 S7 S8 S9")
    while s.phase is Phase.DEALING:
        assert s.shown == ()
        s, events = s.apply(Deal())
    assert s.phase is Phase.BIDDING and s.to_act == 0
    assert events[-1] == KittyShown(None, tuple(C("SA HA DA")))
    for seat in (0, 1, 2, None):
        v = view_for(s, seat) if seat is not None else public_view(s)
        assert v.shown == tuple(C("SA HA DA"))
        assert v.kitty is None  # the other six stay hidden


def test_nobody_declares_while_dealing() -> None:
    s = stacked(RS, {1: "S2 S2 BJ BJ"})
    for _ in range(12):
        s = step(s, Deal())
    assert not s.legal_actions(1)
    assert_illegal(s, Declare(1, tuple(C("S2"))), Reason.WRONG_PHASE)


def test_the_opener_rotates_with_the_deal_number() -> None:
    for deal_no in range(4):
        s = DealState.new(RS, seed=3, level=0, dealer=2, deal_no=deal_no)
        assert s.dealer is None and s.start == deal_no % 3
        s = deal_out(s)
        assert s.to_act == deal_no % 3


def test_the_lowest_bidder_deals_alone_at_its_own_level() -> None:
    s = fresh(seat_levels=(0, 5, 9))  # seats on 2, 7 and J
    s = auction(s, 150, 120, 115)
    assert s.phase is Phase.BIDDING and s.to_act == 0
    s, events = s.apply(Pass(0))
    assert events == [Passed(None, 0)]
    s, events = s.apply(Pass(1))
    assert s.phase is Phase.NAMING and s.to_act == 2
    assert (s.dealer, s.target, s.level, s.defenders) == (2, 115, 9, (2,))
    assert events[:2] == [Passed(None, 1), AuctionWon(None, 2, 115, 9)]
    taken = [e for e in events if isinstance(e, KittyTaken)]
    assert [(e.audience, e.seat, len(e.cards)) for e in taken] == [(2, 2, 9)]
    assert s.hand_sizes == (33, 33, 42)
    v = view_for(s, 1)
    assert v.target == 115 and v.auction is not None
    assert v.auction.bids == ((0, 150), (1, 120), (2, 115), (0, None), (1, None))


def test_bids_are_public_events() -> None:
    s = fresh()
    s, events = s.apply(Bid(0, 140))
    assert events == [BidMade(None, 0, 140)]
    assert [e for q in (0, 1, 2, None) for e in visible(events, q)] == events * 4


def test_everybody_passes_the_opener_deals_at_150() -> None:
    s = auction(fresh(), None, None, None)
    assert (s.dealer, s.target, s.phase) == (0, 150, Phase.NAMING)


@pytest.mark.parametrize(
    ("moves", "action", "reason"),
    [
        ((), Bid(0, 155), Reason.BAD_BID),
        ((), Bid(0, 42), Reason.BAD_BID),
        ((), Bid(0, 0), Reason.BAD_BID),
        ((), Bid(1, 100), Reason.NOT_YOUR_TURN),
        ((), Pass(2), Reason.NOT_YOUR_TURN),
        ((), Bid(7, 100), Reason.NOT_YOUR_TURN),
        ((120,), Bid(1, 120), Reason.BAD_BID),
        ((120, None), Bid(1, 100), Reason.NOT_YOUR_TURN),  # seat 1 passed: out for good
        ((), NameTrump(0, HEARTS), Reason.WRONG_PHASE),
        ((), Bury(0, tuple(C("S3"))), Reason.WRONG_PHASE),
    ],
)
def test_illegal_auction_actions_change_nothing(
    moves: tuple[int | None, ...], action: Bid | Pass | NameTrump | Bury, reason: Reason
) -> None:
    s = auction(fresh(), *moves)
    err = assert_illegal(s, action, reason)
    assert err.message


def test_bid_messages_say_what_is_wrong() -> None:
    s = auction(fresh(), 120)
    assert "at least 5 below the standing bid of 120" in assert_illegal(
        s, Bid(1, 120), Reason.BAD_BID).message
    assert "first bid is at most 150" in assert_illegal(
        fresh(), Bid(0, 160), Reason.BAD_BID).message


def test_legal_actions_in_the_auction() -> None:
    s = auction(fresh(), 120)
    legal = s.legal_actions(1)
    assert legal.kind == "list"
    assert [str(a) for a in legal.small[:2]] == ["bid 1 115", "bid 1 110"]
    assert legal.small[-1] == Pass(1) and len(legal.small) == 5  # 115..100 (bid_min), pass
    assert Bid(1, 100) in legal and Bid(1, 120) not in legal
    assert not s.legal_actions(0) and not s.legal_actions(2)


def test_the_dealer_names_a_suit_not_no_trump() -> None:
    s = auction(fresh(), 150, None, None)
    assert [str(a) for a in s.legal_actions(0)] == [
        "trump 0 S", "trump 0 H", "trump 0 D", "trump 0 C"]
    assert_illegal(s, NameTrump(1, SPADES), Reason.NOT_YOUR_TURN)
    assert_illegal(s, NameTrump(0, NO_TRUMP), Reason.BAD_DECLARATION)
    assert_illegal(s, Bury(0, tuple(s.hand(0)[:9])), Reason.WRONG_PHASE)
    s2, events = s.apply(NameTrump(0, SPADES))
    assert events == [TrumpFixed(None, SPADES, 0, None, None)]
    assert s2.phase is Phase.BURYING and s2.trump == SPADES and s2.ctx is not None
    assert s2.ctx.level == 0


def test_the_level_is_the_dealers_own() -> None:
    s = auction(fresh(seat_levels=(3, 11, 12)), 150, 140, None, None)
    assert (s.dealer, s.level) == (1, 11)
    s = step(s, NameTrump(1, HEARTS))
    assert s.ctx is not None and s.ctx.level == 11


def test_burial_then_the_overturn_round_then_the_dealer_leads() -> None:
    s = to_burying(fresh())
    assert_illegal(s, Bury(0, tuple(s.hand(0)[:8])), Reason.BAD_KITTY)
    s = step(s, Bury(0, tuple(s.hand(0)[-9:])))
    assert s.phase is Phase.REBURY and s.to_act == 1
    s = auction(s, None, None)
    assert s.phase is Phase.PLAYING and s.to_act == 0 and s.stake == 1


def _overturned() -> tuple[DealState, DealState, list[object]]:
    """Seat 0 deals (hearts), seat 1 overturns with S2 S2."""
    s = fresh({1: "S2 S2 S3", 2: "C4"}, kitty="SA HA DA SK SK S10 S10 S5 S5")
    s = to_burying(s)
    buried = tuple(C("SA HA DA SK SK S10 S10 S5 S5"))  # the dealer buries the kitty back
    s = step(s, Bury(0, buried))
    assert s.kitty == buried
    after, events = s.apply(Declare(1, tuple(C("S2 S2"))))
    return s, after, list(events)


def test_an_overturn_swaps_six_random_kitty_cards() -> None:
    before, s, events = _overturned()
    assert events[0] == Declared(None, 1, tuple(C("S2 S2")), SPADES, True, True)
    assert s.trump == SPADES and s.stake == 2
    assert (s.dealer, s.defenders, s.target) == (0, (0,), 150)  # the dealer stays the dealer
    assert s.phase is Phase.BURYING and s.to_act == 1 and s.kitty_holder == 1
    (taken,) = [e for e in events if isinstance(e, KittyTaken)]
    assert taken.audience == 1 and len(taken.cards) == 6
    drawn = list(taken.cards)
    rest = list(before.kitty)
    for c in drawn:
        rest.remove(c)
    assert sorted(s.kitty_kept) == sorted(rest) and len(rest) == 3
    assert s.hand_sizes == (33, 39, 33)
    # the same deal always swaps the same cards
    assert before.apply(Declare(1, tuple(C("S2 S2"))))[0].kitty_kept == s.kitty_kept
    # nobody sees the three cards left in place, not even the overturner
    for seat in (0, 1, 2):
        assert view_for(s, seat).kitty is None
    assert s.legal_actions(1).bury_count == 6
    assert_illegal(s, Bury(1, tuple(s.hand(1)[:9])), Reason.BAD_KITTY)
    buried = tuple(s.hand(1)[-6:])
    s = step(s, Bury(1, buried))
    assert sorted(s.kitty) == sorted((*rest, *buried)) and len(s.kitty) == 9
    assert s.phase is Phase.REBURY and s.to_act == 2  # the round goes on after seat 1
    assert view_for(s, 1).kitty is None


def test_after_an_overturn_the_dealer_may_overturn_back() -> None:
    _, s, _ = _overturned()
    s = step(s, Bury(1, tuple(s.hand(1)[-6:])))
    s = step(s, Pass(2))
    assert s.to_act == 0
    legal = s.legal_actions(0)
    assert all(isinstance(a, Declare | Pass) for a in legal.small)


def test_no_throws() -> None:
    s = fresh({0: "CA CK CQ C3 C3"})
    s = to_burying(s)
    s = step(s, Bury(0, tuple(k for k in s.hand(0) if k not in C("CA CK CQ C3"))[-9:]))
    s = auction(s, None, None)
    assert_illegal(s, Play(0, tuple(C("CA CK"))), Reason.THROW_NOT_ALLOWED)
    step(s, Play(0, tuple(C("CA"))))
    step(s, Play(0, tuple(C("C3 C3"))))


def test_a_played_deal_is_scored_against_the_target() -> None:
    steps = random_deal(RS, seed=11, dealer=None)
    done = steps[-1].after
    res = done.result
    assert res is not None and res.target == done.target is not None
    assert res.change == target_level_change(res.attacker_points, res.target)
    assert res.defenders == (done.dealer,)


# --------------------------------------------------------------------------- the match


def _scored(levels: tuple[int, ...], dealer: int, change: LevelChange, start: int = 0):
    deal = next(s.after for s in random_deal(RS, seed=5) if s.after.is_over)
    deal = deal._copy()
    deal.dealer, deal.start = dealer, start
    assert deal.result is not None
    res = replace(deal.result, change=change)
    return OUTCOME_RULES["bidding"](RS, levels, deal, res)


def test_the_dealer_alone_goes_up_when_the_attackers_fall_short() -> None:
    levels, opener, winners = _scored((0, 3, 5), 1, LevelChange(4, 0, False))
    assert levels == (0, 7, 5) and opener == 1 and winners == ()


def test_each_attacker_goes_up_from_its_own_level() -> None:
    levels, opener, winners = _scored((0, 3, 5), 1, LevelChange(0, 2, False), start=2)
    assert levels == (2, 3, 7) and opener == 0 and winners == ()


def test_a_climb_stops_at_A_and_a_seat_on_A_that_goes_up_wins() -> None:
    a = parse_rank("A")
    assert _scored((10, 11, 0), 1, LevelChange(6, 0, False))[0] == (10, a, 0)
    assert _scored((10, a, 0), 1, LevelChange(2, 0, False))[2] == (1,)
    # both attackers on A reach the target: both win
    assert _scored((a, 4, a), 1, LevelChange(0, 1, False))[2] == (0, 2)
    # an attacker on A whose dealer holds them short does not win
    assert _scored((a, 4, a), 1, LevelChange(2, 0, False))[2] == ()


def test_a_match_keeps_a_level_per_seat_and_rotates_the_opener() -> None:
    bots = [RandomBot(f"m/{p}") for p in range(3)]
    m, record = play_match(RS, bots, seed=8, deals=3)
    assert len(m.history) == 3 or m.is_over
    for summary in m.history:
        dealer = summary.dealer
        ch = summary.result.change
        assert summary.level == RS.level_sequence[summary.levels_before[dealer]]
        for seat, step_ in enumerate(summary.steps):
            want = ch.defender_levels if seat == dealer else ch.attacker_levels
            assert step_ <= want
    if not m.is_over:
        assert m.deal.start == len(m.history) % 3
        assert m.deal.seat_levels == tuple(RS.level_sequence[i] for i in m.levels)
    assert replay(GameRecord.from_json(record.to_json())).levels == m.levels


def test_bid_and_trump_actions_round_trip_as_text() -> None:
    for a in (Bid(1, 120), NameTrump(0, HEARTS), NameTrump(2, SPADES)):
        assert parse_action(str(a)) == a
    assert str(Bid(1, 120)) == "bid 1 120" and str(NameTrump(0, HEARTS)) == "trump 0 H"


def test_in_place_and_pure_apply_agree_through_a_swap() -> None:
    """Every step of a deal with an overturn, in place and pure, gives the same state and
    events; a refused action in place changes nothing."""
    bots = [RandomBot(f"11/{p}") for p in range(3)]
    _, record = play_match(RS, bots, seed=11, deals=1)
    assert any(a.startswith("declare") for a in record.actions)  # this seed overturns
    pure = GameRecord.from_json(record.to_json()).start().deal
    fast = GameRecord.from_json(record.to_json()).start().deal
    for text in record.actions[:-1]:
        action = parse_action(text)
        if isinstance(action, Bid):
            before = snapshot(fast)
            with pytest.raises(IllegalAction):
                fast.apply_in_place(Bid(action.seat, action.target + 1))
            assert snapshot(fast) == before
        pure, events = pure.apply(action)
        assert fast.apply_in_place(action) == events
        assert snapshot(fast) == snapshot(pure)
