"""A strong, fast rule-based player: card memory, odds and a one-trick look-ahead.

It remembers every played card, the unseen cards per suit, the boss cards and the known
voids (``memory``), estimates who can still beat a play (``odds``, ``outlook``) and scores
each candidate play as points won or lost plus the future worth of the cards spent. It
leads boss cards and safe throws first (a throw is made only when no unseen card can beat
any of its units), pulls trumps when long in them, feeds points to a partner who holds the
trick, beats opponents cheaply, ruffs and over-ruffs point-rich tricks, and discards low.
Declarations follow hand strength (``declare``), burials keep trumps, points and pairs
(``bury``). It sees only its ``DealView`` and the ``LegalActions``; it is deterministic.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.driver import play_match
>>> bots = [HeuristicBot(seed=i) for i in range(4)]
>>> state, record = play_match(PRESETS["one-deck"], bots, seed=1, deals=1)
>>> len(state.history)
1
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from shengji.bots.bidder import choose_bid, choose_trump
from shengji.bots.burial_choice import choose_burial
from shengji.bots.declare import choose_declaration
from shengji.bots.friend import choose_call, partners, sure_friend
from shengji.bots.memory import Memory
from shengji.bots.odds import Odds
from shengji.bots.outlook import Outlook, Plays
from shengji.bots.plays import (
    Key,
    cards_of,
    cheapest,
    realize,
    ruffs,
    same_shape_units,
    structured,
)
from shengji.core.actions import Action, Bury, Deal, Play
from shengji.core.cards import POINTS_BY_KIND, points, points_of
from shengji.core.follow import Lead, analyse_lead, best_structure_key, follow_refusal
from shengji.core.legal import LegalActions, hand_units
from shengji.core.order import TRUMP, TrumpContext
from shengji.core.phases import Phase
from shengji.core.throws import check_throw
from shengji.core.units import PosCounts, decompose_counts, pos_counts_from_hand
from shengji.core.views import DealView

BOSS_LEAD_COST: Final = 0.3
"""Share of a boss card's worth counted when it is led (cashing it is what it is for)."""
TRUMP_DRAW: Final = 2.5
"""Bonus for leading trump while long in trumps and opponents may still hold some."""
LEAD_POINT_RISK: Final = 0.8
"""Extra cost per point of a lead that is not a boss (it may well be lost)."""
BOSS_TRUMP_LEAD_COST: Final = 0.0
"""The same share for leading a boss trump (keeping control of trumps has worth)."""
FEED: Final = 1.0
"""Point weight when choosing which cards to add: + avoids points, - feeds them."""
FRIEND_REVEAL: Final = 3.0
"""找朋友: bonus for leading the called card when this seat knows it is the friend."""


