"""Effective suit, order and adjacency for a level rank and a trump suit (RULES.md §2).

Each card kind gets a *face* (the kind it is identical to: in two-colour play ♦K is ♥K),
an *effective suit* (0..3, or ``TRUMP``) and a *position* inside that suit: a higher
position beats a lower one, equal positions tie (first played wins), and consecutive
positions are adjacent for tractors. Tables are built once per context and cached.

>>> ctx = context(level=8, trump=1)            # level 10, hearts trump
>>> from shengji.core.cards import parse_card as c
>>> ctx.esuit[c("S10")] == TRUMP, ctx.pos[c("S10")] + 1 == ctx.pos[c("H10")]
(True, True)
>>> ctx.pos[c("SJ")] - ctx.pos[c("S9")]         # J and 9 touch when 10 is the level
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shengji.core.cards import BJ, JOKER_LEVEL, LJ, NO_TRUMP, NUM_KINDS, card
from shengji.core.ruleset import Ruleset

TRUMP: Final = 4
"""Effective-suit index of the trump suit."""

_TWO: Final = 0  # rank index of the 2


@dataclass(frozen=True, eq=False)
class TrumpContext:
    """Order tables for one (level, trump, 常主2, two-colour) combination."""

    level: int
    trump: int
    permanent_twos: bool
    two_color: bool
    face: tuple[int, ...]
    """Kind → the kind it is identical to (itself except in two-colour play)."""
    esuit: tuple[int, ...]
    """Kind → effective suit 0..3 or TRUMP."""
    pos: tuple[int, ...]
    """Kind → position in its effective suit (higher beats lower)."""
    suit_faces: tuple[tuple[int, ...], ...]
    """Effective suit → its faces, lowest position first."""
    pos_faces: tuple[tuple[tuple[int, ...], ...], ...]
    """Effective suit → position → the faces at that position."""
    suit_kinds: tuple[tuple[int, ...], ...]
    """Effective suit → every card kind in it (two-colour: ♦ with ♥, ♣ with ♠)."""

    def is_trump(self, kind: int) -> bool:
        """Whether a card is trump here."""
        return self.esuit[kind] == TRUMP

    def sort_key(self, kind: int) -> tuple[int, int, int]:
        """Display order: trumps first, then suits S H C D; high cards first."""
        es = self.esuit[kind]
        return (0 if es == TRUMP else 1 + (0, 1, 3, 2)[es], -self.pos[kind], kind)

    def sorted(self, cards: list[int]) -> list[int]:
        """Cards in display order."""
        return sorted(cards, key=self.sort_key)


def _face_map(two_color: bool) -> tuple[int, ...]:
    if not two_color:
        return tuple(range(NUM_KINDS))
    # Diamonds become hearts (red), clubs become spades (black).
    return tuple(
        k - 13 if 26 <= k < 39 else k - 39 if 39 <= k < 52 else k for k in range(NUM_KINDS)
    )


@lru_cache(maxsize=512)
def context(
    level: int, trump: int, permanent_twos: bool = False, two_color: bool = False
) -> TrumpContext:
    """The order tables for a level rank index (2 = 0 .. A = 12; 13: the joker level, where
    no rank is the level) and trump (NO_TRUMP = -1)."""
    if not 0 <= level <= JOKER_LEVEL:
        raise ValueError(f"level rank index must be 0..13, not {level}")
    face = _face_map(two_color)
    suits = (0, 1) if two_color else (0, 1, 2, 3)
    if two_color and trump != NO_TRUMP:
        trump = {2: 1, 3: 0}.get(trump, trump)
    twos = permanent_twos and level != _TWO
    plain = [r for r in range(13) if r != level and not (twos and r == _TWO)]

    esuit = [0] * NUM_KINDS
    pos = [0] * NUM_KINDS
    layers: list[list[list[int]]] = [[] for _ in range(5)]
    for s in suits:
        if s == trump:
            continue
        for r in plain:
            esuit[card(s, r)] = s
            pos[card(s, r)] = len(layers[s])
            layers[s].append([card(s, r)])

    trump_layers = layers[TRUMP]
    if trump != NO_TRUMP:
        for r in plain:
            trump_layers.append([card(trump, r)])
    off = [s for s in suits if s != trump]
    if twos:
        trump_layers.append([card(s, _TWO) for s in off])
        if trump != NO_TRUMP:
            trump_layers.append([card(trump, _TWO)])
    if level != JOKER_LEVEL:
        trump_layers.append([card(s, level) for s in off])
        if trump != NO_TRUMP:
            trump_layers.append([card(trump, level)])
    trump_layers.append([LJ])
    trump_layers.append([BJ])
    for p, layer in enumerate(trump_layers):
        for k in layer:
            esuit[k] = TRUMP
            pos[k] = p

    # Non-face kinds (two-colour ♦ and ♣) copy their face's tables.
    for k in range(NUM_KINDS):
        if face[k] != k:
            esuit[k] = esuit[face[k]]
            pos[k] = pos[face[k]]
    return TrumpContext(
        level=level,
        trump=trump,
        permanent_twos=permanent_twos,
        two_color=two_color,
        face=face,
        esuit=tuple(esuit),
        pos=tuple(pos),
        suit_faces=tuple(tuple(k for layer in ls for k in layer) for ls in layers),
        pos_faces=tuple(tuple(tuple(layer) for layer in ls) for ls in layers),
        suit_kinds=tuple(tuple(k for k in range(NUM_KINDS) if esuit[k] == s) for s in range(5)),
    )


def context_for(ruleset: Ruleset, level: int, trump: int) -> TrumpContext:
    """The context a ruleset plays with at this level and trump."""
    return context(level, trump, ruleset.permanent_twos, ruleset.two_color)
