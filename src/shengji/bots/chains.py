"""Worlds kept across a seat's decisions and moved toward what the other seats' plays say
(a Metropolis chain over card swaps, scored by ``plausible.misses``).

A world drawn at random explains the other seats' plays badly: among heuristic players a
drawn world has 4-14 *misses* (plays the heuristic would not have made with that hand) and
the real deal none. Drawing many and keeping the best (``SearchBot(draws=k)``) pays a
replay per draw for a small gain. A chain instead proposes a swap of two hidden cards
between two holders (other seats or the hidden kitty) and keeps it with probability
``exp(-beta * (misses after - misses before))`` (always when it explains the plays no
worse); a swap that breaks the rules' evidence (a void, a pinned declared card, a follow
the hand would not have allowed) is refused. The chains live as long as the deal: at the
seat's next decision each is carried over to the new view (the cards played since leave
their players' hands; a card a world had put elsewhere is swapped into place) and goes on
from there, so the work of earlier decisions is not thrown away.

Measured among heuristic players (``bench/worlds.py --follow``, see docs/bots.md) the
chains' worlds place more of the hidden cards right than fresh draws. Only the view is
used: a chain starts from ``sampler.sample_hidden`` and moves by the view's evidence.

>>> import random
>>> from shengji.bots.heuristic import HeuristicBot
>>> from shengji.bots.positions import trick_states
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.views import view_for
>>> deal = trick_states(PRESETS["classic"], seed=3)[40]
>>> view = view_for(deal, deal.to_act)
>>> chains = Chains(random.Random(1), [HeuristicBot(i) for i in range(4)], count=2, steps=4)
>>> hands, kitty = chains.world(view)
>>> [sum(h) for h in hands] == list(view.hand_sizes)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from shengji.bots.burial_inference import rebury
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.plausible import IMPOSSIBLE, seat_misses
from shengji.bots.sampler import Follow, follows_hold, sample_hidden, structured_follows
from shengji.core.determinize import known_voids, unseen_cards
from shengji.core.follow import follow_refusal
from shengji.core.phases import Phase
from shengji.core.views import DealView

KITTY: Final = -1
"""A swap's holder that is the hidden kitty."""
COUNT: Final = 12
"""Chains kept per seat and deal."""
STEPS: Final = 6
"""Swaps proposed on a chain each time a world is taken from it."""
BETA: Final = 2.0
"""How strongly a miss counts against a world: a swap that adds one is kept with
``exp(-BETA)`` (people do not play like the heuristic, so no miss rules a world out)."""
REPAIR_TRIES: Final = 20


@dataclass(slots=True)
class Chain:
    """One world and its misses, as of ``plays`` plays of the deal."""

    hands: list[list[int]]
    kitty: list[int]
    misses: int
    """``IMPOSSIBLE`` when the plays rule the world out."""
    by_seat: list[int]
    plays: int
    valid: bool = True
    """It meets the rules' evidence (a world ``sample_hidden`` drew when the evidence
    was too tight to meet at random may not: its swaps then skip the follows' check)."""


@dataclass(slots=True)
class Evidence:
    """What a world must meet in one view: voids, pinned declared cards, the follows."""

    view: DealView
    voids: list[set[int]]
    pins: dict[int, list[int]]
    follows: list[Follow]
    esuit: Sequence[int]
    holders: list[int] = field(default_factory=list)
    kitty_holder: int | None = None


def usable(view: DealView) -> bool:
    """Whether chains can keep worlds for ``view``: play with fixed partners (no 找朋友,
    whose replay needs the friend's reveal) and no 竞标 shown kitty cards to place."""
    return (view.phase is Phase.PLAYING and view.seat is not None and view.ctx is not None
            and view.friend_call is None and not view.shown)


