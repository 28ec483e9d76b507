"""One decision's outlook on the trick: who can still beat the best play, how likely the
bot's side is to take the trick, and what the cards it would spend are worth later.

A play is scored as ``(2·p − 1) · stake + CONTROL · p − cost``: ``p`` is the chance the
bot's side takes the trick, ``stake`` the points in it (plus the kitty on the last trick),
``cost`` the future worth of the cards spent (trumps, boss cards, broken pairs).

>>> from shengji.core.cards import parse_cards as p, counts_of
>>> from shengji.core.order import context
>>> from shengji.bots.memory import Memory
>>> ctx = context(8, 1)
>>> m = Memory(ctx, decks=2, players=4, seat=0)
>>> m.set_hand(counts_of(p("SA SA S3")))
>>> v = card_values(m, counts_of(p("SA SA S3")))
>>> v[p("SA")[0]] > v[p("S3")[0]]
True
"""

from __future__ import annotations

from typing import Final

from shengji.bots.memory import Memory
from shengji.bots.odds import Odds
from shengji.core.cards import POINTS_BY_KIND, points_of
from shengji.core.follow import Lead
from shengji.core.order import TRUMP
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import kitty_multiplier
from shengji.core.tricks import dominant_component, trick_winner
from shengji.core.units import best_placement_top, decompose, pos_counts, suit_of_play

CONTROL: Final = 2.0
"""Worth of leading the next trick, in points."""
PAIR_BREAK: Final = 3.0
"""Cost of splitting a pair (or wider tuple) of one's hand."""
VOID_BONUS: Final = 1.0
"""Worth of emptying an off-suit while holding trumps (a future ruff)."""
RAISED: Final = 0.5
"""How much less likely a partner beats the trick once an opponent may have beaten it."""
TRUMP_WORTH: Final = (3.0, 5.0, 1.5)
"""A trump's worth: base, plus span x its rank share, plus a bonus when no unseen trump
ranks above it."""
LATER_SHARE: Final = 1.0
"""Share of the average points per card that each seat still to play is expected to add."""
END_CARDS: Final = 4
"""From this many cards in hand on, the top trump is kept for the last trick."""
TRANSFER_KEEP: Final[tuple[float, ...]] = (2.5,) * 4 + (1.25,) * 4 + (0.6,) * 3
"""Four decks: shares of the last trick's stake added to one's top trumps, best first."""
KITTY_KEEP: Final[tuple[float, ...]] = (0.8,)
"""With a kitty: share of the last trick's stake (the kitty, doubled) added to the top
trump's worth."""
OFF_WORTH: Final = (6.0, 3.0, 2.0)
"""An off-suit card's worth: a boss, one with at most two unseen cards above it, and
otherwise up to this much by rank."""

Plays = list[tuple[int, tuple[int, ...]]]


def card_values(
    mem: Memory, hand: tuple[int, ...], held: list[int] | None = None
) -> list[float]:
    """Future worth of each card kind in ``hand``: trumps by rank, boss cards high
    (``held``: the hand's cards per effective suit, when known)."""
    ctx = mem.ctx
    vals = [0.0] * 54
    for s in range(5):
        kinds = ctx.suit_kinds[s]
        if not (any([hand[k] for k in kinds]) if held is None else held[s]):
            continue
        above = mem.unseen_above(s)
        npos = len(above) - 1
        for k in kinds:
            if not hand[k]:
                continue
            p = ctx.pos[k]
            a = above[p + 1]
            rel = p / max(1, npos - 1)
            if s == TRUMP:
                base, span, boss = TRUMP_WORTH
                vals[k] = base + span * rel + (boss if a == 0 else 0.0)
            else:
                boss, near, span = OFF_WORTH
                vals[k] = boss if a == 0 else near if a <= 2 else span * rel
    return vals