class HeuristicBot:
    """Rule-based bot; its choices are deterministic (``seed`` feeds only a fallback)."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)
        self._mem: Memory | None = None
        self._mem_tricks: tuple[object, ...] = ()
        self._base: tuple[tuple[object, ...], Memory] | None = None
        """A checkpoint: the memory of a position's tricks but its last. A search's rollout
        players start each world of one position from it, not from the first trick."""
        self.fallbacks = 0
        """Decisions where the bot's own choice was not legal and a random one was taken."""
        self.trusted = False
        """In a search's rollouts (``search.rollout_players``): its leads and follows are
        taken as legal without the full check (``LegalActions.trust``), as the engine takes
        its own; tests/bots/test_trusted_rollouts.py checks such rollouts against checked
        ones. Never for a seat at a table."""
        self._scored: list[tuple[float, tuple[int, ...]]] | None = None

    # ------------------------------------------------------------------ protocol

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """The action to take (None declines a declaration while dealing)."""
        kind = legal.kind
        if kind == "list":
            for a in legal.small:
                if isinstance(a, Deal):
                    return a
            if view.phase is Phase.BIDDING:
                return choose_bid(view, legal.small)
            if view.phase is Phase.NAMING:
                return choose_trump(view)
            if view.phase is Phase.CALLING:
                return choose_call(view)
            return choose_declaration(view, legal.small)
        seat = legal.seat
        ctx = view.ctx
        if ctx is None:
            return legal.sample(self.rng)
        if kind == "bury":
            defender = seat in view.defenders
            count = view.hand_sizes[seat] - view.ruleset.hand_size  # 竞标 swap: 6, not 9
            cards = choose_burial(view.hand_counts, ctx, count, defender, view.ruleset.decks)
            action: Action = Bury(seat, tuple(sorted(cards)))
        elif kind in ("lead", "follow"):
            play = self._play(view, legal, ctx)
            if self.trusted:
                return legal.trust(play)
            action = Play(seat, play)
        else:
            return legal.sample(self.rng)
        vouched = legal.vouch(action)  # checked once; the engine does not check it again
        if vouched is not None:
            return vouched
        self.fallbacks += 1  # never expected (tests check); keeps a game going
        return legal.sample(self.rng)

    def shortlist(self, view: DealView, legal: LegalActions, k: int) -> list[Action]:
        """Up to ``k`` legal plays the bot considers, best first (its choice is the first).

        For a search to try the bot's own alternatives; outside the play phase only the
        bot's choice is given.
        """
        self._scored = []
        try:
            first = self.choose(view, legal)
            scored = self._scored
        finally:
            self._scored = None
        assert first is not None
        out: list[Action] = [first]
        seen = {getattr(first, "cards", ())}
        seat = legal.seat
        for _sc, cards in sorted(scored, key=lambda x: -x[0]):
            if len(out) >= k:
                break
            if cards in seen:
                continue
            action = Play(seat, cards)
            if action in legal:
                seen.add(cards)
                out.append(action)
        return out

    # ------------------------------------------------------------------ memory

    def _memory(self, view: DealView, ctx: TrumpContext) -> Memory:
        """Memory of the finished tricks (kept between decisions), plus the table."""
        rs, seat = view.ruleset, view.seat
        assert seat is not None
        tricks = view.tricks
        old = self._mem_tricks
        m = self._mem
        if m is not None and m.seat == seat and m.ctx is ctx and _extends(tricks, old):
            start = len(old)  # the same deal, further on: add the tricks since
        else:
            base = self._base
            if base is not None and base[1].seat == seat and base[1].ctx is ctx and _extends(
                tricks, base[0]
            ):  # another world of a search from the same position: start at its checkpoint
                m, start = base[1].copy(), len(base[0])
            else:
                m, start = Memory(ctx, rs.decks, rs.players, seat), 0
            if len(tricks) - start >= 2:  # a new position: checkpoint before its last trick
                for t in tricks[start:-1]:
                    m.add_trick(t.plays)
                self._base = (tuple(tricks[:-1]), m.copy())
                start = len(tricks) - 1
        for t in tricks[start:]:
            m.add_trick(t.plays)
        self._mem, self._mem_tricks = m, tuple(tricks)
        if view.trick:
            cur = m.copy()
            cur.add_trick(view.trick)
        else:  # a lead: nothing to add, and set_hand leaves what the tricks showed alone
            cur = m
        kitty = view.kitty if view.kitty_holder == seat and view.kitty else ()
        cur.set_hand(view.hand_counts, kitty)
        return cur

    def _outlook(
        self, view: DealView, ctx: TrumpContext, lead: Lead | None, only_suit: int | None = None
    ) -> Outlook:
        rs, seat = view.ruleset, view.seat
        assert seat is not None
        mem = self._memory(view, ctx)
        holder = view.kitty_holder == seat and view.kitty is not None
        hidden = 0 if holder else rs.kitty_size
        odds = Odds(mem, view.hand_sizes, hidden)
        if holder and view.kitty is not None:
            kitty_points = float(points_of(view.kitty))
        else:
            unseen_n = mem.unseen_total
            kitty_points = mem.unseen_points * hidden / unseen_n if unseen_n else 0.0
        defenders = set(view.defenders)
        team = partners(view, seat)
        def_points = sum([t.points for t in view.tricks if t.winner in defenders])
        plays: Plays = [(s, tuple(c)) for s, c in view.trick]
        return Outlook(
            mem, odds, rs, seat, team, view.hand_counts, lead, plays, view.hand_sizes,
            kitty_points, (view.attacker_points, def_points), only_suit,
        )

    # ------------------------------------------------------------------ plays

    def _play(self, view: DealView, legal: LegalActions, ctx: TrumpContext) -> tuple[int, ...]:
        if view.trick:
            lead = analyse_lead(view.trick[0][1], ctx, view.ruleset)
            suited = cards_of(view.hand_counts, ctx.suit_kinds[lead.suit])
            if self._scored is None:
                forced = _forced_follow(view.hand_counts, lead, ctx, suited)
                if forced is not None:
                    return forced
            # a single followed in its suit: only that suit's cards are scored
            only = lead.suit if lead.size == 1 and suited else None
            o = self._outlook(view, ctx, lead, only)
            return self._follow(view, legal, o, lead, suited)
        o = self._outlook(view, ctx, None)
        return self._lead(view, o)

    def _best(self, o: Outlook, cands: Iterable[tuple[int, ...]], lead_of: Lead | None,
              extra: dict[tuple[int, ...], float] | None = None,
              leads: dict[tuple[int, ...], Lead] | None = None) -> tuple[int, ...]:
        """The best-scoring of ``cands`` (the first of equals), as follows of ``lead_of`` or,
        when it is None, as leads (``leads``: those already analysed)."""
        best: tuple[float, tuple[int, ...]] | None = None
        for c in cands:
            if lead_of is not None:
                lead = lead_of
            elif leads is not None and c in leads:
                lead = leads[c]
            else:
                lead = analyse_lead(c, o.ctx, o.ruleset)
            lead_cards = c if lead_of is None else lead_of.cards
            sc = o.score(c, lead, lead_cards)
            if extra:
                sc += extra.get(c, 0.0)
            if self._scored is not None:
                self._scored.append((sc, c))
            if best is None or sc > best[0] + 1e-9:
                best = (sc, c)
        assert best is not None
        return best[1]

    def _follow(
        self, view: DealView, legal: LegalActions, o: Outlook, lead: Lead, suited: list[int]
    ) -> tuple[int, ...]:
        """The follow to play; ``suited``: the hand's cards of the led suit."""
        ctx, hand = o.ctx, o.hand
        n, s = lead.size, lead.suit
        m = len(suited)
        if n == 1:
            kinds = sorted(set(suited)) if m else [k for k in range(54) if hand[k]]
            return self._best(o, [(k,) for k in kinds], lead)
        if m == n:
            return self._best(o, [tuple(sorted(suited))], lead)
        dump, feed = _follow_keys(o)
        cands: set[tuple[int, ...]] = set()
        if m > n:
            best = best_structure_key(lead, pos_counts_from_hand(hand, s, ctx))  # once
            for key in (dump, feed):
                play = structured(lead, hand, ctx, key, best)
                if play is not None:
                    cands.add(play)
            if len(lead.units) == 1:
                for _top, play in same_shape_units(lead, hand, ctx, s):
                    if follow_refusal(lead, hand, play, ctx, best) is None:
                        cands.add(play)
        else:
            others = cards_of(hand, [k for k in range(54) if ctx.esuit[k] != s])
            for key in (dump, feed):
                cands.add(tuple(sorted(suited + cheapest(others, n - m, key))))
            if m == 0:
                for key in (dump, feed):
                    cands.update(ruffs(lead, hand, ctx, key))
        if not cands:
            for a in _first(legal, 50):
                if isinstance(a, Play):
                    cands.add(a.cards)
        return self._best(o, sorted(cands), lead)

    def _lead(self, view: DealView, o: Outlook) -> tuple[int, ...]:
        ctx, hand, mem = o.ctx, o.hand, o.mem
        rs = view.ruleset
        held = o.suit_held  # the suits held, each suit's cards by position (only read)
        suits = [s for s in range(5) if held[s]]
        pcs = [pos_counts_from_hand(hand, s, ctx) if held[s] else [] for s in range(5)]
        cands = _distinct_singles(hand_units(list(hand), ctx, suits, pcs), o)
        if rs.throw_policy != "never":
            for s in range(5):
                throw = self._safe_throw(o, s, pcs[s])
                if throw is not None:
                    cands.add(throw)
        my_trumps = o.suit_held[TRUMP]
        out = mem.trumps_out()
        opps = [p for p in range(rs.players) if p not in o.team]
        opp_trumps = any(TRUMP not in mem.voids[p] for p in opps) and out > 0
        long_trump = opp_trumps and my_trumps >= max(3, out * 0.6)
        extra: dict[tuple[int, ...], float] = {}
        call = view.friend_call
        reveal = call.card if call is not None and view.seat is not None and sure_friend(
            view, view.seat
        ) else None
        if reveal is not None:
            cands.add((reveal,))
        leads: dict[tuple[int, ...], Lead] = {}
        for c in cands:
            s = ctx.esuit[c[0]]
            lead = leads[c] = analyse_lead(c, ctx, rs)
            units = lead.units
            boss = all(mem.top_unseen(s, u.width, u.length) <= u.top for u in units)
            bonus = 0.0
            if boss:
                share = BOSS_TRUMP_LEAD_COST if s == TRUMP else BOSS_LEAD_COST
                bonus += (1.0 - share) * sum([o.vals[k] - o.kept[k] for k in c])
            else:
                bonus -= LEAD_POINT_RISK * points_of(c)
            if s == TRUMP and long_trump:
                bonus += TRUMP_DRAW
            if reveal is not None and reveal in c:
                bonus += FRIEND_REVEAL
            extra[c] = bonus
        return self._best(o, sorted(cands), None, extra, leads)

    def _safe_throw(self, o: Outlook, s: int, pc: PosCounts) -> tuple[int, ...] | None:
        """All boss units of suit ``s`` (``pc``: the hand's cards of it) at once, if that
        throw cannot fail (2+ units)."""
        if o.suit_held[s] < 2:
            return None  # no two units
        top = o.mem.top_unseen(s)
        paired = False
        bosses = 0  # with no pair, every card is a unit, a boss when no unseen card is above
        for p in range(len(pc)):
            for e in pc[p]:
                if e[1] > 1:
                    paired = True
                elif p >= top:
                    bosses += 1
        if not paired and bosses < 2:
            return None
        return self._boss_throw(o, s, pc)

    def _boss_throw(self, o: Outlook, s: int, pc: PosCounts) -> tuple[int, ...] | None:
        """``_safe_throw`` the long way: decompose the suit, keep its boss units."""
        ctx, hand, mem = o.ctx, o.hand, o.mem
        if o.suit_held[s] < 2:
            return None  # no two units
        units = [
            u for u in decompose_counts(pc, s) if mem.top_unseen(s, u.width, u.length) <= u.top
        ]
        if len(units) < 2:
            return None
        faces: dict[int, int] = {}
        for u in units:
            for f in u.faces:
                faces[f] = faces.get(f, 0) + u.width
        throw = tuple(sorted(realize(faces, hand, ctx, o.vals)))
        if check_throw(throw, [mem.unseen], ctx, o.ruleset).valid:
            return throw
        return None


