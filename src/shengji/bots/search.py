"""A sampling search bot (PIMC): guess the hidden cards many times, play each candidate out.

For a decision in play it draws worlds consistent with its view (``sampler``; by default
kept across the deal and moved toward what the other seats' plays say, ``chains``, the kitty
another seat buried being what it would have buried, ``buried``), and for each
candidate action plays the deal to its end with a fast rollout policy in every seat; it
picks the candidate with the best mean deal value for its side (levels, then points).
Other phases (declaring, burying) are left to the heuristic bot, whose choice is also
always the first candidate. A time budget
(``think_ms``, CPU time of the thinking thread, so a busy machine does not starve it of
worlds) bounds each decision; ``samples`` fixes the number of worlds instead, which makes it
deterministic for a seed; a hard ``deadline`` (wall clock, set by the server's bot runner)
stops either. ``stats`` keeps worlds, rollouts and CPU seconds of every searched decision.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.driver import play_match
>>> bots = [SearchBot(seed=i, samples=2, rollout="random") for i in range(4)]
>>> state, _ = play_match(PRESETS["one-deck"], bots, seed=3, deals=1)
>>> len(state.history)
1
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from shengji.bots.base import Bot
from shengji.bots.burial_choice import burial_options
from shengji.bots.chains import BETA, COUNT, STEPS, Chains, usable
from shengji.bots.endgame import NODES, OutOfNodes, Solver, cards_left, settled
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.plausible import misses
from shengji.bots.random_bot import RandomBot
from shengji.bots.sampler import Follow, Tell, sample_hidden, structured_follows, tells
from shengji.core.actions import Action, Bury, Play
from shengji.core.determinize import burial_searchable, state_after_burial, state_from_view
from shengji.core.legal import LegalActions, hand_units
from shengji.core.phases import PHASE_DONE, Phase
from shengji.core.state import DealResult, DealState
from shengji.core.views import DealView, view_for

BURY_CANDIDATES: Final = 8
"""Burials compared when the search buries: the policy's and the next cheapest."""
MAX_CANDIDATES: Final = 5
"""Candidates evaluated per decision: the policy's choice and its next best alternatives."""
MIN_WORLDS: Final = 8
"""Worlds needed before the search may overrule the policy or drop a candidate."""
MARGIN: Final = 0.05
"""Mean gain (deal value) over the policy's choice needed to overrule it ..."""
CONFIDENCE: Final = 2.0
"""... and the gain must be this many standard errors above zero (paired over worlds)."""
POINT_WEIGHT: Final = 1 / 120
"""Deal value of one attacker point (a smooth proxy between the level table's steps)."""
ENDGAME: Final = 3
"""A world is solved exactly (``bots/endgame.py``) once no seat holds more cards than this
after the candidate's play; rolled out before (or when the solve outgrows its nodes)."""
STRETCH: Final = 1.15
"""With budget by need, a decision whose top moves are still close may think this many
times its budget (the cap: no world is started that would end past it)."""


def deal_value(result: DealResult, seat: int) -> float:
    """The deal's worth for ``seat``'s side: levels (a takeover counts half a level), plus
    attacker points at ``POINT_WEIGHT`` each, which smooths the table's steps."""
    mine = seat in result.defenders
    ch = result.change
    levels: float
    if ch.attackers_take_over:
        swing = ch.attacker_levels + 0.5
        levels = -swing if mine else swing
    else:
        levels = float(ch.defender_levels if mine else -ch.defender_levels)
    pts = result.attacker_points * POINT_WEIGHT
    return levels + (-pts if mine else pts)


def rollout(state: DealState, bots: Sequence[Bot]) -> DealResult:
    """Play ``state`` (changed in place) to the end of the deal with ``bots``."""
    while state.phase is not PHASE_DONE:  # a module constant: read every action
        seat = state.to_act
        assert seat is not None and seat >= 0
        legal = state.legal_actions(seat)
        action = bots[seat].choose(view_for(state, seat), legal)
        assert action is not None
        state.apply_in_place(action)
    assert state.result is not None
    return state.result


