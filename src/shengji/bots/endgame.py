"""Exact endgames: the deal's last tricks solved by alpha-beta in one known deal.

With every hand known (one sampled world of a search, or the true deal for ``cheat``) and
few cards left, the rest of the deal is a small two-sided game: the seat's side maximises the
deal's value, the other side minimises it. ``solve`` plays it out exactly with the engine's
own moves and transitions (``DealState.legal_actions``: leads, throws checked against the
other hands, follows by the follow rules; ``DealState.apply``: trick winners, points, the
kitty and its multiplier, the level table), scoring each finished deal with the caller's
``value`` of its ``DealResult``. A transposition table keeps bounds by position (hands,
the trick so far, points); single cards that nothing left in play separates (no card in
any hand or on the table ranks between them, the same points, neither part of a pair in
its hand) are one move (``moves``); ``brute`` is the plain minimax the tests hold it to.

>>> from shengji.core.cards import cards_str
>>> from shengji.core.ruleset import PRESETS
>>> pos = position_after(PRESETS["classic"], seed=0, cards_left=3)  # ♠ trump, level 2
>>> [cards_str(c for c in range(54) for _ in range(h[c])) for h in pos.hands], pos.to_act
(['D8 D9 DJ', 'D10 DJ DK', 'S2 SA H2', 'S10 D5 DK'], 0)
>>> value = lambda r: float(r.attacker_points)  # seats 1 and 3 attack, 50 so far
>>> solve(pos, value, maximizer=1), brute(pos, value, maximizer=1)
(50.0, 50.0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Final

from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Play
from shengji.core.cards import points
from shengji.core.match import MatchState
from shengji.core.phases import PHASE_DONE, PHASE_PLAYING
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealResult, DealState

Value = Callable[[DealResult], float]
"""A finished deal's worth to the maximising side."""

NODES: Final = 20_000
"""Positions one ``solve`` may visit before it gives up (None: the caller rolls out)."""


class OutOfNodes(Exception):
    """The position is bigger than the node budget allows."""


def settled(state: DealState) -> bool:
    """Whether the sides are known in ``state`` (no friend still to be revealed), so the
    rest of the deal is a two-sided game."""
    return state.phase is PHASE_PLAYING and (state.friend_call is None
                                             or state.friend is not None)


def cards_left(state: DealState) -> int:
    """The most cards any seat still holds (a trick under way counts its plays as gone)."""
    return max(state.hand_sizes)


def moves(state: DealState, merge: bool = True) -> list[Play]:
    """The legal plays of the seat to act (the engine's ``legal_actions``), with plays that
    differ only by interchangeable single cards merged into one (``merge``): two cards of
    the seat held once each, of the same effective suit and points, with no other card in
    any hand or on the table ranking between them or level with either (not with two
    colours, where two kinds make a pair).

    >>> from shengji.core.ruleset import PRESETS
    >>> from shengji.core.cards import cards_str
    >>> pos = position_after(PRESETS["classic"], seed=0, cards_left=3)  # D8 D9 DJ to lead
    >>> [cards_str(p.cards) for p in moves(pos)]  # ♦8 ~ ♦9: the others' ♦10 is above both
    ['D8', 'DJ', 'D8 D9', 'D8 DJ', 'D8 D9 DJ']
    >>> len(moves(pos, merge=False))
    7
    """
    seat = state.to_act
    assert seat is not None and seat >= 0
    plays = [a for a in state.legal_actions(seat) if isinstance(a, Play)]
    if not merge or len(plays) < 2:
        return plays
    rep = _representatives(state, seat)
    if not rep:
        return plays
    out: list[Play] = []
    seen: set[tuple[int, ...]] = set()
    for p in plays:
        key = tuple(sorted(rep.get(c, c) for c in p.cards))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _representatives(state: DealState, seat: int) -> dict[int, int]:
    """Card -> the card of its class of interchangeable singles in ``seat``'s hand."""
    ctx = state.ctx
    assert ctx is not None
    if ctx.two_color:  # two kinds of one face make a pair there: kinds are not enough
        return {}
    hand = state.hands[seat]
    singles = [c for c in range(54) if hand[c] == 1]
    if len(singles) < 2:
        return {}
    others: list[int] = [c for p, h in enumerate(state.hands) if p != seat
                         for c in range(54) if h[c]]
    others.extend(c for c in range(54) if hand[c] > 1)
    others.extend(c for _, cards in state.trick for c in cards)
    esuit, pos = ctx.esuit, ctx.pos
    out: dict[int, int] = {}
    by_suit: dict[int, list[int]] = {}
    for c in singles:
        by_suit.setdefault(esuit[c], []).append(c)
    for suit, cards in by_suit.items():
        cards.sort(key=lambda c: (pos[c], c))
        walls = [pos[c] for c in others if esuit[c] == suit]
        head = cards[0]
        for a, b in itertools.pairwise(cards):
            lo, hi = pos[a], pos[b]
            if points(a) == points(b) and not any(lo <= w <= hi for w in walls):
                out[b] = head
            else:
                head = b
    return out