class Chains:
    """The chains of one seat in one deal; ``world(view)`` gives the next world to play."""

    def __init__(self, rng: random.Random, judges: Sequence[HeuristicBot],
                 count: int = COUNT, steps: int = STEPS, beta: float = BETA,
                 burial: bool = False, window: bool = False) -> None:
        self.rng = rng
        self.judges = judges
        self.count = count
        self.steps = steps
        self.beta = beta
        self.burial = burial
        """Judge the hidden kitty by the burial too (``buried``): worlds start from what
        the burier would have buried, and a kitty card it would not have is a miss."""
        self.window = window
        """Judge the declaring window too (``declaration_inference``): a seat whose dealt
        hand would have made the heuristic declare where it passed is a miss."""
        self.chains: list[Chain] = []
        self.key: tuple[object, ...] | None = None
        self.next = 0
        self.evidence: Evidence | None = None
        self.last: Chain | None = None
        """The chain the last world came from."""
        self.proposed = 0
        """Swaps proposed ..."""
        self.accepted = 0
        """... and kept."""
        self.carried = 0
        """Worlds carried over to a later view ..."""
        self.redrawn = 0
        """... and those the new evidence ruled out, drawn afresh."""

    def world(self, view: DealView) -> tuple[list[list[int]], list[int]]:
        """The next chain's world for ``view``, after ``steps`` swaps proposed on it."""
        ev = self._evidence(view)
        plays = _plays(view)
        key = (view.deal_no, view.seat, view.dealer, view.trump)
        if key != self.key or any(c.plays > len(plays) for c in self.chains):
            self.key, self.chains, self.next = key, [], 0
        if len(self.chains) < self.count:
            chain = self._fresh(ev, len(plays))
            self.chains.append(chain)
        else:
            chain = self.chains[self.next % len(self.chains)]
            self.next += 1
            if chain.plays != len(plays):
                self._carry(chain, ev, plays)
        for _ in range(self.steps):
            self._step(chain, ev)
        self.last = chain
        return [list(h) for h in chain.hands], list(chain.kitty)

    def _evidence(self, view: DealView) -> Evidence:
        if self.evidence is not None and self.evidence.view is view:
            return self.evidence
        assert view.ctx is not None
        voids = known_voids(view)
        pins: dict[int, list[int]] = {}
        decl = view.declaration
        if decl is not None and decl.seat != view.seat and decl.seat != view.kitty_holder:
            still = list(decl.cards)
            for seat, cards in _plays(view):
                if seat == decl.seat:
                    for c in cards:
                        if c in still:
                            still.remove(c)
            pins[decl.seat] = still
        holders = [s for s in range(view.ruleset.players)
                   if s != view.seat and view.hand_sizes[s] > 0]
        if view.kitty is None:
            holders.append(KITTY)
        self.evidence = Evidence(view, voids, pins, structured_follows(view), view.ctx.esuit,
                                 holders, view.kitty_holder)
        return self.evidence

    def _fresh(self, ev: Evidence, plays: int) -> Chain:
        hands, kitty = sample_hidden(ev.view, self.rng, evidence=ev.follows,
                                     burial=self.burial)
        total, by_seat = self._score(ev.view, hands, kitty)
        return Chain(hands, kitty, total, by_seat, plays, self._holds(hands, kitty, ev))

    def _score(self, view: DealView, hands: list[list[int]], kitty: list[int]
               ) -> tuple[int, list[int]]:
        counts = seat_misses(view, hands, kitty, self.judges, burial=self.burial,
                             window=self.window)
        if counts is None:
            return IMPOSSIBLE, [0] * len(hands)
        return sum(counts), counts

    def _carry(self, chain: Chain, ev: Evidence, plays: list[tuple[int, tuple[int, ...]]]
               ) -> None:
        """Carry ``chain`` to ``ev.view``: the cards played since leave their players'
        hands (a card the world had put with another holder is swapped into place first);
        a world the new evidence rules out is drawn afresh."""
        view = ev.view
        assert view.seat is not None
        hands = [list(h) for h in chain.hands]
        kitty = list(chain.kitty)
        hands[view.seat] = list(view.hand_counts)
        ok = True
        for seat, cards in plays[chain.plays:]:
            if seat == view.seat:
                continue
            for c in cards:
                if hands[seat][c] <= 0 and not self._fetch(hands, kitty, seat, c, ev):
                    ok = False
                hands[seat][c] -= 1
        if ok:
            ok = (_same_cards(view, hands, kitty) and self._repair_voids(hands, kitty, ev)
                  and self._repair_follows(hands, kitty, ev) and self._holds(hands, kitty, ev))
        if ok and self.burial:  # the kitty the carry disturbed, made a burial again
            hands2, kitty2 = [list(h) for h in hands], list(kitty)
            if rebury(view, hands2, kitty2, ev.voids) and self._holds(hands2, kitty2, ev):
                hands, kitty = hands2, kitty2
        if not ok:
            self.redrawn += 1
            fresh = self._fresh(ev, len(plays))
            chain.hands, chain.kitty, chain.misses = fresh.hands, fresh.kitty, fresh.misses
            chain.by_seat, chain.valid = fresh.by_seat, fresh.valid
        else:
            self.carried += 1
            chain.hands, chain.kitty = hands, kitty
            chain.misses, chain.by_seat = self._score(view, hands, kitty)
        chain.plays = len(plays)

    def _fetch(self, hands: list[list[int]], kitty: list[int], seat: int, card: int,
               ev: Evidence) -> bool:
        """Put ``card`` in ``seat``'s hand from the holder the world gave it, which takes a
        card of ``seat``'s in return."""
        where = [h for h in ev.holders if h != seat and (
            card in kitty if h == KITTY else hands[h][card] > 0)]
        if not where:
            return False
        h = self.rng.choice(where)
        back = [c for c in range(54) if hands[seat][c] > 0 and c != card]
        if not back:
            return False
        fits = [c for c in back if h == KITTY or ev.esuit[c] not in ev.voids[h]]
        y = self.rng.choice(fits or back)
        _move(hands, kitty, h, seat, card)
        _move(hands, kitty, seat, h, y)
        return True

    def _repair_voids(self, hands: list[list[int]], kitty: list[int], ev: Evidence) -> bool:
        """Swap out of each seat the cards of suits it has shown it lacks."""
        for s in ev.holders:
            if s == KITTY:
                continue
            for c in range(54):
                while hands[s][c] > 0 and ev.esuit[c] in ev.voids[s]:
                    if not self._swap_out(hands, kitty, s, c, ev):
                        return False
        return True

    def _swap_out(self, hands: list[list[int]], kitty: list[int], s: int, c: int,
                  ev: Evidence) -> bool:
        for _ in range(REPAIR_TRIES):
            t = self.rng.choice(ev.holders)
            if t == s or (t != KITTY and ev.esuit[c] in ev.voids[t]):
                continue
            pool = kitty if t == KITTY else [y for y in range(54) for _ in range(hands[t][y])]
            back = [y for y in pool if ev.esuit[y] not in ev.voids[s]]
            if back:
                y = self.rng.choice(back)
                _move(hands, kitty, s, t, c)
                _move(hands, kitty, t, s, y)
                return True
        return False

    def _repair_follows(self, hands: list[list[int]], kitty: list[int], ev: Evidence
                        ) -> bool:
        """Swap cards of the led suit out of each seat whose follow its hand would not
        have allowed (it followed a pair with singles: it held no pair then), for a card
        of a suit it may hold; True once every follow is met."""
        ctx = ev.view.ctx
        assert ctx is not None
        for _ in range(REPAIR_TRIES):
            broken = _broken_follows(ev, hands)
            if not broken:
                return True
            seat, suit = self.rng.choice(broken)
            mine = [c for c in range(54) if hands[seat][c] > 0 and ev.esuit[c] == suit
                    and hands[seat][c] > ev.pins.get(seat, []).count(c)]
            if not mine:
                return False
            x = self.rng.choice(mine)
            t = self.rng.choice(ev.holders)
            if t == seat or (t != KITTY and suit in ev.voids[t]):
                continue
            pool = kitty if t == KITTY else [y for y in range(54) for _ in range(hands[t][y])
                                             if hands[t][y] > ev.pins.get(t, []).count(y)]
            back = [y for y in pool if ev.esuit[y] != suit and ev.esuit[y] not in ev.voids[seat]]
            if back:
                y = self.rng.choice(back)
                _move(hands, kitty, seat, t, x)
                _move(hands, kitty, t, seat, y)
        return not _broken_follows(ev, hands)

    def _holds(self, hands: list[list[int]], kitty: list[int], ev: Evidence) -> bool:
        """Whether the world meets the view's evidence (voids, pins, follows)."""
        for s, cards in ev.pins.items():
            for c in set(cards):
                if hands[s][c] < cards.count(c):
                    return False
        for s in ev.holders:
            if s != KITTY and any(hands[s][c] and ev.esuit[c] in ev.voids[s]
                                  for c in range(54)):
                return False
        return not ev.follows or follows_hold(ev.view, hands, ev.follows)

    def _step(self, chain: Chain, ev: Evidence) -> None:
        """One Metropolis swap proposed on ``chain``."""
        if len(ev.holders) < 2:
            return
        self.proposed += 1
        a, b = self.rng.sample(ev.holders, 2)
        x = _pick(chain.hands, chain.kitty, a, self.rng)
        y = _pick(chain.hands, chain.kitty, b, self.rng)
        if x is None or y is None or x == y:
            return
        if (a != KITTY and ev.esuit[y] in ev.voids[a]) or (
                b != KITTY and ev.esuit[x] in ev.voids[b]):
            return
        hands, kitty = chain.hands, chain.kitty
        _move(hands, kitty, a, b, x)
        _move(hands, kitty, b, a, y)
        ok = self._pins_hold(hands, ev, a, b) and (
            not ev.follows or not chain.valid or follows_hold(ev.view, hands, ev.follows))
        if ok and chain.misses >= IMPOSSIBLE:  # any world the plays allow is better
            total, by_seat = self._score(ev.view, hands, kitty)
            if total < IMPOSSIBLE:
                chain.misses, chain.by_seat = total, by_seat
                self.accepted += 1
                return
        elif ok:
            # only the two holders' plays can change (and the burier's, whose view holds
            # the kitty): the others' choices depend on their own hands and the table
            judged = {s for s in (a, b, ev.kitty_holder if KITTY in (a, b) else None)
                      if s is not None and s != KITTY and s != ev.view.seat}
            rest = chain.misses - sum(chain.by_seat[s] for s in judged)
            limit = chain.misses - math.log(1.0 - self.rng.random()) / self.beta
            counts = seat_misses(ev.view, hands, kitty, self.judges, judged,
                                 int(limit - rest), self.burial, self.window)
            if counts is not None and rest + sum(counts) <= limit:
                chain.misses = rest + sum(counts)
                for s in judged:
                    chain.by_seat[s] = counts[s]
                self.accepted += 1
                return
        _move(hands, kitty, a, b, y)
        _move(hands, kitty, b, a, x)

    @staticmethod
    def _pins_hold(hands: list[list[int]], ev: Evidence, a: int, b: int) -> bool:
        for s in (a, b):
            cards = ev.pins.get(s)
            if cards and any(hands[s][c] < cards.count(c) for c in set(cards)):
                return False
        return True


