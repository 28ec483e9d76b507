"""``core/draws.py`` draws what ``random.Random`` draws and leaves it in the same state, so
seeded deals and bots play the same cards with either."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shengji.core.draws import below, pick, shuffle


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
