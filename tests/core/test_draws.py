"""``core/draws.py`` draws what ``random.Random`` draws and leaves it in the same state, so
seeded deals and bots play the same cards with either."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.core.draws import below, between, pick, sample, shuffle


@given(seed=st.integers(0, 2**64), items=st.lists(st.integers(), min_size=1, max_size=300))
def test_pick_is_the_librarys_choice(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert pick(ours, items) == theirs.choice(items)
    assert ours.getstate() == theirs.getstate()


@given(seed=st.integers(0, 2**64), n=st.integers(1, 10**12))
def test_below_is_the_librarys_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert below(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


@given(seed=st.text(max_size=20), size=st.integers(0, 216))
def test_shuffle_is_the_librarys_shuffle(seed: str, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs and a.getstate() == b.getstate()


def test_an_empty_sequence_has_nothing_to_pick() -> None:
    with pytest.raises(IndexError):
        pick(random.Random(1), [])


@given(seed=st.integers(0, 2**64), size=st.integers(0, 400), data=st.data())
def test_sample_is_the_librarys_sample(seed: int, size: int, data: st.DataObject) -> None:
    """Both of the library's ways: a shrinking pool (small populations) and redraws of taken
    positions (a population bigger than a small set of the sample)."""
    population = list(range(1000, 1000 + size))
    k = data.draw(st.integers(0, size))
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(3):
        assert sample(a, population, k) == b.sample(population, k)
    assert a.getstate() == b.getstate()


def test_sample_takes_both_of_the_librarys_ways() -> None:
    for n, k in ((10, 3), (21, 21), (22, 2), (200, 5), (200, 6), (200, 60), (5000, 3)):
        a, b = random.Random(n), random.Random(n)
        assert sample(a, range(n), k) == b.sample(range(n), k)
        assert a.getstate() == b.getstate()


def test_a_sample_bigger_than_its_population_is_refused() -> None:
    with pytest.raises(ValueError):
        sample(random.Random(1), [1, 2], 3)
    with pytest.raises(ValueError):
        sample(random.Random(1), [1, 2], -1)


@given(seed=st.integers(0, 2**64), a=st.integers(-50, 50), width=st.integers(0, 10**6))
def test_between_is_the_librarys_randint(seed: int, a: int, width: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert between(ours, a, a + width) == theirs.randint(a, a + width)
    assert ours.getstate() == theirs.getstate()
