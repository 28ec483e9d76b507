"""Declarations during the deal (亮主, 反主, 自保, 自反, 抢亮) and 反底 (RULES.md §5).

A declaration shows level cards of one suit (that suit becomes trump) or identical jokers
(no-trump). Its *tier* orders the ladder shared by every style: one level card < two <
two jokers < three level cards < three jokers < four < four jokers. Under ``classic`` and
``tournament`` a big-joker pair outranks a small-joker pair; 抢亮 (``grab``) has no such
step: "不能再亮同级别或该级别以下的牌了", so BJ BJ does not overturn LJ LJ. The 4-deck hidden
style ranks by the number of level cards only. A new declaration must be strictly stronger;
the current declarer may only reinforce (自保, same suit) or overturn himself (自反) when the
ruleset allows it. 反底 ranks pairs ♦ < ♣ < ♥ < ♠ < small jokers < big jokers, triples above.

A whole sequence of declarations (what stands, who deals a first deal) is ``declaring.py``.

>>> from shengji.core.cards import parse_cards as p
>>> from shengji.core.ruleset import PRESETS
>>> d1 = make_declaration(0, p("H2"), level=0, ruleset=PRESETS["classic"])
>>> d2 = make_declaration(1, p("S2 S2"), level=0, ruleset=PRESETS["classic"])
>>> beats(d2, d1, PRESETS["classic"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from shengji.core.cards import BJ, JOKER_LEVEL, LJ, NO_TRUMP, card, cards_str, trump_str
from shengji.core.ruleset import Ruleset

_REBURY_SUIT_RANK: Final = {2: 0, 3: 1, 1: 2, 0: 3}  # ♦ < ♣ < ♥ < ♠


@dataclass(frozen=True)
class Declaration:
    """Cards shown by a seat to name trump: ``trump`` is a suit or NO_TRUMP (jokers)."""

    seat: int
    cards: tuple[int, ...]
    trump: int
    count: int
    joker: int
    """0 for level cards, else the joker kind (LJ or BJ)."""

    def __init__(
        self, seat: int, cards: tuple[int, ...], trump: int, count: int, joker: int
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "joker", joker)

    def __str__(self) -> str:
        return f"seat {self.seat}: {cards_str(self.cards)} ({trump_str(self.trump)})"


def make_declaration(
    seat: int, cards: Sequence[int], level: int, ruleset: Ruleset
) -> Declaration | None:
    """The declaration these cards make, or None if they make none.

    Valid: n level cards of one suit (faces: in two-colour play ♥ and ♦ are one suit), or
    n >= 2 identical jokers.
    """
    return _declaration(seat, cards, level, ruleset.two_color)


_TWO_COLOURS: Final = (0, 1, 1, 0)
"""A suit's colour in two-colour play (♠ ♣ black, ♥ ♦ red), as the suit it counts as."""


