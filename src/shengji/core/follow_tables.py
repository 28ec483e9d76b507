"""Shape-class orders for leads with triples or quads, as data (RULES.md §4, seed 002).

A table maps a lead's shape (its units' ``(width, length)``, sorted) to *rungs*, best first.
Each rung lists alternatives; an alternative is the components a follow must contain (the
remaining cards are any cards). A follower must reach the best rung its cards of the led
suit allow. Leads with no table use the generic order of ``follow.structure_key``.

>>> TABLES["lianzhong"][((3, 2),)][1]      # after the Titanic itself: two triples
(((3, 1), (3, 1)),)
"""

from __future__ import annotations

from typing import Final

from shengji.core.units import Component

Rung = tuple[tuple[Component, ...], ...]
Table = dict[tuple[Component, ...], tuple[Rung, ...]]

P, T, Q = (2, 1), (3, 1), (4, 1)
"""Pair, triple, quad."""


def _rungs(*rungs: tuple[tuple[Component, ...], ...]) -> tuple[Rung, ...]:
    return tuple(rungs)


_TRIPLE: Final[tuple[Rung, ...]] = _rungs(((T,),), ((P,),), ((),))

QQ: Final[Table] = {
    # 3 decks, lead Titanic 333444 (QQ): Titanic > tractor + any 2 > two triples > ...
    ((3, 2),): _rungs(
        (((3, 2),),),
        (((2, 2),),),
        ((T, T),),
        ((T, P),),
        ((T,),),
        ((P, P),),
        ((P,),),
        ((),),
    ),
    ((3, 1),): _TRIPLE,
}

LIANZHONG: Final[Table] = {
    # 3 decks, lead Titanic (联众): Titanic > two triples > tractor + 2 singles > ...
    ((3, 2),): _rungs(
        (((3, 2),),),
        ((T, T),),
        (((2, 2),),),
        ((T, P),),
        ((T,),),
        ((P, P),),
        ((P,),),
        ((),),
    ),
    ((3, 1),): _TRIPLE,
}

# Seed 002 §3.4.5 items 1 and 2 (8-card leads), after their first rungs. 连N is N consecutive
# pairs (item 1's own example 44556677 is 连四), 连队 two of them; the seed's "升级(13张)" line
# is noise and dropped (Decision 110).
_EIGHT_CARD_TAIL: Final[tuple[Rung, ...]] = _rungs(
    (((2, 3), P),),  # 1连3+1对子
    (((2, 3),),),  # 1连3+2单张
    (((2, 2), P, P),),  # 1连队+两对子
    (((2, 2), P),),  # 1连队+1个对子+2单张
    (((2, 2),),),  # 1连队+4单张
    ((Q, P, P),),  # 1个4张+2对子
    ((Q, P),),  # 1个4张+1个对子+2单张
    ((Q,),),  # 1个4张+4单张
    ((T, T),),  # 2个3张+2单张
    ((T, P, P),),  # 1个3张+2对子+1单张
    ((T, P),),  # 1个3张+1对子+3单张
    ((T,),),  # 1个3张+5单张
    ((P, P, P, P),),  # 4个对子
    ((P, P, P),),  # 3个对子+2单张
    ((P, P),),  # 2个对子+4单张
    ((P,),),  # 1个对子+6单张
    ((),),  # 8单张
)

_TWO_QUADS: Final[tuple[Rung, ...]] = (((Q, Q),), (((2, 4),),), *_EIGHT_CARD_TAIL)

FOUR_DECK: Final[Table] = {
    # 1: lead 连四 44556677 (four consecutive pairs): 连4 or two quads, either > 连3 + pair > ...
    ((2, 4),): ((((2, 4),), (Q, Q)), *_EIGHT_CARD_TAIL),
    # 2: lead two quads 44445555 (a quad tractor, or two quads thrown): two quads > 连4 > ...
    ((4, 2),): _TWO_QUADS,
    ((4, 1), (4, 1)): _TWO_QUADS,
    # 3: lead 667788: pair tractor or triple tractor (either) > quad + pair > ...
    ((2, 3),): _rungs(
        (((2, 3),), ((3, 2),)),
        ((Q, P),),
        (((2, 2), P),),
        ((P, P, P),),
        ((P, P),),
        ((P,),),
        ((),),
    ),
    # 4: lead JJJQQQ: triple tractor > pair tractor 667788 > quad + pair > ...
    ((3, 2),): _rungs(
        (((3, 2),),),
        (((2, 3),),),
        ((Q, P),),
        (((2, 2), P),),
        ((T, T),),
        ((T, P),),
        ((P, P, P),),
        ((P, P),),
        ((P,),),
        ((),),
    ),
    # 5: lead AAAA: quad > tractor > two pairs > triple + single > pair > singles.
    ((4, 1),): _rungs(((Q,),), (((2, 2),),), ((P, P),), ((T,),), ((P,),), ((),)),
    # 6: lead 7788: pair tractor or quad (either) > two pairs > pair > singles.
    ((2, 2),): _rungs((((2, 2),), (Q,)), ((P, P),), ((P,),), ((),)),
    ((3, 1),): _TRIPLE,
}

TABLES: Final[dict[str, Table]] = {"qq": QQ, "lianzhong": LIANZHONG, "four-deck": FOUR_DECK}
"""Tables by ``Ruleset.follow_order``."""

_TUPLE_WORDS: Final = {2: ("a pair", "pairs"), 3: ("a triple", "triples"), 4: ("a quad", "quads")}


def component_text(component: Component) -> str:
    """A component in words.

    >>> component_text((2, 4)), component_text(Q)
    ('a tractor of 4 pairs', 'a quad')
    """
    width, length = component
    one, many = _TUPLE_WORDS.get(width, (f"{width} of a kind", f"{width}-tuples"))
    return one if length == 1 else f"a tractor of {length} {many}"


def rung_text(rung: Rung) -> str:
    """A rung in words: its alternatives joined by "or".

    >>> rung_text(FOUR_DECK[((2, 4),)][6])
    'a quad + a pair + a pair'
    >>> rung_text(FOUR_DECK[((2, 2),)][0])
    'a tractor of 2 pairs, or a quad'
    """
    alts = [" + ".join(component_text(c) for c in alt) or "any cards" for alt in rung]
    return ", or ".join(alts)
