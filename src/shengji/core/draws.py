"""Random draws that take exactly the bits ``random.Random`` would: ``pick(rng, seq)`` is
``rng.choice(seq)``, ``shuffle(rng, x)`` is ``rng.shuffle(x)``, ``sample(rng, seq, k)`` is
``rng.sample(seq, k)``, ``between(rng, a, b)`` is ``rng.randint(a, b)``, each leaving ``rng``
in the same state, so seeded deals and bots play the same cards. They are written here because
the standard library's are Python code: in the compiled build (``make mypyc``) these are
compiled with the engine (a compiled random deal: 3.7% fewer instructions; pure Python:
the same).

``Random`` draws an index below ``n`` by asking ``getrandbits(n.bit_length())`` until the
answer is below ``n`` (``Random._randbelow_with_getrandbits``, CPython 3.11 to 3.13);
tests/core/test_draws.py checks these against the library's own on every run.

>>> import random
>>> a, b = random.Random(7), random.Random(7)
>>> pick(a, "SHDC") == b.choice("SHDC") and a.getstate() == b.getstate()
True
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from math import ceil, log
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A random int in ``[0, n)`` (``n > 0``), the bits ``rng.choice`` would take."""
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def pick(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``: one element, drawn the same way."""
    if not seq:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]


def between(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)``: an int in ``[a, b]`` (``a <= b``)."""
    return a + below(rng, b - a + 1)


def shuffle(rng: random.Random, x: MutableSequence[T]) -> None:
    """``rng.shuffle(x)``: the same permutation, in place (``below`` written out, with the
    generator's method looked up once: a deck's shuffle asks it a hundred times)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: ``k`` distinct positions' elements, in draw order.

    Like the library's: for a population no bigger than a small set of ``k`` (21 entries, or
    21 plus the smallest power of 4 of at least ``3k`` when ``k > 5``) it draws from a
    shrinking pool, moving the last live entry into each taken slot; for a bigger one it
    redraws a position until it has not been taken yet.
    """
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    limit = 21
    if k > 5:
        limit += 4 ** ceil(log(k * 3, 4))
    out: list[T] = []
    if n <= limit:
        pool = list(population)
        for i in range(k):
            j = below(rng, n - i)
            out.append(pool[j])
            pool[j] = pool[n - i - 1]
        return out
    taken: set[int] = set()
    for _ in range(k):
        j = below(rng, n)
        while j in taken:
            j = below(rng, n)
        taken.add(j)
        out.append(population[j])
    return out
