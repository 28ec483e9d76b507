"""The shape searches' fast forms find exactly what their plain forms find (issue 17).

- ``placements`` checks each position once, keeping a run of positions that hold the
  width, rather than every window's positions again;
- the follow rules' tuple-count search packs its states into ints.

Example of the second: a lead of ``S9 S9 S7 S7 S4`` (two pairs and a single: one slot,
pairs capped at 2) against ``S3 S3 S5 S5 S5 S6`` reaches two pairs in five cards; taking
at least three ``S5`` first (a floor, as a tractor placement would) still leaves two
pairs.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.core.cards import parse_cards
from shengji.core.follow import Lead, _analyse, _best_tuple_counts
from shengji.core.order import TrumpContext, context
from shengji.core.units import PosCounts, _chains, placements, pos_counts_from_hand


def plain_placements(
    pc: PosCounts, width: int, length: int
) -> list[tuple[int, list[list[int]]]]:
    """``placements`` as it was written first: every window's positions checked."""
    out = []
    n = len(pc)
    for lo in range(n - length, -1, -1):
        hi = lo + length - 1
        if not all(any(e[1] >= width for e in pc[p]) for p in range(lo, hi + 1)):
            continue
        out.extend((hi, chain) for chain in _chains(pc, width, lo, hi))
    return out


def reference(lead: Lead, pc: PosCounts, n: int, floor: dict[int, int]) -> tuple[int, ...]:
    """The search over count tuples, as it was written before states were packed."""
    slots = lead.slots
    states: dict[tuple[int, ...], int] = {tuple(0 for _ in slots): 0}
    for slot in pc:
        for face, held in slot:
            lowest = floor.get(face, 0)
            nxt: dict[tuple[int, ...], int] = {}
            for counts, cost in states.items():
                for x in range(lowest, held + 1):
                    total = cost + x
                    if total > n:
                        break
                    key = tuple(
                        min(cap, have + x // w)
                        for have, (w, cap) in zip(counts, slots, strict=True)
                    )
                    if nxt.get(key, n + 1) > total:
                        nxt[key] = total
            states = nxt
    return max(states)


def _counts(cards: list[int]) -> list[int]:
    out = [0] * 54
    for c in cards:
        out[c] += 1
    return out


def test_the_example() -> None:
    ctx = context(8, 1)
    lead = _analyse(tuple(sorted(parse_cards("S9 S9 S7 S7 S4"))), ctx, "qq")
    pc = pos_counts_from_hand(_counts(parse_cards("S3 S3 S5 S5 S5 S6")), 0, ctx)
    s5 = parse_cards("S5")[0]
    assert _best_tuple_counts(lead, pc, 5, {}) == reference(lead, pc, 5, {}) == (2,)
    assert _best_tuple_counts(lead, pc, 5, {s5: 3}) == reference(lead, pc, 5, {s5: 3}) == (2,)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Lead, PosCounts, dict[int, int], TrumpContext]:
    decks = draw(st.integers(2, 4))
    ctx = context(draw(st.integers(0, 12)), draw(st.integers(-1, 3)),
                  two_color=draw(st.booleans()))
    suit = draw(st.sampled_from([s for s in range(5) if ctx.suit_kinds[s]]))
    kinds = ctx.suit_kinds[suit]
    lead_counts = draw(st.lists(st.integers(0, decks), min_size=len(kinds), max_size=len(kinds)))
    lead_cards = [k for k, c in zip(kinds, lead_counts, strict=True) for _ in range(c)]
    if not lead_cards:
        lead_cards = [kinds[0]]
    lead = _analyse(tuple(sorted(lead_cards)), ctx, draw(st.sampled_from(["qq", "lianzhong"])))
    hand_counts = draw(st.lists(st.integers(0, decks), min_size=len(kinds), max_size=len(kinds)))
    hand = [0] * 54
    for k, c in zip(kinds, hand_counts, strict=True):
        hand[k] = c
    pc = pos_counts_from_hand(hand, suit, ctx)
    floor: dict[int, int] = {}
    for slot in pc:
        for face, held in slot:
            if draw(st.booleans()):
                floor[face] = draw(st.integers(0, held))
    return lead, pc, floor, ctx


@settings(max_examples=300, deadline=None)
@given(positions())
def test_packed_states_find_what_count_tuples_find(
    case: tuple[Lead, PosCounts, dict[int, int], TrumpContext],
) -> None:
    lead, pc, floor, _ctx = case
    n = lead.size
    try:
        want = reference(lead, pc, n, floor)
    except ValueError:  # no way to honour the floor in n cards: both searches give up
        try:
            _best_tuple_counts(lead, pc, n, floor)
        except ValueError:
            return
        raise AssertionError("the packed search found a state the reference did not") from None
    assert _best_tuple_counts(lead, pc, n, floor) == want


@settings(max_examples=300, deadline=None)
@given(positions(), st.integers(1, 4), st.integers(1, 6))
def test_placements_are_the_plain_ones_in_order(
    case: tuple[Lead, PosCounts, dict[int, int], TrumpContext], width: int, length: int
) -> None:
    _lead, pc, _floor, _ctx = case
    assert list(placements(pc, width, length)) == plain_placements(pc, width, length)
