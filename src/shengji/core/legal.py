"""Legal actions of a seat, lazily: a membership test, an iterator and a random sample.

Burials (C(33, 8) sets), throws and void follows can number in the millions, so nothing is
listed ahead: ``action in legal`` asks the state, ``iter(legal)`` generates, and
``legal.sample(rng)`` draws one legal action cheaply.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> s = DealState.new(PRESETS["classic"], seed=3, level=0, dealer=0)
>>> [str(a) for a in legal_actions(s, -1)]
['deal']
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, Protocol

from shengji.core.actions import (
    ACTION_CLASSES,
    SYSTEM,
    Action,
    Bid,
    Bury,
    CallFriend,
    Deal,
    Declare,
    NameTrump,
    Pass,
    Play,
)
from shengji.core.auction import Auction
from shengji.core.bidding import Declaration
from shengji.core.draws import below, between, pick, sample, shuffle
from shengji.core.follow import (
    Lead,
    best_structure_key,
    follow_refusal,
    legal_follows,
    multiset_combos,
    structure_key,
)
from shengji.core.friend import call_allowed
from shengji.core.order import TrumpContext
from shengji.core.phases import PHASE_DEALING, PHASE_PLAYING, Phase
from shengji.core.ruleset import Ruleset
from shengji.core.units import (
    Component,
    PosCounts,
    decompose,
    placements,
    pos_counts,
    pos_counts_from_hand,
)


class Position(Protocol):
    """What the legal actions read of a deal (``DealState``, which imports this module to
    answer ``legal_actions``: the state is read through this protocol, not imported)."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def phase(self) -> Phase: ...

    def vouch_book(self) -> dict[int, Action]:
        """The book of actions vouched legal in this very position."""
        ...

    @property
    def players(self) -> int: ...

    @property
    def to_act(self) -> int | None: ...

    def declarations_for(self, seat: int) -> list[Declaration]:
        """The declarations ``seat`` may make now."""
        ...

    @property
    def hands(self) -> tuple[list[int], ...]: ...

    @property
    def ctx(self) -> TrumpContext | None: ...

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        ...

    @property
    def trick(self) -> tuple[tuple[int, tuple[int, ...]], ...]: ...

    @property
    def lead(self) -> Lead | None: ...

    def check(self, action: Action) -> None:
        """Raise ``IllegalAction`` if ``action`` is not legal now (changes nothing)."""
        ...

    @property
    def auction(self) -> Auction | None: ...

    @property
    def kitty_kept(self) -> tuple[int, ...]: ...


def _held(hand: list[int], kinds: Iterable[int]) -> list[int]:
    """The cards of ``kinds`` in a hand of counts, each as many times as held, in order."""
    out: list[int] = []
    for k in kinds:
        n = hand[k]
        if n:
            if n == 1:
                out.append(k)
            else:
                out.extend((k,) * n)
    return out


_KINDS: Final = range(54)


def _cards(hand: list[int]) -> list[int]:
    """The cards of a hand of counts, each kind as many times as held, in kind order."""
    return _held(hand, _KINDS)


def _realize(faces: list[int], width: int, hand: list[int], ctx: TrumpContext) -> tuple[int, ...]:
    """Actual cards of ``hand`` for ``width`` copies of each face (two-colour aware)."""
    if not ctx.two_color:
        return tuple(sorted(f for f in faces for _ in range(width)))
    left = list(hand)
    out: list[int] = []
    for f in faces:
        for _ in range(width):
            k = f if left[f] else next(k for k in range(54) if left[k] and ctx.face[k] == f)
            left[k] -= 1
            out.append(k)
    return tuple(sorted(out))


