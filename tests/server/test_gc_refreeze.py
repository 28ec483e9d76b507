"""Short full collections (issue 15): at every look the young generations are collected
and what lives is frozen; once per ``thaw_s`` everything is thawed and collected once. The
clock decides; the keeper acts."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.server.gc_refreeze import RefreezeClock, Refreezer


@given(
    looks=st.lists(st.floats(0.0, 900.0), min_size=1, max_size=60),
    thaw_s=st.sampled_from([0.0, 600.0, 3600.0]),
)
def test_every_look_freezes_but_one_thaw_each_period(looks: list[float], thaw_s: float) -> None:
    c = RefreezeClock(thaw_s=thaw_s, started=0.0)
    now, last_thaw = 0.0, 0.0  # the model the clock must follow
    for dt in looks:
        now += dt
        c, act = c.after(now)
        if thaw_s > 0 and now - last_thaw >= thaw_s:
            assert act == "thaw"  # never more than thaw_s between two thaws
            last_thaw = now
        else:
            assert act == "freeze"


def test_no_thaw_when_thaw_s_is_zero() -> None:
    c = RefreezeClock(thaw_s=0.0, started=0.0)
    assert c.after(1e9)[1] == "freeze"


class _Node:
    me: object = None


@pytest.fixture
def unfrozen() -> Iterator[None]:
    frozen = gc.get_freeze_count()
    yield
    if not frozen:
        gc.unfreeze()


def test_the_keeper_freezes_what_lives_at_each_look_and_thaws_on_time(
    unfrozen: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    keeper = Refreezer(every_s=5.0, thaw_s=60.0)
    survivor = [[i] for i in range(100)]
    garbage = _Node()
    garbage.me = garbage  # a cycle
    dead = weakref.ref(garbage)
    del garbage  # cyclic garbage: the look's young collection frees it before freezing
    before = gc.get_freeze_count()
    assert keeper.look() == "freeze"
    assert gc.get_freeze_count() > before and dead() is None
    assert not any(o is survivor for o in gc.get_objects())  # frozen: out of the walk
    clock[0] += 61.0  # a thaw: all collected once, then frozen again
    assert keeper.look() == "thaw"
    assert gc.get_freeze_count() > 0 and keeper.look() == "freeze"
    assert len(survivor) == 100
