"""What a follower may play to a lead (RULES.md §4).

Followers play as many cards as the lead. They play cards of the led (effective) suit while
they have them, and among all the ways to do so they must reach the best *shape class* their
cards of that suit allow. The class of a set of cards is its ``structure_key``:

* for leads the ruleset's table covers (triple, Titanic, quad shapes): the best rung reached;
* otherwise, in order: the cards of the lead's tractors matched by tractors of the same width
  and length, then the number of disjoint tuples of each width (widest first), each capped
  at what the lead holds. For two decks: "tractor if you have one, else as many pairs".

The best class is the best that as many cards as the lead can reach (``best_structure_key``),
not the best of each part on its own: with four decks a quad and a triple compete for the
same cards.

>>> from shengji.core.order import context
>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.ruleset import PRESETS
>>> ctx, rs = context(8, 1), PRESETS["classic"]
>>> follow_error(p("SK SK"), counts_of(p("S3 S3 S4 C5")), p("S3 S4"), ctx, rs)
'must play a pair of the led suit when you hold one'
>>> follow_error(p("SK SK"), counts_of(p("S3 S3 S4 C5")), p("S3 S3"), ctx, rs) is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from shengji.core.cards import counts_of
from shengji.core.errors import Reason
from shengji.core.follow_tables import TABLES, Rung, rung_text
from shengji.core.order import TrumpContext
from shengji.core.ruleset import Ruleset
from shengji.core.units import (
    Component,
    PosCounts,
    Unit,
    can_place,
    decompose,
    max_tractor_cover,
    placements,
    pos_counts,
    pos_counts_from_hand,
    suit_of_play,
)


@dataclass(frozen=True, eq=False)
class Lead:
    """A lead analysed once per trick: suit, units and what followers owe it."""

    cards: tuple[int, ...]
    suit: int
    units: tuple[Unit, ...]
    rungs: tuple[Rung, ...] | None
    """The ruleset's shape table for this lead, if it has one."""
    tractors: tuple[Component, ...]
    """The lead's tractors that followers owe a tractor for, biggest first."""
    slots: tuple[tuple[int, int], ...]
    """``(width, count)``: how many disjoint tuples of each width >= 2 followers owe."""
    owes: bool
    """Whether followers owe more than the suit (the house rules may protect them)."""

    def __init__(
        self,
        cards: tuple[int, ...],
        suit: int,
        units: tuple[Unit, ...],
        rungs: tuple[Rung, ...] | None,
        tractors: tuple[Component, ...],
        slots: tuple[tuple[int, int], ...],
        owes: bool,
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "rungs", rungs)
        object.__setattr__(self, "tractors", tractors)
        object.__setattr__(self, "slots", slots)
        object.__setattr__(self, "owes", owes)

    @property
    def size(self) -> int:
        """Number of cards led."""
        return len(self.cards)

    @property
    def has_structure(self) -> bool:
        """Whether followers owe more than the suit (a tuple the house rules do not
        protect)."""
        return self.owes

    @property
    def is_throw(self) -> bool:
        """Several units at once (甩牌)."""
        return len(self.units) > 1


@lru_cache(maxsize=4096)
def _analyse(
    cards: tuple[int, ...],
    ctx: TrumpContext,
    follow_order: str,
    triple_follow: str = "triple-then-pair",
    tractor_follow: str = "tractor-then-pairs",
) -> Lead:
    suit = suit_of_play(cards, ctx)
    if suit is None:
        raise ValueError("a lead must be cards of one effective suit")
    units = tuple(decompose(cards, ctx))
    shapes = tuple(sorted(u.shape for u in units))
    house_triple = triple_follow != "triple-then-pair" and (3, 1) in shapes
    house_tractor = tractor_follow != "tractor-then-pairs" and any(u.length > 1 for u in units)
    rungs = None if house_triple or house_tractor else TABLES[follow_order].get(shapes)
    owed_tractor = tractor_follow in ("tractor-then-pairs", "tractor-only")
    tractors = tuple(
        sorted((u.shape for u in units if u.length > 1 and owed_tractor), reverse=True)
    )
    widths = range(max(u.width for u in units), 1, -1)
    slots = tuple((w, sum(_owed_tuples(u, w, triple_follow, tractor_follow) for u in units))
                  for w in widths)
    owes = (len(rungs) > 1) if rungs is not None else bool(tractors) or any(c for _, c in slots)
    return Lead(cards, suit, units, rungs, tractors, slots, owes)


