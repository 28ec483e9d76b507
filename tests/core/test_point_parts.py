"""The deal summary's sum: the parts of the attackers' points add up to them, in every preset
(the kitty × its multiplier, the four-deck last-trick transfer, failed throws)."""

from __future__ import annotations

import pytest

from shengji.core.cards import parse_rank, points
from shengji.core.point_parts import kitty_penalty, point_parts
from shengji.core.ruleset import PRESETS
from tests.core.dealkit import find_deal, random_deal

PLAYABLE = sorted(name for name, rs in PRESETS.items() if rs.players in (3, 4, 5, 6))


@pytest.mark.parametrize("preset", PLAYABLE)
def test_the_parts_add_up_to_the_attackers_points(preset: str) -> None:
    rs = PRESETS[preset]
    for seed in range(3):
        final = random_deal(rs, f"sum{seed}")[-1].after
        res = final.result
        assert res is not None
        parts = point_parts(final)
        assert sum(p.points for p in parts) == res.attacker_points, (preset, parts)
        kinds = [p.kind for p in parts]
        assert kinds[0] == "tricks" and kinds[-1] in (
            "kitty", "kitty_kept", "transfer_won", "transfer_lost"
        )
        won = sum(
            points(c) for t in final.tricks if t.winner not in res.defenders
            for _, cards in t.plays for c in cards
        )
        assert parts[0].points == won
        last = parts[-1]
        if last.multiplier:
            assert last.points == (-1 if last.kind == "transfer_lost" else 1) * (
                (last.base or 0) * last.multiplier
            )
        pen = rs.failed_throw_penalty
        expected = sum(pen if s in res.defenders else -pen for s in res.failed_seats)
        assert sum(p.points for p in parts if p.kind == "penalty") == expected


def test_four_decks_name_the_transfer_not_the_kitty() -> None:
    rs = PRESETS["four-deck"]
    assert rs.kitty_formula == "last-trick-transfer"
    final = random_deal(rs, "transfer")[-1].after
    last = point_parts(final)[-1]
    assert last.kind in ("transfer_won", "transfer_lost") and last.multiplier


def test_a_jack_kitty_capture_is_named() -> None:
    rs = PRESETS["five-player"]
    jack = parse_rank("J")
    steps = find_deal(
        rs,
        lambda st: kitty_penalty(st[-1].after) is not None,
        seeds=range(300),
        level=jack,
    )
    kind, levels = kitty_penalty(steps[-1].after) or ("", 0)
    assert kind == "jack" and levels in (6, 12, 18, 24, 36)
