"""The replay narration and ``shengji play`` say who deals a first deal (rules.md Decision 100):
"开局中，双方争庄，先亮者为庄家" (QQ) or "第一局翻主翻庄" (tournament)."""

from __future__ import annotations

import io

import pytest

from shengji.bots.random_bot import RandomBot
from shengji.cli.play import HumanPlayer
from shengji.cli.replay import Narrator
from shengji.core.actions import Action, Deal, Declare, Pass
from shengji.core.cards import parse_cards
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.views import view_for
from tests.core.dealkit import stacked


def d(seat: int, cards: str) -> Declare:
    return Declare(seat, tuple(parse_cards(cards)))


def first_deal_match(rs: Ruleset) -> MatchState:
    deal = stacked(rs, {1: "H2", 2: "S2 S2"}, level="2", dealer=None)
    return MatchState(rs, "stacked", (0,) * rs.players, None, deal)


def narrate(rs: Ruleset, lang: str) -> str:
    """Deal a stacked first deal: S1 shows H2, S2 overturns with S2 S2; everyone passes."""
    m = first_deal_match(rs)
    out = io.StringIO()
    narrator = Narrator(out, lang, m, None)

    def do(action: Action) -> None:
        nonlocal m
        m, events = m.apply(action)
        narrator.show(events, m)

    while m.deal.n_dealt < rs.players * rs.hand_size - 1:
        do(Deal())
    do(d(1, "H2"))
    do(d(2, "S2 S2"))
    do(Deal())
    while m.deal.phase is Phase.DECLARING:
        do(Pass(m.deal.to_act))
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "lang", "lines"),
    [
        ("classic", "en", [
            "Deal 1: dealer #2 (with #4), level 2, trump S, stake x2",
            "  Declarations: #2 declares H2; #3 overturns with S2 S2",
            "  First deal: #2 declared first and deals; the overturn changed trump, not the dealer",
        ]),
        ("classic", "zh", ["  首局：2号 先亮为庄家（反主只改主花色，不换庄）"]),
        ("tournament", "en", [
            "Deal 1: dealer #3 (with #1), level 2, trump S, stake x2",
            "  First deal: #3 overturned and takes the dealer seat",
        ]),
        ("tournament", "zh", ["  首局：3号 翻主翻庄"]),
    ],
)
def test_the_replay_says_whose_seat_the_first_deal_is(name, lang, lines):
    text = narrate(PRESETS[name], lang).splitlines()
    for line in lines:
        assert line in text, text


def test_the_replay_says_nothing_more_without_an_overturn():
    rs = PRESETS["classic"]
    m = first_deal_match(rs)
    out = io.StringIO()
    narrator = Narrator(out, "en", m, None)
    while m.deal.n_dealt < rs.players * rs.hand_size - 1:
        m, events = m.apply(Deal())
    m, events = m.apply(d(1, "H2"))
    narrator.show(events, m)
    m, _ = m.apply(Deal())
    while m.deal.phase is Phase.DECLARING:
        m, events = m.apply(Pass(m.deal.to_act))
        narrator.show(events, m)
    assert "First deal" not in out.getvalue()


def test_play_shows_the_standing_declaration_and_who_deals():
    m = first_deal_match(PRESETS["classic"])
    deal = m.deal
    while deal.n_dealt < 40:
        deal, _ = deal.apply(Deal())
    deal, _ = deal.apply(d(1, "H2"))
    deal, _ = deal.apply(d(2, "S2 S2"))
    out = io.StringIO()
    HumanPlayer(io.StringIO(), out, RandomBot(0)).show(view_for(deal, 0))
    assert "trump ? (#3 showed S2 S2), #2 deals" in out.getvalue()