def hand_units(
    hand: list[int], ctx: TrumpContext, suits: Iterable[int] = range(5),
    pcs: Sequence[PosCounts] | None = None,
) -> list[tuple[int, ...]]:
    """Every single unit the hand can lead: singles, tuples and tractors of each suit
    (``pcs``: the hand's ``pos_counts_from_hand`` by suit, when the caller has them)."""
    out: list[tuple[int, ...]] = []
    for s in suits:
        pc = pos_counts_from_hand(hand, s, ctx) if pcs is None else pcs[s]
        maxw = 0
        for slot in pc:
            for f, n in slot:
                maxw = max(maxw, n)
                if ctx.two_color:  # each real card leads as a single (♠8 and ♣8 differ)
                    out.extend((k,) for k in range(54) if hand[k] and ctx.face[k] == f)
                else:
                    out.append((f,))
                for w in range(2, n + 1):
                    out.append(_realize([f], w, hand, ctx))
        for w in range(2, maxw + 1):
            ok = [any(e[1] >= w for e in slot) for slot in pc]
            lo = 0
            while lo < len(ok):
                if not ok[lo]:
                    lo += 1
                    continue
                hi = lo
                while hi + 1 < len(ok) and ok[hi + 1]:
                    hi += 1
                if hi > lo:
                    for a in range(lo, hi):
                        for b in range(a + 1, hi + 1):
                            for _top, chain in placements(pc[a : b + 1], w, b - a + 1):
                                out.append(_realize([e[0] for e in chain], w, hand, ctx))
                lo = hi + 1
    return out


