"""Bots in the three-player 竞标 game: the heuristic bids from hand strength, passes when weak,
names its strongest suit, buries the right number of cards after an overturn; the random bot
bids at random among the legal bids; nobody plays an illegal action over many deals."""

from __future__ import annotations

from collections import Counter

from shengji.bots.bidder import MARGIN, best_suit, choose_bid, predicted_points
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Bid, Bury, Declare, NameTrump, Pass
from shengji.core.cards import CLUBS, HEARTS, SPADES, counts_of, parse_cards
from shengji.core.phases import Phase
from shengji.core.ruleset import preset
from shengji.core.state import DealState
from shengji.core.views import view_for
from tests.core.dealkit import deal_out, stacked, step

RS = preset("three-player")
C = parse_cards

STRONG = (
    "BJ BJ LJ LJ H2 H2 S2 D2 HA HA HK HK HQ HQ HJ H10 H9 H8 H7 H6 "
    "SA SA SK CA CA CK DA DK S3 S4 C3 C4 D3"
)
WEAK = (
    "S3 S4 S6 S7 S8 S9 SJ C3 C4 C5 C6 C7 C8 C9 CJ D3 D4 D5 D6 D7 D8 D9 DJ "
    "H3 H4 H5 H6 H7 H8 H9 HJ S5 C10"
)


def bidding(hands: dict[int, str], kitty: str = "S10 D10 DQ") -> DealState:
    return deal_out(stacked(RS, hands, kitty))


def test_a_strong_hand_bids_the_highest_target_allowed() -> None:
    s = bidding({0: STRONG})
    a = HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0))
    assert a == Bid(0, 150)
    s = step(step(s, Bid(0, 150)), Bid(1, 110))
    s = step(s, Pass(2))
    a = HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0))
    assert a == Bid(0, 105)  # one step under the standing bid, no lower
    s = step(step(s, a), Bid(1, 100))  # the lowest bid (bid_min): nothing is left to bid
    assert HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0)) == Pass(0)


def test_a_weak_hand_passes() -> None:
    s = step(bidding({0: STRONG, 1: WEAK}), Bid(0, 150))
    assert HeuristicBot(1).choose(view_for(s, 1), s.legal_actions(1)) == Pass(1)


def floor(s: DealState, seat: int = 0) -> float:
    """The lowest target ``seat`` deals for: its prediction (shown cards included) + margin."""
    hand = list(s.hands[seat])
    for c in s.shown:
        hand[c] += 1
    return predicted_points(hand, 0, RS) + MARGIN


def test_the_bid_follows_the_prediction() -> None:
    """It bids while the allowed target stays at or above its prediction plus the margin."""
    strong = counts_of(C(STRONG))
    weak = counts_of(C(WEAK))
    assert predicted_points(strong, 0, RS) + MARGIN < 100 < 150 < predicted_points(weak, 0, RS)
    s = bidding({0: STRONG})
    for target in range(150, 0, -5):
        got = choose_bid(view_for(s, 0), [Bid(0, target), Pass(0)])
        assert got == (Pass(0) if target < floor(s) else Bid(0, target)), target


def test_the_shown_kitty_cards_count_as_its_own() -> None:
    """Jokers among the shown kitty cards make the same hand bid lower."""
    hand = STRONG.replace("BJ BJ LJ LJ ", "S5 S6 C6 C7 ")
    rich = bidding({0: hand}, kitty="BJ BJ LJ")
    plain = bidding({0: hand}, kitty="S10 D10 C10")
    assert floor(rich) + 10 < floor(plain)
    target = int(floor(plain)) // 5 * 5 - 5
    assert floor(rich) <= target < floor(plain)
    for s, want in ((rich, Bid(0, target)), (plain, Pass(0))):
        assert choose_bid(view_for(s, 0), [Bid(0, target), Pass(0)]) == want


def test_names_the_strongest_suit() -> None:
    s = bidding({0: STRONG})
    s = step(step(step(s, Bid(0, 150)), Pass(1)), Pass(2))
    assert s.phase is Phase.NAMING
    assert HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0)) == NameTrump(0, HEARTS)
    assert best_suit(counts_of(C("C2 CA CA CK CQ CJ H3 S4")), 0, RS) == CLUBS


def test_overturns_only_a_much_worse_suit_and_buries_six() -> None:
    clubs = "C2 C2 CA CA CK CK CQ CQ CJ CJ C10 C10 C9 C9 C8 C8 C7 C6 C5 BJ BJ LJ LJ"
    hearts = "H2 H2 S2 D2 HA HA HK HK HQ HQ HJ H10 H9 H8 H7 H6 SA SA SK DA DK S3 S4 D3"
    s = bidding({0: hearts, 1: clubs})
    s = step(step(step(s, Bid(0, 150)), Pass(1)), Pass(2))
    s = step(s, NameTrump(0, SPADES))  # a poor choice for seat 0, a worse one for seat 1
    s = step(s, Bury(0, tuple(s.hand(0)[-9:])))
    assert s.phase is Phase.REBURY and s.to_act == 1
    a = HeuristicBot(1).choose(view_for(s, 1), s.legal_actions(1))
    assert isinstance(a, Declare) and a.cards == tuple(C("C2 C2"))
    s = step(s, a)
    assert s.phase is Phase.BURYING and s.to_act == 1
    bury = HeuristicBot(1).choose(view_for(s, 1), s.legal_actions(1))
    assert isinstance(bury, Bury) and len(bury.cards) == 6


def test_random_bot_bids_at_random_among_the_legal_bids() -> None:
    s = bidding({})
    legal = s.legal_actions(0)
    seen = Counter(RandomBot(seed).choose(view_for(s, 0), legal) for seed in range(300))
    assert all(a in legal for a in seen)
    assert len(seen) == 12 and seen[Pass(0)] > 0  # 150..100 in steps of 5, and a pass


def test_no_bot_plays_an_illegal_action_in_many_deals() -> None:
    for seed in range(12):
        heuristic = [HeuristicBot(f"{seed}.{s}") for s in range(3)]
        bots = [*heuristic[:2], RandomBot(seed)] if seed % 2 else heuristic
        state, record = play_match(RS, bots, f"bid.{seed}", deals=3)
        assert all(b.fallbacks == 0 for b in heuristic)
        assert any(a.startswith("bid ") for a in record.actions)
        assert len(state.history) == 3 or state.is_over
