"""Records written before ``kitty_throw_units``, ``bid_min``, ``deal_order`` and
``player_aids`` existed replay exactly as they were played.

``data/stored_before_rules.json`` holds records the engine wrote before those fields (their
rulesets lack the keys): each deal's points, kitty multiplier and target as then played.
``Ruleset.from_dict`` fills a missing key from ``STORED_BEFORE``, so they replay the same;
the same actions under today's preset are another game (the point of the new readings).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shengji.core.cards import cards_str
from shengji.core.errors import IllegalAction
from shengji.core.match import MatchState
from shengji.core.record import GameRecord, replay, replay_steps
from shengji.core.ruleset import PRESETS, STORED_BEFORE, Ruleset

DATA = json.loads((Path(__file__).parent / "data" / "stored_before_rules.json").read_text())
RECORDS: list[dict[str, Any]] = DATA["records"]
NEW_FIELDS = {"kitty_throw_units": "lead", "bid_min": 0, "deal_order": "dealer",
              "player_aids": True, "triple_follow": "triple-then-pair",
              "tractor_follow": "tractor-then-pairs", "friend_call": "any"}
HOUSE_FIELDS = ("triple_follow", "tractor_follow", "friend_call")
"""The house rules: a ruleset stored before them was played as their defaults play."""


def _id(entry: dict[str, Any]) -> str:
    return f"{entry['preset']}-{len(entry['record']['actions'])}"


def deals(state: MatchState) -> list[dict[str, Any]]:
    return [
        {
            "attacker_points": d.result.attacker_points,
            "kitty_multiplier": d.result.kitty_multiplier,
            "kitty_gain": d.result.kitty_gain,
            "last_winning_cards": cards_str(d.result.last_winning_cards),
            "target": d.result.target,
        }
        for d in state.history
    ]


def test_stored_before_lists_each_new_reading_with_the_value_played_before() -> None:
    assert {k: STORED_BEFORE[k] for k in NEW_FIELDS} == NEW_FIELDS


@pytest.mark.parametrize("entry", RECORDS, ids=_id)
def test_a_record_from_before_replays_as_it_was_played(entry: dict[str, Any]) -> None:
    rec = GameRecord.from_json(json.dumps(entry["record"]))
    assert not NEW_FIELDS.keys() & rec.ruleset.keys()  # written before the fields existed
    ruleset = Ruleset.from_dict(rec.ruleset)
    assert {k: getattr(ruleset, k) for k in NEW_FIELDS} == NEW_FIELDS
    assert deals(replay(rec)) == entry["deals"]


def test_a_stored_four_deck_deal_is_dealt_from_the_dealer_as_then() -> None:
    entry = next(e for e in RECORDS if e["preset"] == "four-deck")
    rec = GameRecord.from_json(json.dumps(entry["record"]))
    total = PRESETS["four-deck"].hand_size * 4
    dealt = next(st for _, st, _ in replay_steps(rec) if st.deal.n_dealt == total)
    assert [cards_str(dealt.deal.hand(s)) for s in range(4)] == entry["first_hands"]


def _today(entry: dict[str, Any]) -> GameRecord:
    rec = GameRecord.from_json(json.dumps(entry["record"]))
    name = entry["preset"]
    options = {k: v for k, v in rec.ruleset.items() if v != PRESETS[name].to_dict()[k]}
    rec.ruleset = PRESETS[name].replace(options).to_dict()
    return rec


@pytest.mark.parametrize(
    "entry", [e for e in RECORDS if "note" in e], ids=_id
)
def test_a_stored_ruffed_throw_scores_by_the_winner_under_todays_preset(
    entry: dict[str, Any],
) -> None:
    """The stored 联众 / 边锋 deals end with ``SA SK`` ruffed by a pair and captured: ×2 as
    played (the lead's singles), ×4 under today's reading (the winner's pair)."""
    assert [d["kitty_multiplier"] for d in entry["deals"]] == [2]
    after = deals(replay(_today(entry)))
    assert [d["kitty_multiplier"] for d in after] == [4]
    assert after[0]["kitty_gain"] == 2 * entry["deals"][0]["kitty_gain"]


def test_stored_bids_below_todays_floor_are_refused_under_todays_preset() -> None:
    entry = next(e for e in RECORDS if e["preset"] == "three-player")
    assert min(d["target"] for d in entry["deals"]) < PRESETS["three-player"].bid_min
    with pytest.raises(IllegalAction):
        replay(_today(entry))


def test_a_stored_four_deck_match_is_another_deal_under_todays_preset() -> None:
    entry = next(e for e in RECORDS if e["preset"] == "four-deck")
    try:
        after = deals(replay(_today(entry)))
    except IllegalAction:
        return  # a card the old deal gave is not in the hand the new order deals
    assert after != entry["deals"]


@pytest.mark.parametrize("name", ["three-deck", "find-friend", "four-deck"])
def test_a_game_stored_before_the_house_rules_replays_as_played(name: str) -> None:
    """A record whose ruleset lacks the house-rule keys (written before they existed)
    replays to the same deals: the keys take the values the game was played under."""
    from shengji.bots.driver import play_match
    from shengji.bots.registry import bot_factory

    rs = PRESETS[name]
    state, rec = play_match(rs, [bot_factory("heuristic")(i) for i in range(rs.players)],
                            seed=f"house/{name}", deals=2)
    for key in HOUSE_FIELDS:
        del rec.ruleset[key]
    again = replay(GameRecord.from_json(rec.to_json()))
    assert Ruleset.from_dict(rec.ruleset) == rs
    assert deals(again) == deals(state)