class LegalActions:
    """The legal actions of one seat in one state."""

    def __init__(self, state: Position, seat: int) -> None:
        self.state = state
        self.seat = seat
        ph = state.phase
        self.kind = "none"
        self.small: list[Action] = []
        self.book: dict[int, Action] | None = None
        """The state's vouch book (``DealState.vouch_book``) for the plays generated here."""
        if ph is PHASE_PLAYING:
            if seat == state.to_act:
                self.kind = "follow" if state.trick else "lead"
                self.book = state.vouch_book()
        elif ph is PHASE_DEALING:
            if seat == SYSTEM:
                self.kind, self.small = "list", [Deal()]
            else:
                self.kind = "list"
                self.small = [Declare(seat, d.cards) for d in state.declarations_for(seat)]
        elif ph in (Phase.DECLARING, Phase.REBURY):
            if seat == state.to_act:
                self.kind = "list"
                self.small = [Declare(seat, d.cards) for d in state.declarations_for(seat)]
                self.small.append(Pass(seat))
        elif ph is Phase.BURYING and seat == state.to_act:
            self.kind = "bury"
        elif ph is Phase.BIDDING and seat == state.to_act and state.auction is not None:
            self.kind = "list"
            targets = state.auction.legal_targets(state.ruleset)
            self.small = [Bid(seat, t) for t in targets]
            self.small.append(Pass(seat))
        elif ph is Phase.CALLING and seat == state.to_act:
            self.kind = "list"  # 找朋友: any card (nth-played: any copy 1..decks)
            rs = state.ruleset
            copies = 1 if rs.friend_rule == "nearest-holder" else rs.decks
            hand = state.hands[seat]
            self.small = [
                CallFriend(seat, card, nth)
                for nth in range(1, copies + 1)
                for card in range(54)
                if call_allowed(rs.friend_call, rs.decks, hand, card)
            ]
        elif ph is Phase.NAMING and seat == state.to_act:
            self.kind = "list"
            self.small = [NameTrump(seat, suit) for suit in range(4)]

    def _play(self, cards: tuple[int, ...]) -> Play:
        """A generated play, vouched legal in this position (the engine skips re-checks)."""
        act = Play(self.seat, cards)
        if self.book is not None:
            self.book[id(act)] = act
        return act

    def trust(self, cards: tuple[int, ...]) -> Play:
        """A lead or follow of this seat taken as legal without a check, as if generated
        here: only for a simulation's own policy (a search's rollout bots), where the play
        comes from code that builds legal plays and a wrong one would only spoil the
        simulation. Anything from a player or a bot at a table goes through ``vouch``."""
        return self._play(cards)

    def vouch(self, action: Action) -> Action | None:
        """``action`` checked in full: None if it is not legal here, else an equal action
        vouched for this position (the engine then applies it without checking again).
        A follow is checked without copying the state."""
        if self.kind == "follow" and isinstance(action, Play):
            st, cards = self.state, action.cards
            lead, ctx = st.lead, st.ctx
            if action.seat != self.seat or lead is None or ctx is None:
                return None
            if not all(0 <= c < 54 for c in cards):
                return None
            if follow_refusal(lead, st.hands[self.seat], cards, ctx) is not None:
                return None
            return self._play(tuple(cards))
        if action not in self:
            return None
        return self._play(action.cards) if isinstance(action, Play) else action

    def __contains__(self, action: object) -> bool:
        if self.kind == "none" or not isinstance(action, ACTION_CLASSES):
            return False
        if action.seat != self.seat and not (self.kind == "list" and isinstance(action, Deal)):
            return False
        return self.state.is_legal(action)

    @property
    def bury_count(self) -> int:
        """Cards a burial holds: the kitty's size, less what a 反底 swap left in place."""
        return self.state.ruleset.kitty_size - len(self.state.kitty_kept)

    def __bool__(self) -> bool:
        return self.kind != "none" and (self.kind != "list" or bool(self.small))

    def __iter__(self) -> Iterator[Action]:
        st, seat = self.state, self.seat
        if self.kind == "list":
            yield from self.small
        elif self.kind == "bury":
            for combo in multiset_combos(_cards(st.hands[seat]), self.bury_count):
                yield Bury(seat, combo)
        elif self.kind == "lead":
            ctx = st.ctx
            assert ctx is not None
            units = hand_units(st.hands[seat], ctx)
            seen = set(units)
            yield from (self._play(u) for u in units)
            if st.ruleset.throw_policy == "never":
                return
            cards = _cards(st.hands[seat])
            for s in range(5):
                suited = [c for c in cards if ctx.esuit[c] == s]
                for size in range(2, len(suited) + 1):
                    for combo in multiset_combos(suited, size):
                        if combo in seen or len(decompose(combo, ctx)) < 2:
                            continue
                        act = Play(seat, combo)
                        if st.ruleset.throw_policy == "validated" or st.is_legal(act):
                            yield self._play(combo)
        elif self.kind == "follow":
            lead = st.trick[0][1]
            ctx = st.ctx
            assert ctx is not None
            for combo in legal_follows(lead, st.hands[seat], ctx, st.ruleset):
                yield self._play(combo)

    def sample(self, rng: random.Random, throw_chance: float = 0.05) -> Action:
        """One legal action drawn at random (uniform for small sets; see docs for big ones)."""
        st, seat = self.state, self.seat
        if self.kind == "follow":
            return self._play(sample_follow(st, seat, rng))
        if self.kind == "list":
            return pick(rng, self.small)
        if self.kind == "bury":
            return Bury(seat, tuple(sorted(sample(rng, _cards(st.hands[seat]), self.bury_count))))
        ctx = st.ctx
        assert ctx is not None
        if self.kind == "lead":
            if st.ruleset.throw_policy != "never" and rng.random() < throw_chance:
                throw = self._random_throw(rng, ctx)
                if throw is not None:
                    return throw
            # A random card, then a random unit that contains it.
            hand = st.hands[seat]
            c = pick(rng, _cards(hand))
            if hand[c] == 1 and not ctx.two_color:
                # No pair of it, so no tuple or tractor holds it: its one unit is itself.
                below(rng, 1)  # the draw choosing among one unit takes, as below
                return self._play((c,))
            f = ctx.face[c]
            suit_units = hand_units(hand, ctx, (ctx.esuit[c],))
            units = [u for u in suit_units if any(ctx.face[x] == f for x in u)]
            return self._play(pick(rng, units))
        raise ValueError(f"seat {seat} has no legal action now")

    def _random_throw(self, rng: random.Random, ctx: TrumpContext) -> Play | None:
        st, seat = self.state, self.seat
        cards = _cards(st.hands[seat])
        suit = ctx.esuit[pick(rng, cards)]
        suited = [c for c in cards if ctx.esuit[c] == suit]
        if len(suited) < 2:
            return None
        combo = tuple(sorted(sample(rng, suited, between(rng, 2, min(len(suited), 6)))))
        if len(decompose(combo, ctx)) < 2:
            return None
        act = Play(seat, combo)
        if st.ruleset.throw_policy == "others-void" and not st.is_legal(act):
            return None
        return self._play(combo)


