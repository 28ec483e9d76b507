"""How well a sampled world explains the other seats' plays (inference from play).

A world is replayed from the first lead (``determinize.start_of_play``); at every play of
another seat the heuristic is asked what it would have played there with that world's
hand. Each play it would not have made is a *miss*: a world in which the others' plays
look natural (few misses) is more likely the real one than a world in which they look
odd, whoever the others are, since people too lead their boss cards, feed their partner
points and keep their pairs. ``SearchBot`` draws several worlds per world it plays out and
keeps the one with the fewest misses.

Among heuristic players the real deal explains every play; a random world does not:

>>> import random
>>> from shengji.bots.positions import trick_states
>>> from shengji.bots.sampler import sample_hidden
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.views import view_for
>>> deal = trick_states(PRESETS["classic"], seed=3)[40]
>>> view = view_for(deal, deal.to_act)
>>> judges = [HeuristicBot(i) for i in range(4)]
>>> misses(view, deal.hands, deal.kitty, judges)
0
>>> misses(view, *sample_hidden(view, random.Random(1)), judges) > 0
True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from shengji.bots.burial_inference import burial_misses, burier
from shengji.bots.declaration_inference import window_misses
from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Play
from shengji.core.determinize import start_of_play
from shengji.core.errors import IllegalAction
from shengji.core.views import DealView, view_for

IMPOSSIBLE: Final = 10_000
"""The misses of a world the plays rule out: a throw that stood would have failed in it,
or a follow made was not allowed by its hand."""


def misses(
    view: DealView,
    hands: Sequence[Sequence[int]],
    kitty: Sequence[int],
    bots: Sequence[HeuristicBot],
    stop: int | None = None,
    burial: bool = False,
    window: bool = False,
) -> int:
    """Plays of the other seats that the heuristic (``bots``, one per seat) would not
    have made in this world (``IMPOSSIBLE`` when the plays rule it out); counting stops
    once past ``stop``."""
    counts = seat_misses(view, hands, kitty, bots, None, stop, burial, window)
    return IMPOSSIBLE if counts is None else sum(counts)


def seat_misses(
    view: DealView,
    hands: Sequence[Sequence[int]],
    kitty: Sequence[int],
    bots: Sequence[HeuristicBot],
    seats: Collection[int] | None = None,
    stop: int | None = None,
    burial: bool = False,
    window: bool = False,
) -> list[int] | None:
    """``misses`` seat by seat, judging only ``seats`` (every other seat when None; the
    others count 0): a seat's choices depend on its own hand and what all see, so a swap
    of cards between two seats changes only theirs. None when the plays rule the world
    out; counting stops once the sum is past ``stop``. ``burial``: the burier's count
    includes the kitty cards it would not have buried (``burial_inference.burial_misses``);
    ``window``: each seat's count includes a declaring-window turn at which the heuristic
    would not have passed with the dealt hand this world gives it
    (``declaration_inference.window_misses``)."""
    counts = [0] * len(view.hand_sizes)
    miss = 0
    if window:
        counts = window_misses(view, hands, kitty, bots, seats)
        miss = sum(counts)
        if stop is not None and miss > stop:
            return counts
    h = burier(view) if burial else None
    if h is not None and (seats is None or h in seats):
        buried = burial_misses(view, hands, kitty)
        counts[h] += buried
        miss += buried
        if stop is not None and miss > stop:
            return counts
    state = start_of_play(view, hands, kitty)
    plays = [p for t in view.tricks for p in t.plays] + list(view.trick)
    for seat, cards in plays:
        if seat != view.seat and (seats is None or seat in seats):
            legal = state.legal_actions(seat)
            choice = bots[seat].choose(view_for(state, seat), legal)
            if not isinstance(choice, Play) or sorted(choice.cards) != sorted(cards):
                counts[seat] += 1
                miss += 1
                if stop is not None and miss > stop:
                    return counts
        try:
            state.apply_in_place(Play(seat, tuple(cards)))
        except IllegalAction:
            return None  # a follow this world's hand did not allow (evidence unmet)
        if state.failed_throws:
            return None  # a throw that stood would have failed in this world
    return counts
