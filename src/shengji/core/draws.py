"""Random draws that take exactly the bits ``random.Random`` would: ``pick(rng, seq)`` is
``rng.choice(seq)``, ``shuffle(rng, x)`` is ``rng.shuffle(x)``, each leaving ``rng`` in the
same state, so seeded deals and bots play the same cards. They are written here because
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


def shuffle(rng: random.Random, x: MutableSequence[T]) -> None:
    """``rng.shuffle(x)``: the same permutation, in place."""
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]
