"""What a burial says about the hidden kitty (inference for the search's worlds).

A seat that buried the kitty (扣底) chose those cards from its hand: it kept its trumps, its
points and its boss cards and emptied a short side suit. A world that deals the unseen
cards at random ignores that: among heuristic players (classic, 200 deals) a drawn world's
kitty held 2.6 trumps and 14.7 points where the real one held none and 0.1, and the burier
3.3 trumps fewer than it really had. Two uses of the heuristic's own burial
(``burial_choice.choose_burial``), applied to the burier's hand before burying (its hand now, the
cards it played since and the kitty):

- ``burial_misses``: the kitty cards of a world the burier would not have buried, each
  ``MISS_WEIGHT`` misses, like a play the heuristic would not have made (``plausible``);
- ``rebury``: a drawn world made to agree, the kitty being what the burier would bury
  from that hand, keeping the cards it has played since and burying every card of a suit
  it has shown it lacks.

Only the view is used; nothing applies when the viewer buried (it sees the kitty), nobody
did, or a 竞标 kitty was shown.

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.order import context
>>> from shengji.bots.burial_choice import choose_burial
>>> hand = counts_of(p("HA HK H3 H4 SA S10 S5 C3 C4 C6 D7 D8 D9"))
>>> sorted(choose_burial(hand, context(0, 1), 3)) == sorted(p("C3 C4 C6"))
True
>>> _difference(p("C3 C4 C6"), p("C3 C4 H3"))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shengji.bots.burial_choice import choose_burial
from shengji.core.phases import Phase
from shengji.core.views import DealView

MISS_WEIGHT: Final = 3
"""Misses a kitty card the burier would not have buried counts for: people bury much as
the heuristic does (low side cards, never points or trumps), and at one miss (a swap kept
with ``exp(-2)``) the chains let the kitty drift back toward a random one (``bench/worlds.py
--follow``: 0.53 of its cards right and 6 points off, against 0.64 and 2 at three)."""


def burier(view: DealView) -> int | None:
    """The seat whose burial is the kitty ``view`` does not see, when that says something:
    the play phase, a holder other than the viewer, no 竞标 kitty shown."""
    h = view.kitty_holder
    if (view.phase is not Phase.PLAYING or view.seat is None or view.ctx is None
            or view.kitty is not None or h is None or h == view.seat or view.shown):
        return None
    return h


def played_by(view: DealView, seat: int) -> list[int]:
    """The cards ``seat`` has played this deal, in order."""
    plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
    return [c for s, cards in plays if s == seat for c in cards]


def _before_burying(hand: Sequence[int], played: Sequence[int], kitty: Sequence[int]
                    ) -> list[int]:
    pre = list(hand)
    for c in played:
        pre[c] += 1
    for c in kitty:
        pre[c] += 1
    return pre


def _burial(view: DealView, h: int, pre: Sequence[int], size: int,
            keep: Sequence[int] = ()) -> list[int]:
    assert view.ctx is not None
    return choose_burial(pre, view.ctx, size, h in view.defenders, view.ruleset.decks, keep)


def _difference(kitty: Sequence[int], burial: Sequence[int]) -> int:
    """Cards of ``kitty`` not in ``burial`` (as multisets)."""
    rest = list(burial)
    out = 0
    for c in kitty:
        if c in rest:
            rest.remove(c)
        else:
            out += 1
    return out


def burial_misses(view: DealView, hands: Sequence[Sequence[int]], kitty: Sequence[int]
                  ) -> int:
    """``MISS_WEIGHT`` misses for each card of the world's kitty that its burier
    (``burier``) would not have buried from the hand the world gives it; 0 where no burial
    is inferred from."""
    h = burier(view)
    if h is None or not kitty:
        return 0
    pre = _before_burying(hands[h], played_by(view, h), kitty)
    return MISS_WEIGHT * _difference(kitty, _burial(view, h, pre, len(kitty)))


def rebury(view: DealView, hands: list[list[int]], kitty: list[int],
           voids: Sequence[set[int]] | None = None) -> bool:
    """Make the world's kitty (changed in place, with the burier's hand) the burial the
    burier would have made from the cards the world gives it and the kitty, keeping the
    cards it played since and burying every card of a suit it has shown it lacks
    (``voids``: effective suits by seat); False (nothing changed) where those alone would
    overfill the kitty."""
    h = burier(view)
    if h is None or not kitty:
        return False
    ctx = view.ctx
    assert ctx is not None
    played = played_by(view, h)
    pre = _before_burying(hands[h], played, kitty)
    pool = list(pre)
    for c in played:
        pool[c] -= 1
    if any(n < 0 for n in pool):
        return False
    lacks = voids[h] if voids is not None else set()
    must = [c for c in range(54) if ctx.esuit[c] in lacks for _ in range(pool[c])]
    if len(must) > len(kitty):
        return False
    for c in must:
        pre[c] -= 1
    pick = must + _burial(view, h, pre, len(kitty) - len(must), played)
    for c in pick:
        pool[c] -= 1
    hands[h][:] = pool
    kitty[:] = sorted(pick)
    return True
