"""What an unloaded table keeps (server/table/idle.py): every kept field comes back."""

from __future__ import annotations

from dataclasses import fields

import pytest

from shengji.server.table.idle import CARRIED, carried, carry_over
from shengji.server.table.model import Clock, Hold, Table, TableConfig, evolve


def test_every_carried_field_is_a_table_field_and_comes_back() -> None:
    assert set(CARRIED) <= {f.name for f in fields(Table)}
    t = Table.empty(TableConfig.for_tests())
    kept = evolve(
        t,
        version=7,
        away_since={1: 2.0},
        unattended_since=3.0,
        auto=frozenset({2}),
        clock=Clock(1, 4, 5.0, 6.0),
        hold=Hold(1, 6.0, frozenset({0})),
        next_card_at=8.0,
        chat_untrimmed=5,
        ended_early=True,
    )
    back = carry_over(t, carried(kept))
    assert all(getattr(back, name) == getattr(kept, name) for name in CARRIED)
    assert back.version == 7 and back.clock == kept.clock and back.ended_early


def test_a_log_that_ends_elsewhere_is_refused() -> None:
    t = Table.empty(TableConfig.for_tests())
    with pytest.raises(ValueError, match="the log ends at 0"):
        carry_over(t, carried(evolve(t, seq=3)))
