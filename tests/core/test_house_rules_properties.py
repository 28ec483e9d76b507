"""Random house rules (every field the room editor offers, hypothesis): a valid ruleset
deals, plays and scores a whole deal with heuristic bots, every state checked as
``test_properties_game`` checks the presets; an invalid one is refused by ``preset`` with
the field at fault named."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from shengji.bots.driver import play_match
from shengji.bots.registry import bot_factory
from shengji.core.errors import RulesetError
from shengji.core.match import OUTCOME_RULES, MatchState
from shengji.core.ruleset import FIELD_CHOICES, LEVEL_TABLES, PRESETS, Ruleset, preset
from tests.core.test_properties_game import Checker

FIELDS = {f.name: f for f in dataclasses.fields(Ruleset) if f.init}
BOOLS = [n for n, f in FIELDS.items() if f.type in ("bool", bool)]
CHOICES = {n: c for n, c in FIELD_CHOICES.items() if len(c) > 1}


@st.composite
def valid_house_rules(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A preset and options that together make a playable ruleset."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    opts: dict[str, Any] = {}
    for field, choices in CHOICES.items():
        if draw(st.booleans()):
            opts[field] = draw(st.sampled_from(choices))
    for field in BOOLS:
        if draw(st.integers(0, 3)) == 0:
            opts[field] = draw(st.booleans())
    decks = draw(st.integers(1, 3))
    players = draw(st.integers(3, 6))
    kitties = [k for k in range(0, 13) if (54 * decks - k) % players == 0]
    kitty = draw(st.sampled_from(kitties))
    opts |= {"decks": decks, "players": players, "kitty_size": kitty}
    parties = [p for p in OUTCOME_RULES if p != "fixed" or players % 2 == 0]
    opts["partnership"] = partnership = draw(st.sampled_from(parties))
    if partnership != "find-friend":
        opts["level_transfer"] = "off"
    if decks < 2:
        opts["friend_call"] = "any"
    if kitty:
        opts["kitty_formula"] = draw(st.sampled_from(
            [f for f in CHOICES["kitty_formula"] if f != "last-trick-transfer"]))
    opts["level_table"] = draw(st.sampled_from(sorted(LEVEL_TABLES)))
    opts["kitty_cap"] = draw(st.integers(1, 64))
    opts["failed_throw_penalty"] = draw(st.integers(0, 6)) * 5
    opts["kitty_card_index"] = draw(st.integers(0, max(0, kitty - 1)))
    opts["rebury_swap"] = draw(st.integers(0, kitty))
    opts["kitty_shown"] = draw(st.integers(0, kitty))
    step = draw(st.sampled_from([5, 10]))
    bid_open = step * draw(st.integers(1, 100 * decks // step))
    bid_min = step * draw(st.integers(0, bid_open // step))
    opts |= {"bid_step": step, "bid_open": bid_open, "bid_min": bid_min}
    return name, opts


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rules=valid_house_rules(), seed=st.integers(0, 2**16))
def test_random_house_rules_deal_play_and_score_with_bots(
    rules: tuple[str, dict[str, Any]], seed: int
) -> None:
    name, opts = rules
    rs = preset(name, opts)
    note(repr(rs))
    bots = [bot_factory("heuristic")(f"{seed}/{p}") for p in range(rs.players)]
    checker = Checker(rs, MatchState.new(rs, seed), seed)
    m, _record = play_match(rs, bots, seed=seed, deals=1, on_action=checker)
    assert checker.deals_done == len(m.history) == 1


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)),
       opts=st.dictionaries(st.sampled_from(sorted(FIELDS)),
                            st.one_of(st.booleans(), st.integers(-5, 300),
                                      st.sampled_from([c for cs in CHOICES.values() for c in cs]),
                                      st.text(max_size=3)), max_size=6))
def test_any_refused_house_rules_name_the_field(name: str, opts: dict[str, Any]) -> None:
    try:
        preset(name, opts)
    except RulesetError as e:
        assert e.field in FIELDS, (e.field, e.message)
        assert e.field in e.message.replace(" ", "_") or e.field in opts, e.message