def _take(pc: PosCounts, comps: list[Component], taken: list[tuple[int, int]]) -> bool:
    """Find disjoint ``comps`` in ``pc`` (subtracting them); ``taken`` gets (face, copies)."""
    if not comps:
        return True
    (w, length), rest = comps[0], comps[1:]
    for _top, chain in placements(pc, w, length):
        for e in chain:
            e[1] -= w
            taken.append((e[0], w))
        if _take(pc, rest, taken):
            return True
        for e in chain:
            e[1] += w
            taken.pop()
    return False


def _structured_core(
    lead: Lead, pc: PosCounts, best: tuple[int, ...], rng: random.Random
) -> list[int] | None:
    """Faces (with multiplicity) of a small set of led-suit cards that reaches ``best``."""
    taken: list[tuple[int, int]] = []
    if lead.rungs is not None:
        for alt in lead.rungs[-best[0]]:
            if _take(pc, sorted(alt, key=lambda c: -c[0] * c[1]), taken):
                break
        else:
            return None
    else:
        if lead.tractors:
            want = best[0]
            found = False
            for k in range(len(lead.tractors), -1, -1):
                for subset in itertools.combinations(lead.tractors, k):
                    if sum(a * b for a, b in subset) == want and _take(pc, list(subset), taken):
                        found = True
                        break
                if found:
                    break
        for (w, _cap), need in zip(lead.slots, best[-len(lead.slots):], strict=True):
            have = sum(n // w for n in _merge(taken).values())
            order = list(range(len(pc)))
            shuffle(rng, order)
            for p in order:
                for e in pc[p]:
                    while have < need and e[1] >= w:
                        e[1] -= w
                        taken.append((e[0], w))
                        have += 1
    return [f for f, n in taken for _ in range(n)]


def _merge(taken: list[tuple[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for f, n in taken:
        out[f] = out.get(f, 0) + n
    return out


def sample_follow(state: Position, seat: int, rng: random.Random) -> tuple[int, ...]:
    """A random legal follow: the structure the lead asks for, then random led-suit cards."""
    ctx = state.ctx
    assert ctx is not None and state.lead is not None
    lead = state.lead
    n, s = lead.size, lead.suit
    hand = state.hands[seat]
    suited = _held(hand, ctx.suit_kinds[s])
    if n == 1 and suited:
        return (pick(rng, suited),)
    if len(suited) <= n:
        others = [c for c in _cards(hand) if ctx.esuit[c] != s]
        return tuple(sorted(suited + sample(rng, others, n - len(suited))))
    if not lead.has_structure:
        return tuple(sorted(sample(rng, suited, n)))
    best = best_structure_key(lead, pos_counts_from_hand(hand, s, ctx))
    faces = _structured_core(lead, pos_counts_from_hand(hand, s, ctx), best, rng)
    if faces is not None and len(faces) <= n:
        core = list(_realize(faces, 1, hand, ctx))
        rest = list(suited)
        for c in core:
            rest.remove(c)
        play = tuple(sorted(core + sample(rng, rest, n - len(core))))
        if structure_key(lead, pos_counts(play, s, ctx)) == best:
            return play
    options = list(itertools.islice(legal_follows(lead.cards, hand, ctx, state.ruleset), 5000))
    return pick(rng, options)


def legal_actions(state: Position, seat: int) -> LegalActions:
    """The ``LegalActions`` of ``seat`` in ``state``."""
    return LegalActions(state, seat)
