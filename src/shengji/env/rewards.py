"""Rewards: signed levels at the end of a deal, or attacker points trick by trick.

``signed_levels``: the level table's verdict for the deal (as ``shengji arena --duplicate``
counts it): every seat on the winning side gets ``+n`` and every seat on the other side
``−n``, where ``n`` is the levels the table gives the winners (dealer side: its
``defender_levels``; attackers: their ``attacker_levels``, 0 for a bare takeover). Sides are
the deal's final ones (找朋友: the dealer and its revealed friend). Must-play stops and
per-seat shares of a match are left out, so the reward depends on the deal alone.

``points`` (``reward="points"``): after each action, a seat gets the change in the
attackers' points divided by 100, with its sign: ``+`` for a seat the view shows attacking,
``−`` for the dealer side (public sides only, so a hidden friend counts as an attacker).

>>> from shengji.core.scoring import LevelChange
>>> signed_levels(LevelChange(0, 2, True), defenders=(0, 2), players=4)
[-2.0, 2.0, -2.0, 2.0]
>>> signed_levels(LevelChange(3, 0, False), defenders=(1,), players=3)
[-3.0, 3.0, -3.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.scoring import LevelChange


def signed_levels(change: LevelChange, defenders: Sequence[int], players: int) -> list[float]:
    """Per seat: ``+n`` for the deal's winners, ``−n`` for the others."""
    attackers_won = change.attackers_take_over or change.attacker_levels > 0
    n = change.attacker_levels if attackers_won else change.defender_levels
    out: list[float] = []
    for seat in range(players):
        defending = seat in defenders
        out.append(float(n if defending != attackers_won else -n))
    return out


def point_rewards(delta: int, defenders: Sequence[int], players: int) -> list[float]:
    """Per seat: ``delta / 100`` for attackers, ``−delta / 100`` for the dealer side."""
    x = delta / 100.0
    return [-x if seat in defenders else x for seat in range(players)]
