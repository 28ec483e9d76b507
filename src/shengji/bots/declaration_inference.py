"""What the declaring window says about the hands: every seat passed at its last turn.

The window after the deal (phase ``declaring``) goes round until every seat has passed in
a row with the final declaration standing, each seat then holding its whole dealt hand.
A world in which the heuristic, given that hand, would have declared (overturned, or
reinforced its own declaration) at that turn explains the window badly: ``window_misses``
counts one miss for each such seat, the way ``plausible.seat_misses`` counts plays. The
seat's dealt hand is its hand at the first lead (``determinize.start_of_play``), so the
kitty's holder (who swapped cards with the kitty since) and the viewer are not judged.
Only where the window is the whole story: fixed partners, declarations in the open, no
亮牌权 contest, no 竞标 auction, no 反底 round after it (which may change the declaration),
and a known dealer (in a first deal the window's bars depended on who would deal).

Among heuristic players the real deal has no window misses (a property test over seeded
deals of every preset, ``tests/bots/test_declaration_inference.py``).

>>> from shengji.bots.heuristic import HeuristicBot
>>> from shengji.bots.positions import trick_states
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.views import view_for
>>> deal = trick_states(PRESETS["classic"], seed=3, first_dealer=0)[20]
>>> view = view_for(deal, deal.to_act)
>>> judges = [HeuristicBot(i) for i in range(4)]
>>> window_misses(view, deal.hands, deal.kitty, judges)
[0, 0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Declare
from shengji.core.determinize import start_of_play
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.views import DealView, view_for


def judged(view: DealView) -> list[int]:
    """The seats whose window turn ``window_misses`` judges for this view (none where the
    window is not the whole story)."""
    rs = view.ruleset
    if (view.seat is None or view.phase is not Phase.PLAYING or rs.partnership != "fixed"
            or rs.declaration == "hidden" or rs.rebury or view.rights
            or view.auction is not None or view.declaration is None or view.dealer is None
            or view.friend_call is not None or view.shown):
        return []
    return [s for s in range(rs.players) if s != view.seat and s != view.kitty_holder]


def window_misses(
    view: DealView,
    hands: Sequence[Sequence[int]],
    kitty: Sequence[int],
    bots: Sequence[HeuristicBot],
    seats: Collection[int] | None = None,
) -> list[int]:
    """Per seat, 1 if the heuristic (``bots``, one per seat) would not have passed at its
    last window turn with the dealt hand this world gives it, else 0 (only the seats of
    ``judged(view)``, and of ``seats`` when given)."""
    counts = [0] * len(view.hand_sizes)
    who = [s for s in judged(view) if seats is None or s in seats]
    if not who:
        return counts
    start = start_of_play(view, hands, kitty)
    for seat in who:
        window = start.writable(False)
        assert isinstance(window, DealState)
        window.phase = Phase.DECLARING
        window.turn = seat
        window.trump = None
        window.ctx = None
        window.kitty_holder = None
        window.leader = seat
        legal = window.legal_actions(seat)
        if not any(isinstance(a, Declare) for a in legal):
            continue
        choice = bots[seat].choose(view_for(window, seat), legal)
        if isinstance(choice, Declare):
            counts[seat] = 1
    return counts
