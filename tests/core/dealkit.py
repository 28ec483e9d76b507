"""Tools for the state-machine tests: stacked decks, state snapshots, seeded random deals.

``stacked`` builds a real ``DealState`` whose shuffled pack is replaced by a chosen one, so
every later step goes through ``apply`` exactly as in a game:

>>> from shengji.core.ruleset import preset
>>> s = stacked(preset("one-deck"), {0: "SA", 1: "HA"}, level="2", dealer=0)
>>> s = deal_out(s)
>>> C("SA")[0] in s.hand(0), C("HA")[0] in s.hand(1)
(True, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from shengji.bots.random_bot import RandomBot
from shengji.core.actions import SYSTEM, Action, Bury, Deal, Pass
from shengji.core.cards import BJ, LJ, cards_str, deck, parse_cards, parse_level
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import CardCountDealt, Event
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset
from shengji.core.state import FIELDS, DealState
from shengji.core.views import view_for

C = parse_cards
"""``C("SA SA")``: card kinds from notation."""


def stacked(
    rs: Ruleset,
    hands: Mapping[int, str],
    kitty: str = "",
    *,
    level: str = "2",
    dealer: int | None = 0,
    fill_seed: int = 0,
    levels: Sequence[str] | None = None,
    rights: Sequence[int] = (),
) -> DealState:
    """A fresh deal (nothing dealt yet) whose pack gives ``hands[seat]`` to each seat and
    ``kitty`` to the kitty; every other card is spread over the remaining places (level cards
    and jokers go to the kitty first, so the filler rarely makes extra declarations).
    ``levels`` (each seat's level, e.g. ``"JK"``) and ``rights`` (亮牌权) go to
    ``DealState.new``."""
    s = DealState.new(
        rs, seed=f"stacked/{fill_seed}", level=parse_level(level), dealer=dealer,
        levels=None if levels is None else [parse_level(x) for x in levels], rights=rights,
    )
    players, n, k = rs.players, rs.hand_size, rs.kitty_size
    pool = Counter(deck(rs.decks))
    want: dict[int, list[int]] = {p: C(hands.get(p, "")) for p in range(players)}
    want_kitty = C(kitty)
    for cards in [*want.values(), want_kitty]:
        for c in cards:
            if pool[c] <= 0:
                raise ValueError(f"too many copies of {cards_str([c])}")
            pool[c] -= 1
    rest = [c for c, m in sorted(pool.items()) for _ in range(m)]
    random.Random(fill_seed).shuffle(rest)
    lvl = parse_level(level)
    rest.sort(key=lambda c: not (c in (LJ, BJ) or (c < 52 and c % 13 == lvl)))
    while len(want_kitty) < k:
        want_kitty.append(rest.pop(0))
    for p in range(players):
        if len(want[p]) > n:
            raise ValueError(f"seat {p} given {len(want[p])} cards, hands hold {n}")
    order: list[int] = []
    start = s.start
    fill = iter(reversed(rest))
    for p in range(players):
        while len(want[p]) < n:
            want[p].append(next(fill))
    for i in range(players * n):
        seat = (start + i) % players
        order.append(want[seat][i // players])
    if len(want_kitty) != k:
        raise ValueError("kitty has the wrong size")
    s.deck = (*order, *want_kitty)
    s.kitty = tuple(want_kitty)
    return s


def step(s: DealState, action: Action) -> DealState:
    """Apply and keep the state only."""
    return s.apply(action)[0]


def deal_out(s: DealState) -> DealState:
    """Deal every card (no declarations)."""
    while s.phase is Phase.DEALING:
        s = step(s, Deal())
    return s


def pass_round(s: DealState) -> DealState:
    """Every seat passes until the declaration window (or 反底 round) closes."""
    ph = s.phase
    while s.phase is ph and ph in (Phase.DECLARING, Phase.REBURY):
        seat = s.to_act
        assert seat is not None
        s = step(s, Pass(seat))
    return s


def bury_back(s: DealState) -> DealState:
    """The kitty holder buries the cards it was given."""
    assert s.phase is Phase.BURYING and s.kitty_holder is not None
    return step(s, Bury(s.kitty_holder, tuple(s.kitty)))


def to_play(s: DealState) -> DealState:
    """Deal, everyone passes, the kitty goes back as it was, nobody re-buries."""
    s = pass_round(deal_out(s))
    if s.phase is Phase.BURYING:
        s = bury_back(s)
    if s.phase is Phase.REBURY:
        s = pass_round(s)
    assert s.phase is Phase.PLAYING
    return s


def snapshot(s: DealState) -> dict[str, Any]:
    """Every slot of a state, hands frozen into tuples (to prove nothing changed).

    Private slots (a memo such as ``_to_act``) are left out: they cache derived values.
    """
    out = {}
    for name in FIELDS:
        v = getattr(s, name)
        if name == "hands":
            v = tuple(tuple(h) for h in v)
        out[name] = v
    return out


def assert_illegal(s: DealState, action: Action, reason: Reason) -> IllegalAction:
    """``action`` is refused for ``reason`` and the state did not change."""
    before = snapshot(s)
    with pytest.raises(IllegalAction) as info:
        s.apply(action)
    assert info.value.reason == reason, info.value.message
    assert snapshot(s) == before
    assert not s.is_legal(action)
    assert snapshot(s) == before
    return info.value


def hand_str(s: DealState, seat: int) -> str:
    """A seat's cards in notation (display order)."""
    return cards_str(s.hand(seat))


@dataclass
class Step:
    """One transition of a deal."""

    before: DealState
    action: Action
    after: DealState
    events: list[Event]


def random_deal(
    rs: Ruleset,
    seed: int | str,
    level: int = 0,
    dealer: int | None = 0,
    declare_chance: float = 0.3,
    start: DealState | None = None,
) -> list[Step]:
    """A whole deal played by seeded ``RandomBot`` players, as the match driver plays it."""
    s = start if start is not None else DealState.new(rs, seed, level, dealer)
    bots = [RandomBot(f"{seed}/{p}", declare_chance) for p in range(rs.players)]
    steps: list[Step] = []

    def do(a: Action) -> list[Event]:
        nonlocal s
        nxt, evs = s.apply(a)
        steps.append(Step(s, a, nxt, evs))
        s = nxt
        return evs

    while not s.is_over:
        actor = s.to_act
        if actor == SYSTEM:
            evs = do(Deal())
            seat = next(e.seat for e in evs if isinstance(e, CardCountDealt))
            legal = s.legal_actions(seat)
            if legal:
                choice = bots[seat].choose(view_for(s, seat), legal)
                if choice is not None:
                    do(choice)
            continue
        assert actor is not None
        choice = bots[actor].choose(view_for(s, actor), s.legal_actions(actor))
        assert choice is not None
        do(choice)
    return steps


def find_deal(
    rs: Ruleset,
    pred: Callable[[list[Step]], bool],
    seeds: Iterator[int] | range = range(400),
    **kw: Any,
) -> list[Step]:
    """The first seeded random deal that satisfies ``pred`` (fails the test if none does)."""
    for seed in seeds:
        steps = random_deal(rs, seed, **kw)
        if pred(steps):
            return steps
    pytest.fail("no seeded deal matched the scenario")
