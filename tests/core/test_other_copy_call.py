"""找朋友 house rule ``friend_call: other-copy`` (docs/rules.md, Decision 148): the dealer
calls a card it holds one copy of, and the friend holds the other copy."""

from __future__ import annotations

import pytest

from shengji.bots.friend import choose_call
from shengji.core.actions import CallFriend
from shengji.core.cards import parse_card
from shengji.core.errors import Reason, RulesetError
from shengji.core.ruleset import PRESETS, preset
from shengji.core.state import DealState
from shengji.core.views import view_for
from tests.core.dealkit import assert_illegal, stacked, step
from tests.core.test_friend import to_call

OTHER = preset("find-friend", {"friend_call": "other-copy"})


def at_call(hands: dict[int, str]) -> DealState:
    return to_call(stacked(OTHER, hands, dealer=0))


def test_every_preset_lets_the_dealer_call_any_card() -> None:
    assert all(p.friend_call == "any" for p in PRESETS.values())


def test_the_dealer_calls_a_card_it_holds_one_copy_of_and_its_holder_is_the_friend() -> None:
    s = at_call({0: "SA", 2: "SA"})
    s = step(s, CallFriend(0, parse_card("SA"), 1))
    assert s.friend_seat == 2


def test_a_card_the_dealer_lacks_or_holds_twice_is_refused() -> None:
    s = at_call({0: "SA HK HK", 3: "DA DA"})
    e = assert_illegal(s, CallFriend(0, parse_card("DA"), 1), Reason.BAD_CALL)
    assert "other copy" in e.message
    assert_illegal(s, CallFriend(0, parse_card("HK"), 1), Reason.BAD_CALL)
    calls = {a.card for a in s.legal_actions(0)}
    assert parse_card("SA") in calls and parse_card("HK") not in calls


def test_the_bot_calls_a_card_it_holds_one_copy_of() -> None:
    for seed in range(5):
        s = to_call(stacked(OTHER, {}, dealer=0, fill_seed=seed))
        call = choose_call(view_for(s, 0))
        assert s.hands[0][call.card] == 1
        step(s, call)


def test_one_deck_has_no_other_copy() -> None:
    with pytest.raises(RulesetError) as e:
        preset("one-deck", {"partnership": "find-friend", "friend_call": "other-copy"})
    assert e.value.field == "friend_call"