def _owed_tuples(unit: Unit, w: int, triple_follow: str, tractor_follow: str) -> int:
    """How many disjoint ``w``-tuples a follower owes for ``unit`` under the house rules
    (``Ruleset.triple_follow``, ``Ruleset.tractor_follow``): a tractor's pairs are owed
    unless only a tractor is (``tractor-only``) or nothing is (``free``); a lone triple
    owes a pair only under ``triple-then-pair``, a triple only unless ``free``."""
    if unit.length > 1 and tractor_follow in ("tractor-only", "free"):
        return 0
    if unit.shape == (3, 1) and (
        triple_follow == "free" or (w < 3 and triple_follow == "triple-only")
    ):
        return 0
    return unit.length * (unit.width // w)


def analyse_lead(cards: Sequence[int], ctx: TrumpContext, ruleset: Ruleset) -> Lead:
    """The ``Lead`` for these cards (cached)."""
    return _analyse(
        tuple(sorted(cards)),
        ctx,
        ruleset.follow_order,
        ruleset.triple_follow,
        ruleset.tractor_follow,
    )


def structure_key(lead: Lead, pc: PosCounts) -> tuple[int, ...]:
    """The shape class of cards of the led suit (``pc``) against ``lead``; higher is better."""
    if lead.rungs is not None:
        for i, rung in enumerate(lead.rungs):
            if any(can_place(pc, alt) for alt in rung):
                return (-i,)
        return (-len(lead.rungs),)
    key = [max_tractor_cover(pc, lead.tractors)] if lead.tractors else []
    for w, cap in lead.slots:
        have = 0
        for slot in pc:
            for e in slot:
                have += e[1] // w
        key.append(min(have, cap))
    return tuple(key)


def best_structure_key(lead: Lead, pc: PosCounts) -> tuple[int, ...]:
    """The best shape class that ``lead.size`` cards out of ``pc`` can reach.

    The parts of the generic key compete for the same cards (a quad gives two pairs in
    four cards, a triple one pair in three), so the best is searched for jointly: first
    the largest tractor cover, then, over the tractor placements that reach it, the best
    capped tuple counts within the card budget. Rung tables need no search: every rung
    fits in the lead's number of cards.
    """
    if lead.rungs is not None:
        return structure_key(lead, pc)
    n = lead.size
    head: tuple[int, ...] = ()
    floors: list[dict[int, int]] = [{}]
    if lead.tractors:
        cover = max_tractor_cover(pc, lead.tractors)
        head = (cover,)
        if cover:
            floors = _cover_floors(pc, lead.tractors, cover)
    return head + max(_best_tuple_counts(lead, pc, n, floor) for floor in floors)


def _cover_floors(
    pc: PosCounts, tractors: Sequence[Component], target: int
) -> list[dict[int, int]]:
    """Cards per face that each placement of ``tractors`` covering ``target`` cards uses."""
    found: set[frozenset[tuple[int, int]]] = set()
    used: dict[int, int] = {}

    def rec(i: int, got: int) -> None:
        if got == target:
            found.add(frozenset(used.items()))
            return
        if i == len(tractors):
            return
        w, length = tractors[i]
        for _top, chain in placements(pc, w, length):
            for e in chain:
                e[1] -= w
                used[e[0]] = used.get(e[0], 0) + w
            rec(i + 1, got + w * length)
            for e in chain:
                e[1] += w
                used[e[0]] -= w
                if not used[e[0]]:
                    del used[e[0]]
        rec(i + 1, got)

    rec(0, 0)
    return [dict(f) for f in found]


def _best_tuple_counts(
    lead: Lead, pc: PosCounts, n: int, floor: dict[int, int]
) -> tuple[int, ...]:
    """Best capped tuple counts (widest first) of at most ``n`` cards from ``pc`` that
    take at least ``floor[face]`` cards of each face (a small dynamic programme).

    A state's counts are packed into one int, the widest slot's count most significant
    (each count is at most its cap, so ints order as the tuples would).
    """
    slots = lead.slots
    m = len(slots)
    mults = [0] * m
    mult = 1
    for i in range(m - 1, -1, -1):
        mults[i] = mult
        mult *= slots[i][1] + 1
    states: dict[int, int] = {0: 0}
    for slot in pc:
        for face, held in slot:
            lowest = floor.get(face, 0)
            nxt: dict[int, int] = {}
            for packed, cost in states.items():
                for x in range(lowest, held + 1):
                    total = cost + x
                    if total > n:
                        break
                    key = 0
                    for i in range(m):
                        w, cap = slots[i]
                        have = packed // mults[i] % (cap + 1) + x // w
                        key += (cap if have > cap else have) * mults[i]
                    if nxt.get(key, n + 1) > total:
                        nxt[key] = total
            states = nxt
    best = max(states)
    return tuple([best // mults[i] % (slots[i][1] + 1) for i in range(m)])


def suit_count(hand: Sequence[int], suit: int, ctx: TrumpContext) -> int:
    """How many cards of an effective suit a count vector holds."""
    n = 0
    for k in ctx.suit_kinds[suit]:  # a loop, not ``sum``: the compiled build keeps C ints
        n += hand[k]
    return n


def follow_error(
    lead_cards: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> str | None:
    """Why ``play`` may not follow ``lead_cards`` from ``hand`` (a count vector), or None."""
    lead = analyse_lead(lead_cards, ctx, ruleset)
    return follow_error_for(lead, hand, play, ctx)


def follow_error_for(
    lead: Lead, hand: Sequence[int], play: Sequence[int], ctx: TrumpContext
) -> str | None:
    """``follow_error`` with the lead already analysed."""
    refusal = follow_refusal(lead, hand, play, ctx)
    return None if refusal is None else refusal[1]


def follow_refusal(
    lead: Lead, hand: Sequence[int], play: Sequence[int], ctx: TrumpContext,
    best: tuple[int, ...] | None = None,
) -> tuple[Reason, str] | None:
    """Why a follow is refused, as ``(Reason, message)``, or None when it is legal.

    ``best``: ``best_structure_key`` of the hand's cards of the led suit, when the caller
    has worked it out already (checking several follows from one hand)."""
    n = lead.size
    if len(play) != n:
        return Reason.WRONG_COUNT, f"play {n} card(s) to follow, not {len(play)}"
    for c in set(play):
        if hand[c] < play.count(c):
            return Reason.NOT_IN_HAND, "the play holds cards that are not in the hand"
    s = lead.suit
    es = ctx.esuit
    have = suit_count(hand, s, ctx)
    played = [c for c in play if es[c] == s]
    if len(played) < min(n, have):
        return Reason.MUST_FOLLOW_SUIT, "must follow the led suit while you hold it"
    if not lead.has_structure or have <= n:
        return None
    if best is None:
        best = best_structure_key(lead, pos_counts_from_hand(hand, s, ctx))
    got = structure_key(lead, pos_counts(played, s, ctx))
    if got == best:
        return None
    return Reason.MUST_FOLLOW_STRUCTURE, _structure_message(lead, best, got)


def _structure_message(lead: Lead, best: tuple[int, ...], got: tuple[int, ...]) -> str:
    if lead.rungs is not None:
        return (f"must play {rung_text(lead.rungs[-best[0]])} of the led suit: the best "
                "shape your cards allow for this lead")
    if len(lead.units) == 1 and lead.units[0].shape == (2, 1):
        return "must play a pair of the led suit when you hold one"
    if len(lead.units) == 1 and lead.units[0].length > 1 and lead.units[0].width == 2:
        if lead.tractors and best[0] > got[0]:
            return "must play a tractor of the led suit when you hold one"
        return "must play as many pairs of the led suit as you hold"
    return "must follow the lead's structure (tractors, then tuples) as far as you can"


def is_legal_follow(
    lead_cards: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    ctx: TrumpContext,
    ruleset: Ruleset,
) -> bool:
    """Whether ``play`` is a legal follow (see ``follow_error``)."""
    return follow_error(lead_cards, hand, play, ctx, ruleset) is None


def multiset_combos(cards: Sequence[int], k: int) -> Iterator[tuple[int, ...]]:
    """Distinct sub-multisets of size ``k`` of ``cards``, lazily."""
    items = sorted(set(cards))
    counts = [cards.count(c) for c in items]

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(items):
            return
        if sum(counts[i:]) < left:
            return
        for take in range(min(counts[i], left), -1, -1):
            for rest in rec(i + 1, left - take):
                yield (items[i],) * take + rest

    return rec(0, k)


def legal_follows(
    lead_cards: Sequence[int], hand: Sequence[int], ctx: TrumpContext, ruleset: Ruleset
) -> Iterator[tuple[int, ...]]:
    """Every distinct legal follow (sorted card tuples), generated lazily.

    Void followers have many choices (any ``n`` of the other cards); nothing is built
    ahead, so taking the first few is cheap whatever the hand.
    """
    lead = analyse_lead(lead_cards, ctx, ruleset)
    n, s = lead.size, lead.suit
    cards = [k for k, c in enumerate(hand) for _ in range(c)]
    suited = [c for c in cards if ctx.esuit[c] == s]
    others = [c for c in cards if ctx.esuit[c] != s]
    if len(suited) <= n:
        for fill in multiset_combos(others, n - len(suited)):
            yield tuple(sorted((*suited, *fill)))
        return
    if not lead.has_structure:
        yield from multiset_combos(suited, n)
        return
    best = best_structure_key(lead, pos_counts_from_hand(hand, s, ctx))
    for combo in multiset_combos(suited, n):
        if structure_key(lead, pos_counts(combo, s, ctx)) == best:
            yield combo


class FollowBuilder:
    """Pick a follow card by card: which cards can still be added on the way to a legal play.

    >>> from shengji.core.order import context
    >>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
    >>> from shengji.core.ruleset import PRESETS
    >>> hand = counts_of(p("S3 S3 S4 C5"))
    >>> b = FollowBuilder(p("SK SK"), hand, context(8, 1), PRESETS["classic"])
    >>> cards_str(sorted(b.allowed_next([])))
    'S3'
    """

    def __init__(
        self, lead_cards: Sequence[int], hand: Sequence[int], ctx: TrumpContext, ruleset: Ruleset
    ) -> None:
        self.lead_cards = list(lead_cards)
        self.hand = list(hand)
        self.ctx = ctx
        self.ruleset = ruleset

    def _completable(self, selected: Sequence[int]) -> bool:
        lead = analyse_lead(self.lead_cards, self.ctx, self.ruleset)
        es, s, n = self.ctx.esuit, lead.suit, lead.size
        have_suit = suit_count(self.hand, s, self.ctx)
        off = sum(1 for c in selected if es[c] != s)
        if len(selected) > n or off > max(0, n - have_suit):
            return False
        if have_suit <= n:
            return True  # all of the suit, then any others: any such start completes
        need = counts_of(selected)
        for play in legal_follows(self.lead_cards, self.hand, self.ctx, self.ruleset):
            have = counts_of(play)
            if all(have[k] >= c for k, c in enumerate(need) if c):
                return True
        return False

    def allowed_next(self, selected: Sequence[int]) -> set[int]:
        """Card kinds that can be added to ``selected`` with a legal completion left."""
        used = counts_of(selected)
        out: set[int] = set()
        for k, c in enumerate(self.hand):
            if c > used[k] and self._completable([*selected, k]):
                out.add(k)
        return out

    def is_complete(self, selected: Sequence[int]) -> bool:
        """Whether ``selected`` is a legal follow already."""
        return (
            follow_error(self.lead_cards, self.hand, selected, self.ctx, self.ruleset) is None
        )


def first_legal_follow(
    lead_cards: Sequence[int], hand: Sequence[int], ctx: TrumpContext, ruleset: Ruleset
) -> tuple[int, ...]:
    """One legal follow (there always is one)."""
    return next(iter(legal_follows(lead_cards, hand, ctx, ruleset)))


__all__ = [
    "FollowBuilder",
    "Lead",
    "analyse_lead",
    "best_structure_key",
    "first_legal_follow",
    "follow_error",
    "follow_error_for",
    "is_legal_follow",
    "legal_follows",
    "structure_key",
    "suit_count",
]
