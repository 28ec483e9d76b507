"""Dry runs: would this action be accepted? — answered only from what its seat may know.

Every refusal of an action depends on public facts and the seat's own cards, except one:
a throw (甩牌) lead, which is checked against the other hands (``throw_policy``
``validated``: a failed throw is played as its forced unit; ``others-void``: refused when
anybody else holds the suit). Answering a dry run of a throw from the real deal would tell
the asker whether the others hold the suit. So a lead is checked in a world built from the
seat's view alone, in which nobody else holds a card: every check that does not need the
other hands is made (turn, cards held, one suit, ``never`` refuses throws), and the answer
says the throw itself is only checked when it is played.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> from shengji.core.actions import Deal, Pass
>>> s = DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0)
>>> dry_run(s, Pass(0))
Traceback (most recent call last):
...
shengji.core.errors.IllegalAction: nothing to pass during dealing
"""

from __future__ import annotations

from typing import Literal

from shengji.core.actions import Action, Play
from shengji.core.determinize import state_from_view
from shengji.core.follow import analyse_lead
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.units import suit_of_play
from shengji.core.views import view_for

DryRunNote = Literal["throw"]
"""``"throw"``: the structure is fine; the other hands are checked when it is played."""


def dry_run(deal: DealState, action: Action) -> DryRunNote | None:
    """Check ``action`` for its seat without changing ``deal``; ``IllegalAction`` if it is
    refused for a reason the seat can know, ``"throw"`` for a throw whose fate depends on
    the hidden hands, else None (it would be accepted as it is)."""
    if not (isinstance(action, Play) and deal.phase is Phase.PLAYING and not deal.trick):
        deal.apply(action)  # follows, bids, burials ...: own cards and public facts only
        return None
    seat = action.seat
    if deal.to_act != seat or not 0 <= seat < deal.ruleset.players:
        deal.apply(action)  # not this seat's lead: refused as ever (not your turn)
        return None
    view = view_for(deal, seat)
    blind = [
        list(view.hand_counts) if p == seat else [0] * 54 for p in range(deal.ruleset.players)
    ]
    world = state_from_view(view, blind, ())
    world.apply(action)  # refusals that need no other hand (the seat's own, the rules')
    ctx = world.ctx
    assert ctx is not None
    units = analyse_lead(action.cards, ctx, deal.ruleset).units
    return "throw" if suit_of_play(action.cards, ctx) is not None and len(units) > 1 else None
