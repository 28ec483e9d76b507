"""The heuristic bot's declarations in a first deal (rules.md Decision 100).

"开局中，双方争庄，先亮者为庄家": where the first declarer deals, showing first wins the seat,
so with nobody declared yet the bot declares a middling suit it would pass in a later deal.
"""

from __future__ import annotations

import pytest

from shengji.bots.declare import FIRST_DEAL_RACE, NOBODY_BAR, strength
from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Declare, Pass
from shengji.core.cards import HEARTS, counts_of, parse_cards
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.views import view_for
from tests.core.dealkit import deal_out, stacked

HAND = "H2 HA HK HQ H9 S3 S4 S5 S6 S7 S8 S9 SJ C3 C4 C5 C6 C7 C8 C9 D3 D4 D5 D6 D7"
"""Five hearts with the level card: a middling hearts hand."""


def window_choice(rs: Ruleset, dealer: int | None) -> object:
    s = deal_out(stacked(rs, {0: HAND}, level="2", dealer=dealer))
    assert s.phase is Phase.DECLARING and s.to_act == 0 and s.declaration is None
    return HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0))


def test_the_hand_sits_between_the_two_bars():
    power = strength(counts_of(parse_cards(HAND)), 0, HEARTS, PRESETS["classic"])
    assert NOBODY_BAR - FIRST_DEAL_RACE <= power < NOBODY_BAR


def test_races_for_the_seat_where_the_first_declarer_deals():
    assert window_choice(PRESETS["classic"], None) == Declare(0, tuple(parse_cards("H2")))


@pytest.mark.parametrize(
    ("rs", "dealer"),
    [
        (PRESETS["classic"], 0),  # a later deal: the dealer is known
        (preset("classic", {"first_deal_overturn_takes_dealer": True}), None),  # overturns take it
    ],
    ids=["later-deal", "overturn-takes-seat"],
)
def test_no_race_where_showing_first_does_not_settle_the_seat(rs, dealer):
    assert window_choice(rs, dealer) == Pass(0)
