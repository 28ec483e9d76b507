"""The in-place fast path gives exactly the game that the pure ``apply`` gives."""

from __future__ import annotations

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Deal, Play, parse_action
from shengji.core.errors import IllegalAction
from shengji.core.record import GameRecord
from shengji.core.ruleset import PRESETS
from tests.core.dealkit import snapshot


@pytest.mark.parametrize(
    "name", ["classic", "three-deck", "two-color", "four-deck", "three-player"]
)
def test_in_place_and_pure_play_the_same_match(name: str) -> None:
    rs = PRESETS[name]
    bots = [RandomBot(i) for i in range(rs.players)]
    fast, fast_rec = play_match(rs, bots, seed=11, deals=2)  # in place (no listener)
    seen: list[int] = []
    bots = [RandomBot(i) for i in range(rs.players)]
    pure, pure_rec = play_match(
        rs, bots, seed=11, deals=2, on_action=lambda a, s, e: seen.append(1)
    )
    assert fast_rec.actions == pure_rec.actions and len(seen) == len(pure_rec.actions)
    assert fast.history == pure.history and fast.team_levels == pure.team_levels
    assert snapshot(fast.deal) == snapshot(pure.deal)


def test_every_step_matches_and_refusals_change_nothing() -> None:
    _, rec = play_match(PRESETS["classic"], [RandomBot(i) for i in range(4)], seed=3, deals=1)
    pure = GameRecord.from_json(rec.to_json()).start().deal
    fast = GameRecord.from_json(rec.to_json()).start().deal
    for text in rec.actions[: len(rec.actions) - 1]:
        action = parse_action(text)
        pure, pure_events = pure.apply(action)
        assert fast.apply_in_place(action) == pure_events
        assert snapshot(fast) == snapshot(pure)
        before = snapshot(fast)
        with pytest.raises(IllegalAction):
            fast.apply_in_place(Play(9, (0,)) if not isinstance(action, Deal) else Play(0, ()))
        assert snapshot(fast) == before


def test_fields_list_every_public_slot() -> None:
    from shengji.core.deal_record import DealRecord
    from shengji.core.state import FIELDS, DealState

    slots = getattr(DealRecord, "__slots__", None)
    if slots is None:
        pytest.skip("compiled build: native classes have no __slots__")
    assert sorted(n for n in slots if not n.startswith("_")) == sorted(FIELDS)
    assert DealState.__slots__ == ()  # the state adds transitions, no data
