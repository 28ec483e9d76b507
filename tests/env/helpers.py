"""Shared helpers: play random deals through the raw environment, stopping at decisions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from shengji.env.actions import FINISH, Picker, Turn
from shengji.env.aec import ShengjiEnv


def decisions(env: ShengjiEnv, seed: int) -> Iterator[Turn]:
    """Play a deal with random allowed indices; yield each fresh decision before it is taken."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    while env.turn is not None:
        turn = env.turn
        if not turn.picked:
            yield turn
        if env.turn is not turn:  # the caller took the decision itself
            continue
        env.step(rng.choice(turn.allowed()))


def complete_sets(picker: Picker, cap: int = 5000) -> set[tuple[int, ...]] | None:
    """Every card set the picker can finish, walking its mask; None past ``cap``.

    Asserts there is no dead end: every allowed card leads to at least one finished set.
    """
    out: set[tuple[int, ...]] = set()

    def walk(picked: list[int]) -> int:
        if len(out) > cap:
            raise OverflowError
        nxt = picker.allowed(picked)
        found = 0
        if picked and picker.complete(picked):
            out.add(tuple(picked))
            found += 1
        else:
            assert nxt, f"dead end at {picked}"
        for c in nxt:
            assert c != FINISH
            found += walk([*picked, c])
        assert found, f"no finished set below {picked}"
        return found

    try:
        walk([])
    except OverflowError:
        return None
    return out


def run_deals(
    name: str, seeds: range, check: Callable[[ShengjiEnv, Turn], None], **kwargs: object
) -> int:
    """Run ``check`` on every decision of random deals; the number of decisions seen."""
    env = ShengjiEnv(name, **kwargs)  # type: ignore[arg-type]
    n = 0
    for seed in seeds:
        for turn in decisions(env, seed):
            check(env, turn)
            n += 1
    return n