class Outlook:
    """The trick as one seat sees it, for scoring candidate plays."""

    def __init__(
        self,
        mem: Memory,
        odds: Odds,
        ruleset: Ruleset,
        seat: int,
        team: frozenset[int],
        hand: tuple[int, ...],
        lead: Lead | None,
        plays: Plays,
        sizes: tuple[int, ...],
        kitty_points: float,
        side_points: tuple[int, int],
        only_suit: int | None = None,
    ) -> None:
        """``only_suit``: the one suit whose cards will be scored (a single followed in
        its suit), when only its cards' worth need be worked out."""
        self.mem, self.odds, self.ruleset = mem, odds, ruleset
        self.ctx = mem.ctx
        self.seat, self.team, self.hand = seat, team, hand
        self.lead, self.plays = lead, plays
        players = ruleset.players
        done = {s for s, _ in plays}
        self.later = [
            (seat + i) % players
            for i in range(1, players)
            if (seat + i) % players not in done
        ]
        held = [0] * 5
        face_counts: dict[int, int] = {}
        esuit, face = self.ctx.esuit, self.ctx.face
        for k in range(54):  # one loop, not ``sum``s: the compiled build keeps C ints
            n = hand[k]
            if n:
                held[esuit[k]] += n
                f = face[k]
                face_counts[f] = face_counts.get(f, 0) + n
        self.suit_held = held
        """Cards of each effective suit in ``hand``."""
        valued = held if only_suit is None else [held[s] if s == only_suit else 0 for s in range(5)]
        self.vals = card_values(mem, hand, valued)
        self.kept = [0.0] * 54
        """The part of ``vals`` that is worth keeping for the last trick."""
        unseen_n = mem.unseen_total
        self.avg_points = mem.unseen_points / unseen_n if unseen_n else 0.0
        self.sizes = sizes
        self.kitty_points = kitty_points
        self.side_points = side_points
        self._keep_for_last()
        self.face_counts = face_counts
        cards = [c for _, c in plays]
        table_points = 0
        for c in cards:
            table_points += points_of(c)
        self.table_points = table_points
        """Points already on the table (the plays before this seat's)."""
        self._cards = cards
        """The cards of ``plays`` (a candidate is added for a moment to find the winner)."""
        self._single_best = -1
        """A trick of singles: the index of the best play on the table (``trick_winner``),
        to which a single candidate is compared alone."""
        if cards and len(cards[0]) == 1:
            self._single_best = trick_winner(cards, self.ctx, ruleset)
        self._shapes: dict[tuple[int, ...], tuple[Lead, int | None, int, int, int]] = {}
        """``_best_shape`` of each best play asked about."""
        self._under: float | None = None
        """``side_wins`` of any follow that does not take the trick from ``plays`` (the
        best play and the seats after this one are then the same, and so is the chance)."""

    def _keep_for_last(self) -> None:
        """Keep the top trumps for the last trick: near the end when the kitty is at stake
        (扣底, or guarding against it), all deal long with four decks' transfer, where the
        last trick takes the other side's points."""
        rs = self.ruleset
        if rs.kitty_formula == "last-trick-transfer":
            stake = max(sum(self.side_points), rs.deck_points / 4) / 2.0
            weights = TRANSFER_KEEP
        else:
            if self.sizes[self.seat] > END_CARDS * max(1, rs.decks // 2):
                return
            stake = 2.0 * self.kitty_points
            weights = KITTY_KEEP
        ctx, hand = self.ctx, self.hand
        if stake <= 0:
            return
        tops = sorted(
            (k for k in ctx.suit_kinds[TRUMP] if hand[k] for _ in range(hand[k])),
            key=lambda k: -ctx.pos[k],
        )[: len(weights)]
        above = self.mem.top_unseen(TRUMP)
        done: set[int] = set()
        for k, w in zip(tops, weights, strict=False):
            if k in done:
                continue
            done.add(k)
            p = ctx.pos[k]
            share = 1.0 if above < p else 0.5 if above == p else 0.25
            self.kept[k] = stake * w * share
            self.vals[k] += self.kept[k]

    # ------------------------------------------------------------------ chances

    def beat(self, seat: int, lead: Lead, best: tuple[int, ...]) -> float:
        """Chance that ``seat`` (still to play) can beat ``best``, the best play so far."""
        odds, ctx = self.odds, self.ctx
        s = lead.suit
        if len(best) == 1 and len(lead.cards) == 1:  # a single led (most tricks): as below
            top = ctx.pos[best[0]]
            if ctx.esuit[best[0]] == s:
                p = odds.higher_single(seat, s, top)  # no wider unit has one card
                if s != TRUMP:
                    v = odds.void(seat, s)
                    if v and TRUMP not in self.mem.voids[seat]:  # ``has_shapes`` of a single
                        p += v * (1.0 - odds.void(seat, TRUMP))
                return min(1.0, p)
            return odds.void(seat, s) * odds.higher_single(seat, TRUMP, top)
        got = self._shapes.get(best)
        if got is None or got[0] is not lead:
            got = self._shapes[best] = self._best_shape(lead, best)
        _lead, best_suit, top, w, length = got
        if lead.is_throw:
            if s == TRUMP:
                return 0.0
            void = odds.void(seat, s)
            if not void:
                return 0.0
            if best_suit != TRUMP:
                return void * odds.has_shapes(seat, lead.units)
            return void * odds.higher(seat, TRUMP, w, length, top)
        if best_suit == s:
            p = self._higher(seat, s, w, length, top)
            if s != TRUMP:
                v = odds.void(seat, s)
                if v:
                    p += v * odds.has_shapes(seat, lead.units)
            return min(1.0, p)
        return odds.void(seat, s) * self._higher(seat, TRUMP, w, length, top)

    def _best_shape(
        self, lead: Lead, best: tuple[int, ...]
    ) -> tuple[Lead, int | None, int, int, int]:
        """What ``beat`` compares of ``best`` against ``lead``, the same for every seat:
        ``(lead, suit of best, top, width, length)`` of its unit (a throw ruffed: of the
        lead's biggest structure placed in the ruff)."""
        ctx = self.ctx
        best_suit = suit_of_play(best, ctx)
        if lead.is_throw:
            if best_suit != TRUMP or lead.suit == TRUMP:
                return lead, best_suit, -1, 0, 0
            w, length = dominant_component(lead.units)
            top = best_placement_top(pos_counts(best, TRUMP, ctx), (w, length))
            return lead, best_suit, top, w, length
        w, length = lead.units[0].shape
        if len(best) == 1:
            return lead, best_suit, ctx.pos[best[0]], w, length
        unit = decompose(best, ctx)[0]
        return lead, best_suit, unit.top, unit.width, unit.length

    def _higher(self, seat: int, suit: int, width: int, length: int, top: int) -> float:
        """``Odds.higher``, plus wider units of as many cards where they beat (four decks)."""
        p = self.odds.higher(seat, suit, width, length, top)
        if self.ruleset.stronger_shapes_beat:
            size = width * length
            for w in range(width + 1, self.ruleset.max_width + 1):
                if size % w == 0:
                    p = 1.0 - (1.0 - p) * (1.0 - self.odds.higher(seat, suit, w, size // w, -1))
        return p

    def side_wins(self, play: tuple[int, ...], lead: Lead) -> float:
        """Chance the bot's side takes the trick once this seat plays ``play`` after the
        table's plays (``self.plays``; none when ``play`` is a lead, ``lead`` its analysis)."""
        held = len(self.plays)
        if not held:
            return self._side_wins(lead, self.seat, play)
        wi = self._single_best
        if wi >= 0 and len(play) == 1:  # ``trick_winner``'s step for one more single
            ctx = self.ctx
            es, pos = ctx.esuit, ctx.pos
            c, b = play[0], self.plays[wi][1][0]
            if es[c] == TRUMP:
                takes = es[b] != TRUMP or pos[c] > pos[b]
            else:
                takes = es[c] == es[self._cards[0][0]] and es[b] != TRUMP and pos[c] > pos[b]
            if takes:
                wi = held
        else:
            cards = self._cards
            cards.append(play)
            wi = trick_winner(cards, self.ctx, self.ruleset)
            cards.pop()
        if wi == held:
            return self._side_wins(lead, self.seat, play)
        wseat, best = self.plays[wi]
        if lead is not self.lead:
            return self._side_wins(lead, wseat, best)
        # a follow that does not take the trick: the same chance for every such follow
        if self._under is None:
            self._under = self._side_wins(lead, wseat, best)
        return self._under

    def _side_wins(self, lead: Lead, wseat: int, best: tuple[int, ...]) -> float:
        # Seats still to play, in order: an opponent may take the trick from the side, a
        # partner may take it back (less likely once an opponent has raised the bar).
        p = 1.0 if wseat in self.team else 0.0
        raised = False
        team = self.team
        for s in self.later:  # ``plays`` are the table's and this seat's: the rest play later
            if s in team:
                if p == 1.0:
                    continue  # the side holds the trick for sure: whatever a partner can
                p += (1.0 - p) * self.beat(s, lead, best) * (RAISED if raised else 1.0)
            else:
                if p == 0.0 and raised:
                    continue  # lost for now, and the bar is already raised
                b = self.beat(s, lead, best)
                p *= 1.0 - b
                raised = raised or b > 0.05
        return p

    # ------------------------------------------------------------------ worth

    def cost(self, play: tuple[int, ...]) -> float:
        """Future worth of the cards of ``play`` (pairs broken count extra)."""
        vals, ctx = self.vals, self.ctx
        if len(play) == 1:  # a single (most plays): as below
            k = play[0]
            return vals[k] + PAIR_BREAK if self.face_counts.get(ctx.face[k], 0) == 2 else vals[k]
        c = sum([vals[k] for k in play])
        used: dict[int, int] = {}
        for k in play:
            f = ctx.face[k]
            used[f] = used.get(f, 0) + 1
        for f, n in used.items():
            held = self.face_counts.get(f, 0)
            if held >= 2 and held - n == 1:
                c += PAIR_BREAK
        return c

    def void_bonus(self, play: tuple[int, ...]) -> float:
        """Bonus for emptying off-suits while trumps remain in hand."""
        held = self.suit_held
        if not held[TRUMP]:
            return 0.0
        es = self.ctx.esuit
        if len(play) == 1:  # a single (most plays): as below
            s = es[play[0]]
            return VOID_BONUS if s != TRUMP and held[s] == 1 else 0.0
        bonus = 0.0
        for s in {es[k] for k in play}:
            if s == TRUMP:
                continue
            left = held[s] - sum([1 for k in play if es[k] == s])
            if left == 0:
                bonus += VOID_BONUS
        return bonus

    def later_points(self, n: int, later: list[int]) -> float:
        """Points the seats still to play are expected to add."""
        return n * self.avg_points * len(later) * LATER_SHARE

    def last_trick_bonus(
        self, lead_cards: tuple[int, ...], play: tuple[int, ...] = ()
    ) -> float:
        """What rides on the last trick besides its cards (the kitty, multiplied). ``play``
        a ruff (one suit, not the lead's): the multiplier if it wins, which a ruleset that
        counts a throw's winner (联众) takes from the ruff: ``SA SK`` ruffed by ``H3 H3``."""
        if self.sizes[self.seat] > len(lead_cards):
            return 0.0
        rs = self.ruleset
        winning = lead_cards
        if len(play) == len(lead_cards) > 1:
            suit = suit_of_play(play, self.ctx)
            if suit is not None and suit != suit_of_play(lead_cards, self.ctx):
                winning = play
        mult = kitty_multiplier(lead_cards, winning, self.ctx, rs)
        if rs.kitty_formula == "last-trick-transfer":
            return mult * sum(self.side_points) / 2.0
        return self.kitty_points * mult

    def score(self, play: tuple[int, ...], lead: Lead, lead_cards: tuple[int, ...]) -> float:
        """Worth of playing ``play`` now (as the lead or as a follow)."""
        p = self.side_wins(play, lead)
        n = len(play)
        if n != 1:
            stake = self.table_points + points_of(play) + self.later_points(n, self.later)
            stake += self.last_trick_bonus(lead_cards, play)
            return (2 * p - 1) * stake + CONTROL * p - self.cost(play) + self.void_bonus(play)
        # a single (most plays): the same sums, with ``cost`` and ``void_bonus`` written out
        k = play[0]
        stake = self.table_points + POINTS_BY_KIND[k] + self.later_points(n, self.later)
        if self.sizes[self.seat] <= len(lead_cards):  # else ``last_trick_bonus`` adds 0.0
            stake += self.last_trick_bonus(lead_cards)
        ctx, vals, held = self.ctx, self.vals, self.suit_held
        cost = vals[k] + PAIR_BREAK if self.face_counts.get(ctx.face[k], 0) == 2 else vals[k]
        s = ctx.esuit[k]
        bonus = VOID_BONUS if held[TRUMP] and s != TRUMP and held[s] == 1 else 0.0
        return (2 * p - 1) * stake + CONTROL * p - cost + bonus
