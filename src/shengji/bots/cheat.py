"""``cheat``: the omniscient reference bot, an upper bound for the ladder (arena only).

It sees every hand: the driver hands it the whole deal (``peek``) before each decision of
the play phase. It plays each candidate (the heuristic's shortlist, then further legal
plays, up to ``CANDIDATES``) to the end of the deal in the true deal with heuristic
rollouts in every seat, and takes the best deal value for its side (ties: the heuristic's
choice). Once no seat holds more than ``ENDGAME`` cards it solves the rest of the deal
exactly instead (``bots/endgame.py``: every legal play, both sides playing perfectly in the
true deal), falling back to the rollouts should a solve outgrow its nodes. Outside the play
phase, or when nobody showed it the deal, it is ``heuristic``.
It is never offered at a table or to players: the registry refuses it everywhere but the
arena (``registry.ARENA_ONLY``).

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.driver import play_match
>>> from shengji.bots.heuristic import HeuristicBot
>>> bots = [CheatBot(0), HeuristicBot(1), CheatBot(2), HeuristicBot(3)]
>>> state, _ = play_match(PRESETS["one-deck"], bots, seed=2, deals=1)
>>> len(state.history)
1
"""

from __future__ import annotations

from typing import Final

from shengji.bots.endgame import NODES, OutOfNodes, Solver, cards_left, moves, settled
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.search import deal_value, rollout, rollout_players
from shengji.core.actions import Action, Play
from shengji.core.determinize import state_from_view
from shengji.core.legal import LegalActions, hand_units
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.views import DealView

CANDIDATES: Final = 10
"""Plays tried per decision (each is one rollout: the deal is known, nothing is sampled)."""
ENDGAME: Final = 4
"""Cards a seat may hold at most for the true deal to be solved exactly from here."""


class CheatBot:
    """Perfect-information rollouts over candidate plays."""

    name = "cheat"

    def __init__(self, seed: int | str | None = None, endgame: int = ENDGAME,
                 endgame_nodes: int = NODES) -> None:
        self.endgame = endgame
        """Solve the rest exactly once every seat holds at most this many cards (0: never)."""
        self.endgame_nodes = endgame_nodes
        self.policy = HeuristicBot(seed)
        self.players = rollout_players("heuristic", seed)
        self._deal: DealState | None = None

    def peek(self, deal: DealState) -> None:
        """See the whole deal (every hand, the kitty) for the next decision."""
        self._deal = deal

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """The candidate with the best deal value in the true deal."""
        deal, self._deal = self._deal, None
        if view.phase is not Phase.PLAYING or view.seat is None or deal is None:
            return self.policy.choose(view, legal)
        if self.endgame and settled(deal) and cards_left(deal) <= self.endgame:
            solved = self.solve(view, legal, deal)
            if solved is not None:
                return solved
        cands = self.candidates(view, legal)
        if len(cands) == 1:
            return cands[0]
        hands, kitty = [list(h) for h in deal.hands], list(deal.kitty)
        best, best_value = cands[0], -float("inf")
        for action in cands:
            world = state_from_view(view, hands, kitty)
            world.apply_in_place(action)
            value = deal_value(rollout(world, self.players), view.seat)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best

    def solve(self, view: DealView, legal: LegalActions, deal: DealState) -> Action | None:
        """The play with the best exact value in the true deal (ties: the heuristic's
        choice, then the engine's order), or None when a solve outgrows its nodes."""
        seat = view.seat
        assert seat is not None
        first = self.policy.choose(view, legal)
        plays: list[Action] = [first] if first is not None else []
        seen = {tuple(sorted(first.cards))} if isinstance(first, Play) else set()
        for p in moves(deal):
            if tuple(sorted(p.cards)) not in seen:
                seen.add(tuple(sorted(p.cards)))
                plays.append(p)
        if len(plays) == 1:
            return plays[0]
        solver = Solver(lambda r: deal_value(r, seat), seat, self.endgame_nodes)
        best: Action | None = None
        best_value = -float("inf")
        try:
            for action in plays:
                vouched = legal.vouch(action)
                assert vouched is not None
                world = state_from_view(view, [list(h) for h in deal.hands], list(deal.kitty))
                world.apply_in_place(vouched)
                value = solver.solve(world)
                if value > best_value + 1e-9:
                    best, best_value = vouched, value
        except OutOfNodes:
            return None
        return best

    def candidates(self, view: DealView, legal: LegalActions) -> list[Action]:
        """The heuristic's shortlist, then every unit (a lead) or legal follow, deduplicated."""
        out = self.policy.shortlist(view, legal, 5)
        seen = {tuple(sorted(a.cards)) for a in out if isinstance(a, Play)}
        ctx, seat = view.ctx, view.seat
        extra: list[tuple[int, ...]] = []
        if legal.kind == "lead" and ctx is not None and seat is not None:
            extra = hand_units(list(view.hand_counts), ctx)
        else:
            for a in legal:
                if isinstance(a, Play):
                    extra.append(a.cards)
                if len(extra) >= 4 * CANDIDATES:
                    break
        for cards in extra:
            key = tuple(sorted(cards))
            if len(out) >= CANDIDATES:
                break
            if key not in seen:
                seen.add(key)
                vouched = legal.vouch(Play(legal.seat, key))
                if vouched is not None:
                    out.append(vouched)
        return out
