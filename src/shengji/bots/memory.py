"""Card memory for a bot: what was played, what is still unseen, who is void.

Everything comes from one seat's ``DealView``: the played cards (``view.tricks`` and the
trick on the table), the seat's own hand and, for the seat that buried it, the kitty.
*Unseen* cards are in the other hands or in the hidden kitty. A seat that did not follow
the led suit is void in it; a seat that answered a pair lead without a pair holds no pair
of that suit any more.

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.order import context
>>> m = Memory(context(8, 1), decks=1, players=4, seat=0)
>>> m.add_trick(tuple((s, tuple(p(c))) for s, c in [(1, "S3"), (2, "D4"), (3, "S5"), (0, "SA")]))
>>> m.set_hand(counts_of(p("SK")))
>>> sorted(m.voids[2]), m.unseen[p("SA")[0]], m.is_boss(p("SK")[0])
([0], 0, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.cards import POINT_KINDS, POINTS_BY_KIND
from shengji.core.order import TRUMP, TrumpContext
from shengji.core.units import PosCounts, best_placement_top, pos_counts_from_hand

Plays = tuple[tuple[int, tuple[int, ...]], ...]
"""A trick's plays in order: ``(seat, cards)``, the lead first (as views and records hold
them: typed as tuples, the compiled build walks them without the generic protocol)."""


class Memory:
    """Played and unseen cards, known voids and pairless suits of one deal."""

    def __init__(self, ctx: TrumpContext, decks: int, players: int, seat: int) -> None:
        self.ctx = ctx
        self.decks = decks
        self.players = players
        self.seat = seat
        self.played = [0] * 54
        self.unseen = [decks] * 54
        self.unseen_total = 54 * decks
        self.unseen_points = 100 * decks
        self.voids: list[frozenset[int]] = [frozenset()] * players
        self.pairless: list[frozenset[int]] = [frozenset()] * players
        self.tricks_seen = 0
        self._pc: list[PosCounts | None] = [None] * 5
        self._above: list[list[int] | None] = [None] * 5
        """Caches by effective suit (lists: read on every chance worked out), until the
        next ``set_hand``."""

    def copy(self) -> Memory:
        """An independent copy (to add the trick on the table to)."""
        m = Memory(self.ctx, self.decks, self.players, self.seat)
        m.played = list(self.played)
        m.voids = list(self.voids)  # frozensets: shared until a trick adds to one
        m.pairless = list(self.pairless)
        m.tricks_seen = self.tricks_seen
        return m

    def set_hand(self, hand: tuple[int, ...], kitty: Sequence[int] = ()) -> None:
        """Unseen = every copy less the played cards, ``hand`` and a kitty this seat saw."""
        d, played = self.decks, self.played
        unseen = [d - played[k] - hand[k] for k in range(54)]
        for c in kitty:
            unseen[c] -= 1
        total = sum(unseen)  # a C loop, compiled or not
        pts = 0
        for k in POINT_KINDS:
            pts += POINTS_BY_KIND[k] * unseen[k]
        self.unseen = unseen
        self.unseen_total = total
        """How many cards are unseen (in the other hands or the hidden kitty)."""
        self.unseen_points = pts
        """The points among them."""
        self._pc = [None] * 5
        self._above = [None] * 5

    def add_trick(self, plays: Plays) -> None:
        """Record the cards of a trick (finished or in progress) and what they reveal."""
        es = self.ctx.esuit
        lead = plays[0][1]
        s = es[lead[0]]
        n = len(lead)
        lead_pairs = _pairs(lead, self.ctx) if n > 1 else 0
        played = self.played
        first = True
        for seat, cards in plays:
            for c in cards:
                played[c] += 1
            if first:
                first = False
                continue
            if n == 1:
                k = 1 if es[cards[0]] == s else 0
            else:
                k = 0
                for c in cards:
                    if es[c] == s:
                        k += 1
            if k < n:
                self.voids[seat] |= {s}
                self.pairless[seat] |= {s}
            elif lead_pairs and _pairs([c for c in cards if es[c] == s], self.ctx) < lead_pairs:
                self.pairless[seat] |= {s}
        self.tricks_seen += 1

    # ------------------------------------------------------------------ queries

    def suit_unseen(self, suit: int) -> int:
        """How many unseen cards the effective suit still has."""
        return self.unseen_above(suit)[0]  # the cards at position 0 or above: all of them

    def unseen_pc(self, suit: int) -> PosCounts:
        """The unseen cards of a suit by position (cached until the next trick)."""
        pc = self._pc[suit]
        if pc is None:
            pc = pos_counts_from_hand(self.unseen, suit, self.ctx)
            self._pc[suit] = pc
        return pc

    def unseen_above(self, suit: int) -> list[int]:
        """Unseen cards of a suit at each position or above (one more entry, 0, at the end;
        cached until the next trick)."""
        got = self._above[suit]
        if got is None:  # counted straight from ``unseen``: no ``unseen_pc`` needed
            ctx, unseen = self.ctx, self.unseen
            pos = ctx.pos
            got = [0] * (len(ctx.pos_faces[suit]) + 1)
            for k in ctx.suit_kinds[suit]:
                got[pos[k]] += unseen[k]
            n = 0
            for p in range(len(got) - 2, -1, -1):
                n += got[p]
                got[p] = n
            self._above[suit] = got
        return got

    def top_unseen(self, suit: int, width: int = 1, length: int = 1) -> int:
        """Top position of the highest unseen unit of this shape, or -1."""
        if width == 1 and length == 1:  # the highest position with an unseen card at or above
            above = self.unseen_above(suit)
            for p in range(len(above) - 2, -1, -1):
                if above[p]:
                    return p
            return -1
        return best_placement_top(self.unseen_pc(suit), (width, length))

    def is_boss(self, kind: int) -> bool:
        """Whether no unseen card of its suit ranks above this card."""
        return self.top_unseen(self.ctx.esuit[kind]) <= self.ctx.pos[kind]

    def trumps_out(self) -> int:
        """Unseen trumps (in the other hands or the hidden kitty)."""
        return self.suit_unseen(TRUMP)


def _pairs(cards: Sequence[int], ctx: TrumpContext) -> int:
    """Disjoint pairs among ``cards`` (two-colour faces count as identical)."""
    seen: dict[int, int] = {}
    for c in cards:
        f = ctx.face[c]
        seen[f] = seen.get(f, 0) + 1
    return sum(v // 2 for v in seen.values())