ROLLOUT_POLICIES: Final[dict[str, Callable[[str], Bot]]] = {
    "heuristic": HeuristicBot, "random": RandomBot,
}
"""The bots a search's rollouts may be played by (``search:<ms>:random``), by name."""


def rollout_players(name: str, seed: int | str | None, seats: int = 6) -> list[Bot]:
    """The bots that play a search's rollouts: ``name`` in every seat, a heuristic one
    trusted to play legally (``HeuristicBot.trusted``: its plays are not checked again)."""
    if name not in ROLLOUT_POLICIES:
        raise ValueError(f"unknown rollout policy {name!r}; known: {', '.join(ROLLOUT_POLICIES)}")
    make = ROLLOUT_POLICIES[name]
    players = [make(f"{seed}.rollout.{k}") for k in range(seats)]
    for p in players:
        if isinstance(p, HeuristicBot):
            p.trusted = True
    return players


class SearchBot:
    """Determinized sampling over candidate plays, with policy rollouts."""

    name = "search"

    def __init__(
        self,
        seed: int | str | None = None,
        think_ms: float = 1000.0,
        samples: int | None = None,
        rollout: str = "heuristic",
        *,
        margin: float = MARGIN,
        confidence: float = CONFIDENCE,
        max_candidates: int = MAX_CANDIDATES,
        min_worlds: int = MIN_WORLDS,
        draws: int = 1,
        tells: bool = False,
        bury: bool = False,
        chains: int = COUNT,
        chain_steps: int = STEPS,
        beta: float = BETA,
        burial: bool = True,
        endgame: int = ENDGAME,
        endgame_nodes: int = NODES,
        need: bool = True,
        stretch: float = STRETCH,
        window: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.think_ms = think_ms
        self.samples = samples
        self.margin = margin
        """Mean gain over the policy's choice needed to overrule it."""
        self.confidence = confidence
        """Standard errors above zero that gain must also be."""
        self.max_candidates = max_candidates
        self.min_worlds = min_worlds
        self.draws = draws
        """Worlds drawn per world played out: the one whose other seats' plays the
        heuristic explains best is kept (``plausible.misses``); 1 takes every draw, and so
        does a 找朋友 deal (its replay would need the friend's reveal)."""
        self.tells = tells
        """Weigh in the soft evidence of how the other seats followed (``sampler.tells``)."""
        self.bury = bury
        """Search the burial too (where ``burial_searchable``): the policy's and the next
        cheapest ones, each played out from the first lead in the same worlds. Opt-in: no
        clear gain measured (docs/bots.md)."""
        self.burial = burial
        """Infer the hidden kitty from the burial too (``bots/burial_inference.py``): worlds whose
        kitty is what its burier would have buried."""
        self.endgame = endgame
        """Solve a world exactly once every seat holds at most this many cards (0: never),
        visiting at most ``endgame_nodes`` positions a world (then it is rolled out)."""
        self.endgame_nodes = endgame_nodes
        self.need = need
        """Budget by need (``settle``): stop once one move dominates, drop alternatives that
        cannot reach the overrule, and think up to ``stretch`` times the budget while the
        top moves are close. Off: every decision runs until one candidate is left or the
        budget is spent."""
        self.stretch = stretch
        self.solved = 0
        """Worlds' candidate positions solved exactly (the rest were rolled out)."""
        self._judges = [HeuristicBot(f"{seed}.judge.{k}") for k in range(6)]
        self.window = window
        """Judge the worlds by the declaring window too (``bots/declaration_inference.py``:
        a seat whose dealt hand would have made the heuristic declare where it passed is a
        miss, for the chains and ``draws``). Opt-in."""
        self.chains = (Chains(self.rng, self._judges, chains, chain_steps, beta, burial,
                              window) if chains > 0 else None)
        """Worlds kept across the deal's decisions and moved toward what the other seats'
        plays say (``bots/chains.py``): ``chains`` of them, ``chain_steps`` swaps proposed
        on one each time a world is taken from it; 0 draws every world afresh."""
        self._evidence: tuple[DealView, list[Follow], list[Tell] | None] | None = None
        """The evidence of the view being searched (worked out once a view): the follows'
        structure, and the tells when weighed in."""
        rollout = rollout if rollout in ROLLOUT_POLICIES else "heuristic"
        self.policy: Bot = HeuristicBot(f"{seed}.policy")
        self.players = rollout_players(rollout, seed)
        self.last_worlds = 0
        self.searched = 0
        """Decisions searched (more than one candidate)."""
        self.overruled = 0
        """Decisions where the search left the policy's choice."""
        self.stats: list[tuple[int, int, float]] = []
        """``(worlds, rollouts, CPU seconds)`` of each searched decision."""
        self.deadline: float | None = None
        """A hard stop (a ``time.monotonic()`` value) set by whoever runs the bot (the
        server's bot runner): no world is started that would end past it, whatever
        ``think_ms`` or ``samples`` say."""

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """Search in the play phase, and a burial where ``bury``; otherwise play as the
        rollout policy would."""
        if view.seat is None:
            return self.policy.choose(view, legal)
        cpu0 = time.thread_time()  # the budget covers choosing the candidates too
        if view.phase is Phase.PLAYING:
            candidates = self.candidates(view, legal)
            if len(candidates) == 1:
                return candidates[0]

            def played(hands: list[list[int]], kitty: list[int], i: int) -> DealState:
                world = state_from_view(view, hands, kitty)
                world.apply_in_place(candidates[i])
                return world

            return candidates[self._race(view, len(candidates), played, cpu0)]
        if view.phase is Phase.BURYING and self.bury and burial_searchable(view):
            burials = self.burials(view, legal)
            if len(burials) == 1:
                return burials[0]

            def buried(hands: list[list[int]], _kitty: list[int], i: int) -> DealState:
                return state_after_burial(view, hands, burials[i].cards)

            return burials[self._race(view, len(burials), buried, cpu0)]
        return self.policy.choose(view, legal)

    def _race(self, view: DealView, n: int,
              start: Callable[[list[list[int]], list[int], int], DealState],
              cpu0: float) -> int:
        """Which of ``n`` candidates to take (0 is the policy's choice): each is played out
        in the same sampled worlds (``start(hands, kitty, i)``: candidate ``i``'s world, to
        roll out or solve) and compared with candidate 0 world by world, within the budget
        counted from ``cpu0`` (the decision's start, ``time.thread_time``)."""
        assert view.seat is not None
        seat = view.seat
        timed = self.samples is None or self.deadline is not None
        think = self.think_ms / 1000
        budget = math.inf if self.samples is not None else cpu0 + think
        stretched = budget if not self.need else cpu0 + think * self.stretch
        wall = math.inf if self.deadline is None else self.deadline
        values: list[list[float]] = [[] for _ in range(n)]  # per candidate, per world
        active = list(range(n))
        worlds = rollouts = 0
        close = False
        chosen: int | None = None
        # the longest rollout so far (CPU, wall): none is started that would overrun
        slowest = slowest_wall = drawing = 0.0
        while len(active) > 1 and not (self.samples is not None and worlds >= self.samples):
            n_active = len(active)
            limit = stretched if close else budget
            if timed and (time.thread_time() + drawing + slowest * n_active >= limit
                          or time.monotonic() + slowest_wall * n_active >= wall):
                break  # a world only counts when every active candidate was played in it
            t0 = time.thread_time()
            hands, kitty = self.world(view)
            drawing = max(drawing, time.thread_time() - t0)
            got: dict[int, float] = {}
            solver = Solver(lambda r: deal_value(r, seat), seat, self.endgame_nodes)
            for i in active:
                t0, t0_wall = time.thread_time(), time.monotonic()
                if timed and (t0 + slowest >= limit or t0_wall + slowest_wall >= wall):
                    break
                got[i] = self._value(start(hands, kitty, i), seat, solver)
                rollouts += 1
                slowest = max(slowest, time.thread_time() - t0)
                slowest_wall = max(slowest_wall, time.monotonic() - t0_wall)
            if len(got) < len(active):
                break
            worlds += 1
            for i in active:
                values[i].append(got[i])
            if worlds >= self.min_worlds:
                if self.need and self.samples is None:
                    active, chosen, close = settle(values, active, self.margin,
                                                   self.confidence)
                    if chosen is not None:
                        break
                else:
                    # Drop alternatives that are clearly no better than the policy's choice.
                    active = [i for i in active
                              if i == 0 or _upper(*_sums(values, i), worlds) > 0]
        self.last_worlds = worlds
        self.stats.append((worlds, rollouts, time.thread_time() - cpu0))
        self.searched += 1
        best = 0 if chosen is None else chosen
        if chosen is None and worlds >= self.min_worlds:
            for i in active:
                total, total2 = _sums(values, i)
                mean = total / worlds
                sure = mean > self.margin and _z(total, total2, worlds) >= self.confidence
                if sure and (best == 0 or mean > sum(values[best]) / worlds
                             - sum(values[0]) / worlds):
                    best = i
        self.overruled += best != 0
        return best

    def _value(self, state: DealState, seat: int, solver: Solver) -> float:
        """The deal's value for ``seat`` from ``state`` (changed): solved exactly when it is
        small enough (``endgame``), else played out by the rollout players."""
        if (self.endgame and settled(state) and cards_left(state) <= self.endgame):
            try:
                v = solver.solve(state)
            except OutOfNodes:  # too big: this world's other candidates are rolled out too
                solver.limit = 0
            else:
                self.solved += 1
                return v
        return deal_value(rollout(state, self.players), seat)

    def burials(self, view: DealView, legal: LegalActions) -> list[Bury]:
        """The policy's burial and the next cheapest by its costs
        (``burial_choice.burial_options``), up to ``BURY_CANDIDATES``."""
        first = self.policy.choose(view, legal)
        assert isinstance(first, Bury) and view.seat is not None and view.ctx is not None
        out = [first]
        seen = {tuple(sorted(first.cards))}
        defender = view.seat in view.defenders
        for b in burial_options(view.hand_counts, view.ctx, len(first.cards), defender,
                                view.ruleset.decks, BURY_CANDIDATES):
            key = tuple(sorted(b))
            if key not in seen and len(out) < BURY_CANDIDATES:
                seen.add(key)
                out.append(Bury(view.seat, key))
        return out

    def world(self, view: DealView) -> tuple[list[list[int]], list[int]]:
        """One sampled world: of ``draws`` draws, the one with the fewest misses (or the
        next chain's world, with ``chains``)."""
        if self.chains is not None and usable(view):
            self.chains.rng = self.rng
            return self.chains.world(view)
        if self._evidence is None or self._evidence[0] is not view:
            soft = tells(view) if self.tells else None
            self._evidence = (view, structured_follows(view), soft)
        _, evidence, soft = self._evidence
        if self.draws <= 1 or view.friend_call is not None or view.phase is not Phase.PLAYING:
            return sample_hidden(view, self.rng, evidence=evidence, tells=soft,
                                 burial=self.burial)
        best: tuple[list[list[int]], list[int]] | None = None
        fewest = 0
        for _ in range(self.draws):
            hands, kitty = sample_hidden(view, self.rng, evidence=evidence, tells=soft,
                                         burial=self.burial)
            miss = misses(view, hands, kitty, self._judges, None if best is None else fewest,
                          self.burial, self.window)
            if best is None or miss < fewest:
                best, fewest = (hands, kitty), miss
                if miss == 0:
                    break
        assert best is not None
        return best

    def candidates(self, view: DealView, legal: LegalActions) -> list[Action]:
        """The policy's choice and its next best alternatives; for a lead, also the best
        unit of each shape and suit (up to ``max_candidates`` in all)."""
        if isinstance(self.policy, HeuristicBot):
            out = self.policy.shortlist(view, legal, self.max_candidates)
        else:
            first = self.policy.choose(view, legal)
            assert first is not None
            out = [first]
        seen = {_key(a) for a in out}

        def add(action: Action) -> None:
            if len(out) < self.max_candidates and _key(action) not in seen:
                seen.add(_key(action))
                out.append(action)

        ctx = view.ctx
        if legal.kind == "lead" and ctx is not None and view.seat is not None:
            best: dict[tuple[int, int, int], tuple[int, ...]] = {}
            for unit in hand_units(list(view.hand_counts), ctx):
                shape = (ctx.esuit[unit[0]], len(unit), len(set(unit)))
                top = max(ctx.pos[c] for c in unit)
                if shape not in best or top > max(ctx.pos[c] for c in best[shape]):
                    best[shape] = unit
            for shape in sorted(best, key=lambda sh: (-sh[1], sh[0])):
                add(Play(view.seat, best[shape]))
        else:
            for action in legal:
                if len(out) >= self.max_candidates:
                    break
                add(action)
        return out


def settle(values: Sequence[Sequence[float]], active: list[int], margin: float,
           confidence: float) -> tuple[list[int], int | None, bool]:
    """Budget by need, after a world: ``values[i]`` is candidate ``i``'s deal value in each
    world so far (0: the policy's choice, every candidate of ``active`` played in all).
    Returns the candidates still worth playing, the one to take now if one dominates, and
    whether the choice is close (worth thinking past the budget).

    - An alternative whose mean gain over candidate 0 is surely below ``margin`` (two
      standard errors, paired) can no longer overrule it: dropped.
    - One alternative dominates when it would overrule (mean gain above ``margin`` and
      ``confidence`` standard errors above zero) and is surely above every other one left
      (paired, two standard errors): taken now.
    - Close: some alternative may still overrule but is not sure yet, or two that would
      are not yet apart.

    >>> settle([[0.0] * 8, [-1.0] * 8, [-0.5, 0.0] * 4], [0, 1, 2], 0.05, 2.0)
    ([0], None, False)
    >>> settle([[0.0] * 8, [1.0] * 8, [0.0, 0.5] * 4], [0, 1, 2], 0.05, 2.0)
    ([0, 1, 2], 1, False)
    >>> settle([[0.0] * 8, [0.5, -0.3] * 4], [0, 1], 0.05, 2.0)
    ([0, 1], None, True)
    """
    worlds = len(values[0])

    def gains(i: int, j: int) -> tuple[float, float, float]:
        d = [a - b for a, b in zip(values[i], values[j], strict=True)]
        total = sum(d)
        mean, se = _mean_se(total, sum(x * x for x in d), worlds)
        return mean, se, total

    kept = [0]
    sure: list[int] = []
    doubt = False
    for i in active:
        if i == 0:
            continue
        mean, se, _ = gains(i, 0)
        if mean + 2 * se <= margin:
            continue
        kept.append(i)
        if mean > margin and (mean / se if se > 1e-12 else math.inf) >= confidence:
            sure.append(i)
        else:
            doubt = True
    if sure:
        top = max(sure, key=lambda i: sum(values[i]))
        apart = all(j == top or gains(top, j)[0] - 2 * gains(top, j)[1] > 0
                    for j in kept if j != 0)
        if apart:
            return kept, top, False
        doubt = True
    return kept, None, doubt


def _sums(values: Sequence[Sequence[float]], i: int) -> tuple[float, float]:
    """Sum and sum of squares of candidate ``i``'s paired gains over candidate 0."""
    total = total2 = 0.0
    for a, b in zip(values[i], values[0], strict=True):
        d = a - b
        total += d
        total2 += d * d
    return total, total2


def _mean_se(total: float, total2: float, n: int) -> tuple[float, float]:
    """Mean and standard error of ``n`` paired gains from their sum and sum of squares."""
    mean = total / n
    var = max(total2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
    se: float = (var / n) ** 0.5
    return mean, se


def _z(total: float, total2: float, n: int) -> float:
    """How many standard errors the mean of ``n`` paired gains lies above zero."""
    mean, se = _mean_se(total, total2, n)
    return mean / se if se > 1e-12 else (float("inf") if mean > 0 else 0.0)


def _upper(total: float, total2: float, n: int) -> float:
    """An optimistic bound (mean + 2 standard errors) on the mean paired gain."""
    mean, se = _mean_se(total, total2, n)
    return mean + 2 * se


def _key(action: Action) -> tuple[int, ...]:
    return tuple(sorted(action.cards)) if isinstance(action, Play) else ()