def _extends(tricks: Sequence[object], prefix: tuple[object, ...]) -> bool:
    """Whether ``tricks`` go on from ``prefix`` (the same trick records: one deal's; a
    deal's records are shared by all its later states and never change)."""
    n = len(prefix)
    return 0 < n <= len(tricks) and tricks[0] is prefix[0] and tricks[n - 1] is prefix[-1]


def _follow_keys(o: Outlook) -> tuple[Key, Key]:
    """The two orders a follow's cards are taken in, cheapest first: ``dump`` keeps points
    back, ``feed`` gives them (to a partner's trick); each keeps pairs."""
    vals, hand, face, face_counts = o.vals, o.hand, o.ctx.face, o.face_counts
    pair = [0.0] * 54
    for k in range(54):
        if hand[k] and face_counts.get(face[k], 0) >= 2:
            pair[k] = 1.0
    dump = [vals[k] + FEED * POINTS_BY_KIND[k] + pair[k] for k in range(54)]
    feed = [vals[k] - FEED * POINTS_BY_KIND[k] + pair[k] for k in range(54)]
    return dump, feed


def _forced_follow(
    hand: tuple[int, ...], lead: Lead, ctx: TrumpContext, suited: list[int] | None = None
) -> tuple[int, ...] | None:
    """The one follow ``_follow`` could choose, when the rules leave only one, else None:
    the whole hand on the last trick, every card of the led suit when it has just as many,
    or the only kind of the led suit for a single (nothing then needs scoring).
    ``suited``: the hand's cards of the led suit, when the caller has them.

    >>> from shengji.core.cards import cards_str, counts_of, parse_cards as p
    >>> from shengji.core.order import context
    >>> from shengji.core.ruleset import PRESETS
    >>> ctx, rs = context(8, 1), PRESETS["classic"]
    >>> lead = analyse_lead(tuple(p("S9 S9")), ctx, rs)
    >>> cards_str(_forced_follow(counts_of(p("S3 S4 HA")), lead, ctx))
    'S3 S4'
    >>> _forced_follow(counts_of(p("S3 S4 S5 HA")), lead, ctx) is None
    True
    """
    n = lead.size
    if sum(hand) == n:
        return tuple(sorted(k for k in range(54) for _ in range(hand[k])))
    if suited is None:
        suited = cards_of(hand, ctx.suit_kinds[lead.suit])
    if len(suited) == n or (n == 1 and suited and min(suited) == max(suited)):
        return tuple(sorted(suited))[:n]
    return None


def _distinct_singles(units: list[tuple[int, ...]], o: Outlook) -> set[tuple[int, ...]]:
    """The units, less every single that a lower single of its suit matches in all that
    scoring sees (as many unseen cards above it, the same points, both paired or not)."""
    ctx, odds = o.ctx, o.odds
    out: set[tuple[int, ...]] = set()
    lowest: dict[tuple[int, int, int, bool], tuple[int, int]] = {}
    for u in units:
        if len(u) > 1:
            out.add(u)
            continue
        k = u[0]
        s, p = ctx.esuit[k], ctx.pos[k]
        key = (s, odds.count_above(s, p), points(k), o.face_counts.get(ctx.face[k], 0) >= 2)
        if key not in lowest or (p, k) < lowest[key]:
            lowest[key] = (p, k)
    out.update((k,) for _p, k in lowest.values())
    return out


def _first(legal: LegalActions, cap: int) -> list[Action]:
    out: list[Action] = []
    for a in legal:
        out.append(a)
        if len(out) >= cap:
            break
    return out
