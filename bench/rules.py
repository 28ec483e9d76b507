"""Rules-engine benchmark: how fast the core answers the questions a game asks every trick.

Deals come from seeded shuffles of two decks (4 hands of 25 cards + a kitty of 8) with a random
level and trump (no-trump included). Leads are units taken from a random player's hand: a
single, a pair, a tractor or a throw (several units of one suit). Everything runs in this one
process (pinned to one CPU where the OS allows), timed with ``time.perf_counter_ns``. It prints
figures and asserts nothing.

    .venv/bin/python bench/rules.py [--seconds N] [--seed S]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeVar

from shengji.core import (
    NO_TRUMP,
    PRESETS,
    Ruleset,
    TrumpContext,
    cards_str,
    check_throw,
    classify,
    context_for,
    counts_of,
    decompose,
    is_legal_follow,
    legal_follows,
    trick_winner,
)
from shengji.core.cards import deck

RULESET = PRESETS["classic"]
HAND, PLAYERS = 25, 4
ENUM_CAP = 200_000
"""Legal-follow enumeration stops after this many follows (reported as capped)."""
PICK_FROM = 64
"""A "random legal follow" is drawn from the first this-many follows the engine yields."""
LEAD_KINDS = ("single", "pair", "tractor", "throw")
TRUMPS = (0, 1, 2, 3, NO_TRUMP)
SHARES = {"follow": 0.22, "trick": 0.14, "throw": 0.14, "enum": 0.40}
"""Share of the time budget per section; the rest goes to building the scenarios."""


@dataclass(frozen=True)
class Deal:
    """Four hands (card lists and count vectors) under one level and trump."""

    hands: tuple[list[int], ...]
    counts: tuple[list[int], ...]
    ctx: TrumpContext


def deal(rng: random.Random) -> Deal:
    """A seeded shuffle of two decks: 4 hands of 25, 8 cards left for the kitty."""
    cards = deck(RULESET.decks)
    rng.shuffle(cards)
    hands = tuple(cards[i * HAND : (i + 1) * HAND] for i in range(PLAYERS))
    ctx = context_for(RULESET, rng.randrange(13), rng.choice(TRUMPS))
    return Deal(hands, tuple(counts_of(h) for h in hands), ctx)


def _units_by_suit(hand: Sequence[int], ctx: TrumpContext) -> dict[int, list[list[int]]]:
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(ctx.esuit[c], []).append(c)
    return {s: [u.cards() for u in decompose(cs, ctx)] for s, cs in by_suit.items()}


def make_lead(hand: Sequence[int], ctx: TrumpContext, rng: random.Random, kind: str) -> list[int]:
    """A lead of ``kind`` from ``hand``, or of the nearest simpler kind the hand allows."""
    units = _units_by_suit(hand, ctx)
    if kind == "throw":
        suits = [s for s, us in units.items() if len(us) >= 2]
        if suits:
            us = units[rng.choice(suits)]
            picked = rng.sample(us, rng.randint(2, min(4, len(us))))
            return [c for u in picked for c in u]
        kind = "tractor"
    if kind == "tractor":
        tractors = [u for us in units.values() for u in us if len(set(u)) > 1]
        if tractors:
            faces = sorted(set(rng.choice(tractors)), key=lambda c: -ctx.pos[c])
            length = rng.randint(2, len(faces))
            start = rng.randint(0, len(faces) - length)
            return [f for f in faces[start : start + length] for _ in range(2)]
        kind = "pair"
    if kind == "pair":
        pairs = sorted(c for c, n in Counter(hand).items() if n >= 2)
        if pairs:
            return [rng.choice(pairs)] * 2
    return [rng.choice(hand)]


def deal_and_lead(rng: random.Random, kind: str | None = None) -> tuple[Deal, int, list[int]]:
    """A deal, a seat and a lead of ``kind`` (random if None) from that seat's hand.

    Seats are tried in random order; when no seat can lead the kind (no tractor anywhere, say)
    the cards are dealt again, so the four kinds stay equally likely.
    """
    kind = kind or rng.choice(LEAD_KINDS)
    while True:
        d = deal(rng)
        for seat in rng.sample(range(PLAYERS), PLAYERS):
            lead = make_lead(d.hands[seat], d.ctx, rng, kind)
            if lead_kind(lead, d.ctx) == kind:
                return d, seat, lead


def random_legal_follow(
    lead: Sequence[int], counts: Sequence[int], ctx: TrumpContext, rng: random.Random
) -> tuple[int, ...]:
    """One of the first ``PICK_FROM`` legal follows, at random."""
    return rng.choice(list(islice(legal_follows(lead, counts, ctx, RULESET), PICK_FROM)))


def lead_kind(lead: Sequence[int], ctx: TrumpContext) -> str:
    """``single``, ``pair``, ``tractor`` or ``throw`` as the engine classifies the lead."""
    return classify(lead, ctx).kind


# ------------------------------------------------------------------------------ measuring


def percentile(sorted_values: Sequence[int], q: float) -> int:
    """Nearest-rank percentile of already sorted values."""
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def us(ns: float) -> str:
    """Nanoseconds as microseconds (or milliseconds when large) for printing."""
    return f"{ns / 1e6:,.1f} ms" if ns >= 1e6 else f"{ns / 1e3:,.1f} µs"


def time_calls(
    scenarios: Sequence[tuple[Any, ...]], call: Callable[..., Any], budget_s: float
) -> tuple[list[int], list[Any]]:
    """Call ``call(*scenario)`` round the scenarios until the budget is spent; per-call ns."""
    times: list[int] = []
    results: list[Any] = []
    clock = time.perf_counter_ns
    deadline = clock() + int(budget_s * 1e9)
    while clock() < deadline:
        for args in scenarios:
            t0 = clock()
            out = call(*args)
            times.append(clock() - t0)
            results.append(out)
        if not scenarios:
            break
    return times, results


def report(title: str, times: list[int], extra: str = "") -> None:
    """Print calls per second (from the summed call times), median and p95."""
    s = sorted(times)
    total = sum(s)
    rate = len(s) / (total / 1e9) if total else 0.0
    print(f"{title}")
    print(
        f"  {len(s):,} calls in {total / 1e9:.2f} s of call time: {rate:,.0f} /s; "
        f"median {us(percentile(s, 0.5))}, p95 {us(percentile(s, 0.95))}, "
        f"max {us(s[-1])}"
    )
    if extra:
        print(f"  {extra}")


def shares(kinds: Sequence[str]) -> str:
    """``single 25%, pair 24%, ...`` for a list of lead kinds."""
    c = Counter(kinds)
    return ", ".join(f"{k} {100 * c[k] / len(kinds):.0f}%" for k in sorted(c, key=str))


Scenario = TypeVar("Scenario")


def build_until(make: Callable[[], Scenario], count: int, budget_s: float) -> list[Scenario]:
    """Up to ``count`` scenarios from ``make``, stopping early when the budget is spent."""
    out: list[Scenario] = []
    deadline = time.perf_counter() + budget_s
    while len(out) < count and (not out or time.perf_counter() < deadline):
        out.append(make())
    return out


# ------------------------------------------------------------------------------ sections


def bench_follow(rng: random.Random, budget_s: float, build_s: float) -> None:
    """Follow-legality checks: half legal follows, half random same-size subsets."""

    def make() -> tuple[list[int], list[int], Sequence[int], TrumpContext, Ruleset]:
        d, seat, lead = deal_and_lead(rng)
        follower = (seat + rng.randint(1, PLAYERS - 1)) % PLAYERS
        counts = d.counts[follower]
        if rng.random() < 0.5:
            play: Sequence[int] = random_legal_follow(lead, counts, d.ctx, rng)
        else:
            play = rng.sample(d.hands[follower], len(lead))
        return (lead, counts, play, d.ctx, RULESET)

    scenarios = build_until(make, 3000, build_s)
    times, results = time_calls(scenarios, is_legal_follow, budget_s)
    legal = sum(1 for r in results if r) / len(results)
    kinds = [lead_kind(s[0], s[3]) for s in scenarios]
    report(
        "follow-legality checks (is_legal_follow)",
        times,
        f"{len(scenarios):,} scenarios cycled; leads: {shares(kinds)}; "
        f"{100 * legal:.0f}% of checked plays legal",
    )


def bench_trick(rng: random.Random, budget_s: float, build_s: float) -> None:
    """Trick winner of a lead and three legal follows."""

    def make() -> tuple[list[list[int]], TrumpContext, Ruleset]:
        d, seat, lead = deal_and_lead(rng)
        plays = [lead]
        for i in range(1, PLAYERS):
            counts = d.counts[(seat + i) % PLAYERS]
            plays.append(list(random_legal_follow(lead, counts, d.ctx, rng)))
        return (plays, d.ctx, RULESET)

    scenarios = build_until(make, 1500, build_s)
    times, results = time_calls(scenarios, trick_winner, budget_s)
    led = sum(1 for r in results if r == 0) / len(results)
    kinds = [lead_kind(s[0][0], s[1]) for s in scenarios]
    report(
        "trick-winner evaluations (trick_winner, 4 plays)",
        times,
        f"{len(scenarios):,} tricks cycled; leads: {shares(kinds)}; "
        f"the leader wins {100 * led:.0f}%",
    )


def bench_throw(rng: random.Random, budget_s: float, build_s: float) -> None:
    """Throw validation of a multi-unit lead against the three other hands."""

    def make() -> tuple[list[int], list[list[int]], TrumpContext, Ruleset]:
        d, seat, lead = deal_and_lead(rng, "throw")
        others = [d.counts[(seat + i) % PLAYERS] for i in range(1, PLAYERS)]
        return (lead, others, d.ctx, RULESET)

    scenarios = build_until(make, 1500, build_s)
    times, results = time_calls(scenarios, check_throw, budget_s)
    valid = sum(1 for r in results if r.valid) / len(results)
    sizes = sorted(len(s[0]) for s in scenarios)
    report(
        "throw validations (check_throw against 3 hands)",
        times,
        f"{len(scenarios):,} leads cycled, {sizes[0]}..{sizes[-1]} cards "
        f"(median {percentile(sizes, 0.5)}); {100 * valid:.0f}% valid",
    )


def bench_enum(rng: random.Random, budget_s: float) -> None:
    """Full ``legal_follows`` enumerations (capped) and the time to the first follow."""
    first: list[int] = []
    full: list[int] = []
    counts_seen: list[int] = []
    slowest: tuple[int, int, str] = (-1, 0, "")
    capped = 0
    clock = time.perf_counter_ns
    deadline = clock() + int(budget_s * 1e9)
    while clock() < deadline:
        d, seat, lead = deal_and_lead(rng)
        follower = (seat + rng.randint(1, PLAYERS - 1)) % PLAYERS
        counts = d.counts[follower]
        t0 = clock()
        next(legal_follows(lead, counts, d.ctx, RULESET))
        first.append(clock() - t0)
        it: Iterator[tuple[int, ...]] = legal_follows(lead, counts, d.ctx, RULESET)
        t0 = clock()
        n = sum(1 for _ in islice(it, ENUM_CAP))
        ns = clock() - t0
        full.append(ns)
        counts_seen.append(n)
        capped += n == ENUM_CAP
        if ns > slowest[0]:
            suited = sum(1 for c in d.hands[follower] if d.ctx.esuit[c] == d.ctx.esuit[lead[0]])
            what = (
                f"lead {lead_kind(lead, d.ctx)} {cards_str(lead)!r} ({len(lead)} cards); "
                f"follower holds {suited} of the led suit"
            )
            slowest = (ns, n, what)
    s_first, s_full, s_n = sorted(first), sorted(full), sorted(counts_seen)
    print(f"legal-follow enumeration (legal_follows, capped at {ENUM_CAP:,} follows)")
    print(
        f"  {len(full):,} leads; time to the first legal follow: median "
        f"{us(percentile(s_first, 0.5))}, p95 {us(percentile(s_first, 0.95))}, "
        f"max {us(s_first[-1])}"
    )
    print(
        f"  full enumeration: median {us(percentile(s_full, 0.5))}, "
        f"p95 {us(percentile(s_full, 0.95))}; follows per lead: median "
        f"{percentile(s_n, 0.5):,}, p95 {percentile(s_n, 0.95):,}, max {s_n[-1]:,}; "
        f"{capped} enumeration(s) hit the cap"
    )
    ns, n, what = slowest
    cap_note = " (capped)" if n == ENUM_CAP else ""
    print(f"  slowest: {us(ns)} for {n:,} follows{cap_note}: {what}")


def pin_one_cpu() -> str:
    """Pin this process to one CPU where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=24.0, help="total time budget (≈)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffles")
    args = parser.parse_args(argv)
    budget = max(1.0, args.seconds)
    build = budget * (1 - sum(SHARES.values())) / 3
    rng = random.Random(args.seed)
    started = time.perf_counter()
    print(
        f"shengji rules benchmark: seed {args.seed}, budget {budget:g} s, "
        f"Python {platform.python_version()} ({sys.implementation.name}) on "
        f"{platform.system()} {platform.machine()}, one process {pin_one_cpu()}"
    )
    print(
        f"deals: {RULESET.decks} decks, {PLAYERS} hands of {HAND} + kitty "
        f"{RULESET.kitty_size}, ruleset {RULESET.name!r}, random level and trump "
        "(no-trump 1 in 5)"
    )
    print(
        "leads: single, pair, tractor and throw equally likely, from a seat that holds one; "
        f"a random legal follow is one of the first {PICK_FROM} the engine yields; "
        "the engine caches lead analysis, as when three followers answer one lead"
    )
    print()
    bench_follow(rng, budget * SHARES["follow"], build)
    bench_trick(rng, budget * SHARES["trick"], build)
    bench_throw(rng, budget * SHARES["throw"], build)
    bench_enum(rng, budget * SHARES["enum"])
    print()
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