def _declaration(
    seat: int, cards: Sequence[int], level: int, two_color: bool
) -> Declaration | None:
    """``make_declaration`` from the one rule it reads (``Ruleset.two_color``)."""
    if not cards:
        return None
    first = cards[0]
    if first in (LJ, BJ):
        if len(cards) >= 2 and all(c == first for c in cards):
            return Declaration(seat, tuple(cards), NO_TRUMP, len(cards), first)
        return None
    if first >= 52 or first % 13 != level:
        return None

    def colour(k: int) -> int:
        return _TWO_COLOURS[k // 13] if two_color else k // 13

    suit = colour(first)
    for c in cards:
        if c >= 52 or c % 13 != level or colour(c) != suit:
            return None
    return Declaration(seat, tuple(cards), suit, len(cards), 0)


def tier(d: Declaration, ruleset: Ruleset) -> tuple[int, int]:
    """Strength of a declaration on the deal-time ladder.

    >>> from shengji.core.cards import parse_cards as p
    >>> from shengji.core.ruleset import PRESETS
    >>> grab, two = PRESETS["three-deck"], PRESETS["classic"]
    >>> bj, lj = make_declaration(1, p("BJ BJ"), 0, grab), make_declaration(0, p("LJ LJ"), 0, grab)
    >>> tier(bj, grab) == tier(lj, grab), tier(bj, two) > tier(lj, two)
    (True, True)
    """
    if ruleset.declaration == "hidden":
        return (d.count, 0) if not d.joker else (0, 0)
    if d.joker:
        big = d.joker == BJ and ruleset.declaration != "grab"
        return (2 * d.count - 1, int(big))
    return (2 * d.count - 2 if d.count > 1 else 1, 0)


def refusal(new: Declaration, current: Declaration | None, ruleset: Ruleset) -> str | None:
    """Why ``new`` may not replace ``current`` during the deal, or None if it may.

    >>> from shengji.core.cards import parse_cards as p
    >>> from shengji.core.ruleset import PRESETS
    >>> grab = PRESETS["three-deck"]
    >>> small = make_declaration(0, p("LJ LJ LJ"), 0, grab)
    >>> refusal(make_declaration(1, p("BJ BJ BJ"), 0, grab), small, grab).split(" (")[0]
    'BJ BJ BJ is not in a higher tier than LJ LJ LJ'
    """
    t = tier(new, ruleset)
    if t[0] <= 0:
        return "the 4-deck hidden declaration (暗叫) shows level cards, never jokers"
    if current is None:
        return None
    if t <= tier(current, ruleset):
        shown, standing = cards_str(new.cards), cards_str(current.cards)
        if ruleset.declaration == "grab":
            return (
                f"{shown} is not in a higher tier than {standing} (抢亮: one level card < two "
                "< two jokers < three < three jokers)"
            )
        if ruleset.declaration == "hidden":
            return f"{shown} does not show more level cards than your {standing}"
        return f"{shown} does not beat {standing}"
    if new.seat == current.seat:
        if new.trump == current.trump and not new.joker:
            return None if ruleset.allow_reinforce else "this ruleset has no reinforcing (自保)"
        if not ruleset.allow_self_overturn:
            return "the declarer may not overturn his own declaration (自反) in this ruleset"
    return None


def beats(new: Declaration, current: Declaration | None, ruleset: Ruleset) -> bool:
    """Whether ``new`` may replace ``current`` during the deal."""
    return refusal(new, current, ruleset) is None


def rebury_rank(d: Declaration) -> tuple[int, int]:
    """Strength on the 反底 ladder: (count, ♦ < ♣ < ♥ < ♠ < LJ < BJ)."""
    if d.joker:
        return (d.count, 4 if d.joker == LJ else 5)
    return (d.count, _REBURY_SUIT_RANK[d.trump])


def beats_rebury(new: Declaration, current: Declaration | None) -> bool:
    """Whether ``new`` may overturn the kitty (反底): at least a pair, and stronger."""
    if new.count < 2:
        return False
    return current is None or rebury_rank(new) > rebury_rank(current)


def candidate_declarations(
    seat: int, hand: Sequence[int], level: int, ruleset: Ruleset
) -> list[Declaration]:
    """Every declaration the cards of ``hand`` (a count vector) can show, weakest first.

    >>> from shengji.core.ruleset import PRESETS
    >>> hand = [0] * 54; hand[card(0, 1)] = 2; hand[BJ] = 2
    >>> [cards_str(d.cards) for d in candidate_declarations(0, hand, 1, PRESETS["classic"])]
    ['S3', 'S3 S3', 'BJ BJ']
    """
    suits = (
        ()
        if level == JOKER_LEVEL
        else (hand[level], hand[13 + level], hand[26 + level], hand[39 + level])
    )
    return list(_candidates(seat, suits, hand[LJ], hand[BJ], level, ruleset.two_color))


@lru_cache(maxsize=4096)
def _candidates(
    seat: int, suits: tuple[int, ...], lj: int, bj: int, level: int, two_color: bool
) -> tuple[Declaration, ...]:
    """``candidate_declarations`` from what it depends on: how many level cards of each suit
    (none at the joker level) and jokers the hand holds (a dealt card changes one seat's
    hand; the others' answers are looked up), and whether ♥ ♦ and ♠ ♣ are one suit each
    (the cache's key holds that flag, not the ruleset: hashing a ``Ruleset`` hashes every
    rule, ~14k instructions)."""
    out: list[Declaration] = []
    by_colour: list[list[int]] = [[], [], [], []]
    for s, n in enumerate(suits):
        target = _TWO_COLOURS[s] if two_color else s
        by_colour[target].extend([card(s, level)] * n)
    for cards in by_colour:
        for n in range(1, len(cards) + 1):
            d = _declaration(seat, cards[:n], level, two_color)
            if d is not None:
                out.append(d)
    for j, held in ((LJ, lj), (BJ, bj)):
        for n in range(2, held + 1):
            out.append(Declaration(seat, (j,) * n, NO_TRUMP, n, j))
    return tuple(out)


def legal_declarations(
    seat: int, hand: Sequence[int], level: int, current: Declaration | None, ruleset: Ruleset
) -> list[Declaration]:
    """Declarations ``seat`` may make now during the deal."""
    return [
        d for d in candidate_declarations(seat, hand, level, ruleset) if beats(d, current, ruleset)
    ]


def legal_reburies(
    seat: int, hand: Sequence[int], level: int, current: Declaration | None, ruleset: Ruleset
) -> list[Declaration]:
    """反底 overturns ``seat`` may make now."""
    return [
        d for d in candidate_declarations(seat, hand, level, ruleset) if beats_rebury(d, current)
    ]
