"""Positions from a real game, for examples, tests and benchmarks: the states of the first
deal of a match among heuristic bots, from its first trick on.

>>> from shengji.core.ruleset import PRESETS
>>> states = trick_states(PRESETS["classic"], seed=3)
>>> states[0].tricks != () and len({s.deal_no for s in states})
1
"""

from __future__ import annotations

from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Action
from shengji.core.events import Event
from shengji.core.match import MatchState
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealState


def trick_states(
    ruleset: Ruleset, seed: int, first_dealer: int | None = None
) -> list[DealState]:
    """Each state of the first deal, among heuristic bots, once a trick has been won (the
    same states for the same ``seed``)."""
    seen: list[DealState] = []

    def keep(_action: Action, m: MatchState, _events: list[Event]) -> None:
        if m.deal.tricks and not m.history:
            seen.append(m.deal)

    bots = [HeuristicBot(i) for i in range(ruleset.players)]
    play_match(ruleset, bots, seed=seed, deals=1, on_action=keep, first_dealer=first_dealer)
    return seen
