"""Cards as small ints, multisets of cards, and the text notation.

A card kind is an int 0..53: ``suit * 13 + rank_index`` for the 52 suited cards (suits
``S H D C`` = 0..3, ranks ``2 .. A`` = 0..12), then ``LJ`` (小王) = 52 and ``BJ`` (大王) = 53.
A multi-deck game holds up to ``decks`` copies of each kind.

>>> parse_cards("SA H10 ♦t bj")
[12, 21, 34, 53]
>>> cards_str([12, 21, 34, 53])
'SA H10 D10 BJ'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from shengji.core.errors import NotationError

SUITS: Final = "SHDC"
SUIT_GLYPHS: Final = "♠♥♦♣"
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NUM_KINDS: Final = 54
LJ: Final = 52
BJ: Final = 53
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
NO_TRUMP: Final = -1
"""Trump value meaning no trump suit (无主): only jokers and level cards are trump."""
JOKER_LEVEL: Final = 13
"""The level above A (打王, seed 002 five players "J、A、王为必打点数"): no rank is the
level, so only the jokers (and a trump suit, if one is named) are trump."""
LEVELS: Final = (*RANKS, "JK")
"""Level names by level index: the ranks, then ``JK`` for the joker level (王)."""

_RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)} | {"T": 8, "1": 8}
POINTS_BY_KIND: Final[tuple[int, ...]] = tuple(
    (5 if k < 52 and k % 13 == 3 else 10 if k < 52 and k % 13 in (8, 11) else 0)
    for k in range(NUM_KINDS)
)
"""Kind → its points (``points``), for loops that add up many cards."""
POINT_KINDS: Final[tuple[int, ...]] = tuple(k for k in range(NUM_KINDS) if POINTS_BY_KIND[k])
"""The kinds that carry points: the 5s, 10s and Ks."""


def card(suit: int, rank: int) -> int:
    """The kind of a suited card: ``card(SPADES, 12)`` is ``SA``."""
    return suit * 13 + rank


def suit_of(kind: int) -> int:
    """Natural suit 0..3, or 4 for a joker."""
    return kind // 13 if kind < 52 else 4


def rank_of(kind: int) -> int:
    """Rank index 0..12 (``2`` .. ``A``), 13 for ``LJ``, 14 for ``BJ``."""
    return kind % 13 if kind < 52 else kind - 39


def points(kind: int) -> int:
    """Points of one card: 5s are 5, 10s and Ks are 10, others 0."""
    return POINTS_BY_KIND[kind]


def points_of(cards: Iterable[int]) -> int:
    """Points of several cards: ``points_of(parse_cards("S5 H10 DK"))`` is 25."""
    n = 0
    for c in cards:  # a loop, not ``sum``: the compiled build keeps it in C ints
        n += POINTS_BY_KIND[c]
    return n


def parse_rank(text: str) -> int:
    """A rank index from ``"2"``..``"A"`` (``"T"`` for 10)."""
    r = _RANK_INDEX.get(text.strip().upper())
    if r is None or text.strip() == "1":
        raise NotationError(f"bad rank {text!r}: use 2..10, J, Q, K or A")
    return r


def parse_level(text: str) -> int:
    """A level: a rank (``parse_rank``) or ``JK`` / ``王`` for the joker level above A."""
    if text.strip().upper() in ("JK", "王"):
        return JOKER_LEVEL
    try:
        return parse_rank(text)
    except NotationError:
        raise NotationError(f"bad rank {text!r} for a level: use 2..10, J, Q, K, A or JK") from None


def level_str(level: int) -> str:
    """Inverse of ``parse_level``: ``level_str(12) == "A"``, ``level_str(13) == "JK"``."""
    return LEVELS[level]


def parse_trump(text: str) -> int:
    """A trump suit index from ``S H D C`` (or a glyph), or NO_TRUMP from ``NT``."""
    t = text.strip().upper()
    if t in ("NT", "N", "NONE", "无主"):
        return NO_TRUMP
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    if len(t) == 1 and t in SUIT_GLYPHS:
        return SUIT_GLYPHS.index(t)
    raise NotationError(f"bad trump {text!r}: use S, H, D, C or NT")


def trump_str(trump: int) -> str:
    """``"NT"`` or the suit letter."""
    return "NT" if trump == NO_TRUMP else SUITS[trump]


def parse_card(text: str) -> int:
    """One card from its notation: ``SA``, ``H10``, ``HT``, ``♠K``, ``bj``."""
    t = text.strip().upper()
    if t in ("BJ", "LJ"):
        return BJ if t == "BJ" else LJ
    if len(t) < 2:
        raise NotationError(f"bad card {text!r}")
    head = t[0]
    if head in SUIT_GLYPHS:
        suit = SUIT_GLYPHS.index(head)
    elif head in SUITS:
        suit = SUITS.index(head)
    else:
        # Also accept rank-first glyph forms such as "10♥" or "A♠".
        tail = t[-1]
        if tail in SUIT_GLYPHS or tail in SUITS:
            return parse_card(tail + t[:-1])
        raise NotationError(f"bad card {text!r}: a suit letter S, H, D or C comes first")
    rank = _RANK_INDEX.get(t[1:])
    if rank is None or t[1:] == "1":
        raise NotationError(f"bad card {text!r}: rank must be 2..10, J, Q, K or A")
    return card(suit, rank)


def card_str(kind: int) -> str:
    """Canonical notation of one card: ``card_str(21)`` is ``'H10'``."""
    if kind == BJ:
        return "BJ"
    if kind == LJ:
        return "LJ"
    if not 0 <= kind < 52:
        raise NotationError(f"no card kind {kind}")
    return SUITS[kind // 13] + RANKS[kind % 13]


def parse_cards(text: str) -> list[int]:
    """Cards separated by spaces (or commas); an empty string is no cards."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


