"""Four decks: "发牌顺序：每轮由系统随机决定发牌顺序" (seed 002 §3.4, Decision 141).

Each deal draws the seat dealt first from its own seed (``first_seat_dealt``); the cards go
round in play order from it, the declaring window opens at it, and so hidden declarations of
equal strength stand with the seat dealt earlier.
"""

from __future__ import annotations

from shengji.core.actions import Deal, Declare, Pass
from shengji.core.cards import parse_cards
from shengji.core.events import CardDealt
from shengji.core.match import MatchState
from shengji.core.record import GameRecord, replay
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState, Phase, first_seat_dealt
from tests.core.dealkit import deal_out, stacked, step

FOUR = PRESETS["four-deck"]
BY_DEALER = preset("four-deck", {"deal_order": "dealer"})


def test_the_four_deck_preset_draws_the_deal_order_and_the_others_do_not() -> None:
    assert FOUR.deal_order == "random"
    assert all(rs.deal_order == "dealer" for name, rs in PRESETS.items() if name != "four-deck")


def test_the_first_seat_is_drawn_per_deal_from_its_seed() -> None:
    """"每轮" (every deal): the seed decides, the same seed the same seat, every seat drawn."""
    seats = [first_seat_dealt(f"m/{n}", 4) for n in range(40)]
    assert set(seats) == {0, 1, 2, 3}
    assert seats == [first_seat_dealt(f"m/{n}", 4) for n in range(40)]
    for n in range(8):
        s = DealState.new(FOUR, seed=f"m/{n}", level=1, dealer=2)
        assert s.start == seats[n] and s.dealer == 2
        assert DealState.new(BY_DEALER, seed=f"m/{n}", level=1, dealer=2).start == 2


def test_the_deal_goes_round_from_the_drawn_seat_and_so_does_the_window() -> None:
    seed = next(f"m/{n}" for n in range(40) if first_seat_dealt(f"m/{n}", 4) == 3)
    s = DealState.new(FOUR, seed=seed, level=1, dealer=0)
    got = []
    for _ in range(8):
        s, events = s.apply(Deal())
        got.append(next(e.seat for e in events if isinstance(e, CardDealt)))
    assert got == [3, 0, 1, 2, 3, 0, 1, 2]
    s = deal_out(s)
    assert s.phase is Phase.DECLARING and s.to_act == 3


def _window_ties(rs: Ruleset) -> int:
    """Seats 2, 3 and 0 each show one level card (level 3, hidden 暗叫) in the window of a
    deal whose seed draws seat 2 to be dealt first; the seat the tie stands with."""
    hands = {0: "D3", 2: "S3", 3: "H3"}
    fill = next(n for n in range(60) if first_seat_dealt(f"stacked/{n}", 4) == 2)
    s = deal_out(stacked(rs, hands, level="3", dealer=0, fill_seed=fill))
    while s.phase is Phase.DECLARING:
        seat = s.to_act
        assert seat is not None
        mine = hands.get(seat)
        s = step(s, Declare(seat, tuple(parse_cards(mine))) if mine else Pass(seat))
    assert s.declaration is not None
    return s.declaration.seat


def test_equal_hidden_declarations_stand_with_the_seat_dealt_earlier() -> None:
    """Seat 2 is dealt first: its ♠3 stands over the dealer's equal ♦3 (dealt later); by
    the dealer's order (as stored decks replay) the dealer's own showing comes first."""
    assert _window_ties(FOUR) == 2
    assert _window_ties(BY_DEALER) == 0


def test_a_match_replays_its_drawn_order_from_the_record() -> None:
    m = MatchState.new(FOUR, "rec", None)
    actions = []
    while m.deal.phase is Phase.DEALING:
        m, _ = m.apply(Deal())
        actions.append("deal")
    again = replay(GameRecord(FOUR.to_dict(), "rec", None, actions))
    assert again.deal.start == m.deal.start == first_seat_dealt(m.deal.seed, 4)
    assert [again.deal.hand(p) for p in range(4)] == [m.deal.hand(p) for p in range(4)]
