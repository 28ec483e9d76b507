"""Short full collections (issue 15): what survives a full collection is frozen; once per
``thaw_s`` everything is thawed and collected once. The clock decides; the keeper acts."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.server.gc_refreeze import RefreezeClock, Refreezer


@given(
    looks=st.lists(
        st.tuples(st.floats(0.0, 900.0), st.integers(0, 3)), min_size=1, max_size=60
    ),
    thaw_s=st.sampled_from([0.0, 600.0, 3600.0]),
)
def test_a_freeze_follows_each_full_collection_and_a_thaw_each_period(
    looks: list[tuple[float, int]], thaw_s: float
) -> None:
    c = RefreezeClock(thaw_s=thaw_s, started=0.0)
    now, full, seen, last_thaw = 0.0, 0, 0, 0.0  # the model the clock must follow
    for dt, ran in looks:
        now += dt
        full += ran
        c, act = c.after(now, full)
        if thaw_s > 0 and now - last_thaw >= thaw_s:
            assert act == "thaw"  # never more than thaw_s between two thaws
            last_thaw = now
            full += 1  # the thaw collects once itself: that one needs no freeze after
            seen = full
        elif full > seen:
            assert act == "freeze"  # a full collection ran since the last look
            seen = full
        else:
            assert act is None
        assert c.seen == seen


def test_no_thaw_when_thaw_s_is_zero() -> None:
    c = RefreezeClock(thaw_s=0.0, started=0.0)
    c, act = c.after(1e9, 0)
    assert act is None
    assert c.after(1e9 + 1, 1)[1] == "freeze"


@pytest.fixture
def unfrozen() -> Iterator[None]:
    frozen = gc.get_freeze_count()
    yield
    if not frozen:
        gc.unfreeze()


def test_the_keeper_freezes_after_a_full_collection_and_thaws_on_time(
    unfrozen: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    keeper = Refreezer(every_s=5.0, thaw_s=60.0)
    assert keeper.look() is None
    gc.collect()  # a full collection: what survived it is frozen at the next look
    assert keeper.look() == "freeze"
    survivor = [[i] for i in range(100)]
    assert gc.get_freeze_count() > 0
    assert keeper.look() is None
    clock[0] += 61.0  # a thaw: all collected once, then frozen again
    assert keeper.look() == "thaw"
    assert gc.get_freeze_count() > 0 and keeper.look() is None
    assert len(survivor) == 100