_CARD_STR: Final = {k: SUITS[k // 13] + RANKS[k % 13] for k in range(52)} | {LJ: "LJ", BJ: "BJ"}


def cards_str(cards: Iterable[int]) -> str:
    """Cards in canonical notation, in the given order, separated by spaces.

    >>> cards_str([53, 12, 12])
    'BJ SA SA'
    """
    try:  # a list comprehension: mypyc compiles it (``map`` of a bound method it cannot)
        return " ".join([_CARD_STR[c] for c in cards])
    except (KeyError, TypeError):
        return " ".join(card_str(c) for c in cards)  # raises the clear error


def counts_of(cards: Iterable[int]) -> list[int]:
    """A 54-long count vector: ``counts_of([12, 12])[12]`` is 2."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: Sequence[int]) -> list[int]:
    """The cards of a count vector, in kind order."""
    return [k for k in range(NUM_KINDS) for _ in range(counts[k])]


def check_possible(cards: Iterable[int], decks: int, what: str = "cards") -> None:
    """Refuse more copies of a kind than ``decks`` decks hold."""
    counts = counts_of(cards)
    for k, n in enumerate(counts):
        if n > decks:
            raise NotationError(
                f"{what}: {n} copies of {card_str(k)} but {decks} deck(s) hold only {decks}"
            )


def deck(decks: int) -> list[int]:
    """A fresh, ordered pack of ``decks`` full decks (54 cards each)."""
    if not 1 <= decks <= 4:
        raise NotationError(f"decks must be 1..4, not {decks}")
    return [k for k in range(NUM_KINDS) for _ in range(decks)]


def contains(hand: Sequence[int], cards: Iterable[int]) -> bool:
    """Whether the count vector ``hand`` holds every card of ``cards`` (with multiplicity)."""
    need = counts_of(cards)
    return all(hand[k] >= need[k] for k in range(NUM_KINDS) if need[k])
