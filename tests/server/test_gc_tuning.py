"""The server's garbage collector: start-up objects frozen once, before rooms are restored."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from shengji.server import gc_tuning


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def test_young_threshold_is_set_and_the_older_ones_kept(thresholds: tuple[int, int, int]) -> None:
    gc_tuning.tune(freeze=False, young=5000)
    assert gc.get_threshold() == (5000, thresholds[1], thresholds[2])


def test_each_generations_threshold_is_set_alone(thresholds: tuple[int, int, int]) -> None:
    gc_tuning.tune(freeze=False, young=0, middle=100)
    assert gc.get_threshold() == (thresholds[0], 100, thresholds[2])
    gc_tuning.tune(freeze=False, young=900, middle=0, oldest=20)
    assert gc.get_threshold() == (900, 100, 20)


def test_zero_keeps_the_interpreters_thresholds(thresholds: tuple[int, int, int]) -> None:
    gc_tuning.tune(freeze=False, young=0)
    assert gc.get_threshold() == thresholds


def test_freezing_happens_once_per_process() -> None:
    gc_tuning.tune(freeze=True, young=0)
    frozen = gc.get_freeze_count()
    assert frozen > 0 and gc_tuning._frozen == [True]
    made_later = [[i] for i in range(1000)]  # a second app's rooms stay collectable
    gc_tuning.tune(freeze=True, young=0)
    assert gc.get_freeze_count() == frozen
    assert all(gc.is_tracked(x) for x in made_later)
