"""Shape-class orders for leads with triples or quads, as data (RULES.md §4, seed 002).

A table maps a lead's shape (its units' ``(width, length)``, sorted) to *rungs*, best first.
Each rung lists alternatives; an alternative is the components a follow must contain (the
remaining cards are any cards). A follower must reach the best rung its cards of the led
suit allow. Leads with no table use the generic order of ``follow.structure_key``.

>>> TABLES["lianzhong"][((3, 2),)][1]      # after the Titanic itself: two triples
(((3, 1), (3, 1)),)
"""

from __future__ import annotations

from shengji.core.units import Component

Rung = tuple[tuple[Component, ...], ...]
Table = dict[tuple[Component, ...], tuple[Rung, ...]]

P, T, Q = (2, 1), (3, 1), (4, 1)
"""Pair, triple, quad."""


def _rungs(*rungs: tuple[tuple[Component, ...], ...]) -> tuple[Rung, ...]:
    return tuple(rungs)


_TRIPLE: tuple[Rung, ...] = _rungs(((T,),), ((P,),), ((),))

QQ: Table = {
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

LIANZHONG: Table = {
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

_FOUR_DECK_TAIL: tuple[Rung, ...] = _rungs(
    (((3, 2), P),),
    (((3, 2),),),
    (((2, 2), P, P),),
    (((2, 2), P),),
    (((2, 2),),),
    ((Q, P, P),),
    ((Q, P),),
    ((Q,),),
    ((T, T),),
    ((T, P, P),),
    ((T, P),),
    ((T,),),
    ((P, P, P, P),),
    ((P, P, P),),
    ((P, P),),
    ((P,),),
    ((),),
)

FOUR_DECK: Table = {
    # Seed 002 §3.4.5, 1: lead a quad tractor (44445555): quad tractor or two quads, ...
    ((4, 2),): (((((4, 2),), (Q, Q))), *_FOUR_DECK_TAIL),
    # 2: lead two quads: two quads > quad tractor > the same tail.
    ((4, 1), (4, 1)): (((Q, Q),), (((4, 2),),), *_FOUR_DECK_TAIL),
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

TABLES: dict[str, Table] = {"qq": QQ, "lianzhong": LIANZHONG, "four-deck": FOUR_DECK}
"""Tables by ``Ruleset.follow_order``."""