def _key(state: DealState) -> tuple[object, ...]:
    return (tuple(tuple(h) for h in state.hands), state.trick, state.leader,
            state.attacker_points, state.defender_points)


class Solver:
    """Alpha-beta over the rest of one deal, with a transposition table of bounds."""

    def __init__(self, value: Value, maximizer: int, nodes: int | None = NODES,
                 merge: bool = True) -> None:
        self.value = value
        self.maximizer = maximizer
        """A seat of the maximising side."""
        self.limit = nodes
        self.merge = merge
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[float, float]] = {}

    def solve(self, state: DealState) -> float:
        """The value of ``state`` with both sides playing perfectly (raises ``OutOfNodes``)."""
        if not settled(state) and state.phase is not PHASE_DONE:
            raise ValueError("an endgame is solved in the play phase with the sides known")
        return self._search(state, -float("inf"), float("inf"))

    def _search(self, st: DealState, alpha: float, beta: float) -> float:
        if st.phase is PHASE_DONE:
            assert st.result is not None
            return self.value(st.result)
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise OutOfNodes
        key = _key(st)
        hit = self.table.get(key)
        lo, hi = (-float("inf"), float("inf")) if hit is None else hit
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        mover = st.to_act
        assert mover is not None
        maximize = (mover in st.defenders) == (self.maximizer in st.defenders)
        a0, b0 = alpha, beta
        best = -float("inf") if maximize else float("inf")
        for play in moves(st, self.merge):
            child, _ = st.apply(play)
            v = self._search(child, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best <= a0:
            self.table[key] = (lo, best)
        elif best >= b0:
            self.table[key] = (best, hi)
        else:
            self.table[key] = (best, best)
        return best


def solve(state: DealState, value: Value, maximizer: int,
          nodes: int | None = NODES) -> float | None:
    """The exact value of the rest of the deal in ``state`` for ``maximizer``'s side (the
    other side minimising ``value``), or None past ``nodes`` positions."""
    try:
        return Solver(value, maximizer, nodes).solve(state)
    except OutOfNodes:
        return None


def brute(state: DealState, value: Value, maximizer: int) -> float:
    """Plain minimax over every legal play (no pruning, no table, nothing merged): what
    ``solve`` must equal, for tests on small positions."""
    if state.phase is PHASE_DONE:
        assert state.result is not None
        return value(state.result)
    mover = state.to_act
    assert mover is not None
    vals = [brute(state.apply(p)[0], value, maximizer) for p in moves(state, merge=False)]
    mine = (mover in state.defenders) == (maximizer in state.defenders)
    return max(vals) if mine else min(vals)


def position_after(ruleset: Ruleset, seed: int | str, cards_left: int,
                   mid_trick: int = 0) -> DealState:
    """A seeded deal of heuristic players, played until each seat holds at most
    ``cards_left`` cards at a trick's start, then ``mid_trick`` plays into that trick (for
    examples and tests; ``ValueError`` if the deal never gets there with the sides known)."""
    found: list[DealState] = []

    def keep(_action: object, match: MatchState, _events: object) -> None:
        deal = match.deal
        if (not found and not match.history and settled(deal)
                and max(deal.hand_sizes) <= cards_left and len(deal.trick) == mid_trick):
            found.append(deal)

    bots = [HeuristicBot(i) for i in range(ruleset.players)]
    play_match(ruleset, bots, seed=seed, deals=1, on_action=keep)
    if not found:
        raise ValueError(f"deal {seed!r} never reached {cards_left} cards with the sides known")
    return found[0]