def _broken_follows(ev: Evidence, hands: list[list[int]]) -> list[tuple[int, int]]:
    """``(seat, led suit)`` of each follow the world's hands would not have allowed."""
    ctx = ev.view.ctx
    assert ctx is not None
    out = []
    for seat, lead, play, since in ev.follows:
        then = list(hands[seat])
        for c in (*play, *since):
            then[c] += 1
        if follow_refusal(lead, then, play, ctx) is not None:
            out.append((seat, lead.suit))
    return out


def _pick(hands: list[list[int]], kitty: list[int], h: int, rng: random.Random) -> int | None:
    """A card of holder ``h``, each copy alike likely."""
    if h == KITTY:
        return rng.choice(kitty) if kitty else None
    hand = hands[h]
    n = sum(hand)
    if n == 0:
        return None
    k = rng.randrange(n)
    for c in range(54):
        k -= hand[c]
        if k < 0:
            return c
    return None


def _move(hands: list[list[int]], kitty: list[int], src: int, dst: int, card: int) -> None:
    if src == KITTY:
        kitty.remove(card)
    else:
        hands[src][card] -= 1
    if dst == KITTY:
        kitty.append(card)
    else:
        hands[dst][card] += 1


def _plays(view: DealView) -> list[tuple[int, tuple[int, ...]]]:
    return [(s, tuple(c)) for t in view.tricks for s, c in t.plays] + [
        (s, tuple(c)) for s, c in view.trick]


def _same_cards(view: DealView, hands: list[list[int]], kitty: list[int]) -> bool:
    """Whether a carried world holds just the view's unseen cards, each seat as many as
    it has (a chain of another deal, or one gone wrong, never passes)."""
    assert view.seat is not None
    if any(h < 0 for hand in hands for h in hand):
        return False
    if any(sum(hands[s]) != view.hand_sizes[s] for s in range(len(hands)) if s != view.seat):
        return False
    held = [c for s, hand in enumerate(hands) if s != view.seat
            for c in range(54) for _ in range(hand[c])]
    if view.kitty is None:
        held += kitty
    return sorted(held) == unseen_cards(view)
