"""The environment's action encoding: a fixed catalogue of indices, cards picked one by one.

Every legal action of every preset is reachable, and the mask is exact: an index is allowed
exactly when it leads to at least one legal action (docs/research.md, "Actions").

- ``0..53`` — ``card K``: add one card of kind ``K`` (``suit·13 + rank``, ``LJ`` 52, ``BJ`` 53)
  to the cards being picked for a burial, a lead, a throw or a follow. Cards are picked in
  increasing kind order, so each set of cards has exactly one sequence of picks. The pick
  is submitted by itself once no further card can be added (a follow or a burial has its
  size); a lead whose size is free is submitted with ``finish``.
- ``54`` — ``finish``: play the cards picked so far as a lead (a unit or a throw).
- ``55`` — ``pass``: pass in the declaration window, the 反底 round or the auction, and
  "not now" when a seat is offered a declaration while the cards are dealt.
- ``56..`` — ``declare F×N``: show ``N`` level cards of suit ``F`` (two-colour: ``S`` black,
  ``H`` red), or ``N`` identical jokers (``F`` = ``LJ``/``BJ``); ``N`` = 1..``width``.
- 竞标 presets only: ``bid T`` for every target ``T`` (``bid_step`` .. ``bid_open``), then
  ``trump S|H|D|C``.
- 找朋友 presets only: ``call N K`` (the ``N``-th copy of card ``K``), ``N`` = 1..decks.

>>> from shengji.core.ruleset import PRESETS
>>> cat = ActionCatalogue(PRESETS["classic"])
>>> cat.size, cat.name(12), cat.name(54), cat.name(cat.declare + 1)
(68, 'card SA', 'finish', 'declare S×2')
>>> from shengji.core.state import DealState
>>> from shengji.core.actions import Deal
>>> s = DealState.new(PRESETS["classic"], seed=1, dealer=0)
>>> while s.phase.value != "burying":
...     _ = s.apply_in_place(Deal() if s.to_act == -1 else next(iter(s.legal_actions(s.to_act))))
>>> turn = Turn(s, s.to_act, cat)
>>> len(turn.allowed()) > 0, turn.pick(turn.allowed()[0]) is None   # one card of eight
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.actions import (
    Action,
    Bid,
    Bury,
    CallFriend,
    Declare,
    NameTrump,
    Pass,
    Play,
)
from shengji.core.cards import BJ, LJ, SUITS, card_str, counts_of
from shengji.core.follow import legal_follows
from shengji.core.legal import LegalActions, Position, hand_units
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset

_CARD_CHOICES = (Bury, Play)
"""Actions made of cards picked one at a time (``isinstance`` on every step)."""
FINISH = 54
"""Index of ``finish``."""
PASS = 55
"""Index of ``pass``."""
DECLARE = 56
"""First ``declare`` index."""
FACES = ("S", "H", "D", "C", "LJ", "BJ")
"""Declaration faces, in catalogue order: a level card's suit, or a joker."""


class NotNow:
    """What ``Turn.pick`` returns when a seat declines a declaration while dealing."""

    def __repr__(self) -> str:
        return "NOT_NOW"


NOT_NOW = NotNow()


class ActionCatalogue:
    """Every index of a ruleset's action space and what it means (see the module docstring).

    >>> from shengji.core.ruleset import PRESETS
    >>> three = ActionCatalogue(PRESETS["three-player"])
    >>> three.name(three.bid), three.name(three.trump + 1), three.size
    ('bid 5', 'trump H', 102)
    >>> friend = ActionCatalogue(PRESETS["find-friend"])
    >>> friend.name(friend.call + 54 + 12)
    'call 2 SA'
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.width = max(ruleset.max_width, ruleset.decks)
        """Largest declaration: level cards of one suit (two-colour: colour), or jokers."""
        self.declare = DECLARE
        n = DECLARE + len(FACES) * self.width
        self.bids: tuple[int, ...] = ()
        self.bid = self.trump = self.call = -1
        if ruleset.partnership == "bidding":
            self.bids = tuple(range(ruleset.bid_step, ruleset.bid_open + 1, ruleset.bid_step))
            self.bid = n
            n += len(self.bids)
            self.trump = n
            n += 4
        if ruleset.partnership == "find-friend":
            self.call = n
            n += 54 * ruleset.decks
        self.size = n
        """Number of indices (the ``Discrete`` action space's ``n``)."""

    def name(self, index: int) -> str:
        """What an index means, in card notation (``card SA``, ``declare H×2``, ``bid 120``)."""
        if not 0 <= index < self.size:
            raise ValueError(f"no action {index}: indices are 0..{self.size - 1}")
        if index < 54:
            return f"card {card_str(index)}"
        if index == FINISH:
            return "finish"
        if index == PASS:
            return "pass"
        if index < DECLARE + len(FACES) * self.width:
            face, n = divmod(index - DECLARE, self.width)
            return f"declare {FACES[face]}×{n + 1}"
        if self.bid <= index < self.bid + len(self.bids):
            return f"bid {self.bids[index - self.bid]}"
        if self.trump <= index < self.trump + 4:
            return f"trump {SUITS[index - self.trump]}"
        nth, kind = divmod(index - self.call, 54)
        return f"call {nth + 1} {card_str(kind)}"

    def names(self) -> list[str]:
        """Every index's name, in order."""
        return [self.name(i) for i in range(self.size)]

    def declare_index(self, cards: Sequence[int]) -> int:
        """The ``declare`` index of a declaration's cards (``S2 S2`` → ``declare S×2``)."""
        first = cards[0]
        if first in (LJ, BJ):
            face = 4 if first == LJ else 5
        else:
            face = first // 13
            if self.ruleset.two_color:
                face = {2: 1, 3: 0}.get(face, face)
        return DECLARE + face * self.width + len(cards) - 1

    def list_index(self, action: Action) -> int:
        """The index of a one-step action (pass, declare, bid, trump, call)."""
        if isinstance(action, Pass):
            return PASS
        if isinstance(action, Declare):
            return self.declare_index(action.cards)
        if isinstance(action, Bid):
            return self.bid + self.bids.index(action.target)
        if isinstance(action, NameTrump):
            return self.trump + action.trump
        if isinstance(action, CallFriend):
            return self.call + (action.nth - 1) * 54 + action.card
        raise ValueError(f"{action} is picked card by card, not one index")


class Picker:
    """Cards picked one at a time in increasing kind order towards a legal set of cards."""

    def allowed(self, picked: Sequence[int]) -> list[int]:
        """Kinds that may be added to ``picked`` (sorted) with a legal completion left."""
        raise NotImplementedError

    def complete(self, picked: Sequence[int]) -> bool:
        """Whether ``picked`` is itself a legal set."""
        raise NotImplementedError


class ChoosePicker(Picker):
    """Every card of ``mandatory`` plus exactly ``k`` cards of ``optional`` (disjoint kinds).

    A burial is ``k`` cards of the hand; a follow short in the led suit is all of that suit
    plus any others; a follow of a lead without pairs is any ``n`` cards of the suit.

    >>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
    >>> pk = ChoosePicker([0] * 54, counts_of(p("S3 S4 S5")), 2)
    >>> cards_str(pk.allowed([])), cards_str(pk.allowed(p("S3"))), cards_str(pk.allowed(p("S5")))
    ('S3 S4', 'S4 S5', '')
    """

    def __init__(self, mandatory: Sequence[int], optional: Sequence[int], k: int) -> None:
        self.mandatory = list(mandatory)
        self.optional = list(optional)
        self.k = k

    def allowed(self, picked: Sequence[int]) -> list[int]:
        mand = list(self.mandatory)
        opt = list(self.optional)
        taken = 0
        for c in picked:
            if mand[c]:
                mand[c] -= 1
            else:
                opt[c] -= 1
                taken += 1
        need = self.k - taken
        # opt_ge[c]: optional cards of kind >= c still free
        opt_ge = [0] * 55
        for c in range(53, -1, -1):
            opt_ge[c] = opt_ge[c + 1] + opt[c]
        first_mand = next((c for c in range(54) if mand[c]), 54)
        out: list[int] = []
        for c in range(picked[-1] if picked else 0, min(first_mand, 53) + 1):
            if mand[c]:
                if opt_ge[c] >= need:
                    out.append(c)
            elif opt[c] and need >= 1 and opt_ge[c] >= need:
                out.append(c)
        return out

    def complete(self, picked: Sequence[int]) -> bool:
        need = counts_of(picked)
        if any(need[c] < self.mandatory[c] for c in range(54)):
            return False
        return len(picked) - sum(self.mandatory) == self.k


class SuitSetPicker(Picker):
    """Any non-empty set of cards of one effective suit (a unit, or a throw to attempt).

    >>> from shengji.core.order import context
    >>> from shengji.core.cards import parse_cards as p, counts_of, cards_str
    >>> pk = SuitSetPicker(counts_of(p("S3 S3 HA")), context(0, 1).esuit, {0, 1, 2, 3, 4})
    >>> cards_str(pk.allowed(p("S3"))), pk.complete(p("S3"))
    ('S3', True)
    """

    def __init__(self, hand: Sequence[int], esuit: Sequence[int], suits: set[int]) -> None:
        self.hand = hand
        self.esuit = esuit
        self.suits = suits

    def allowed(self, picked: Sequence[int]) -> list[int]:
        hand, es = self.hand, self.esuit
        if not picked:
            return [c for c in range(54) if hand[c] and es[c] in self.suits]
        suit = es[picked[0]]
        last = picked[-1]
        used = sum(1 for c in picked if c == last)
        out = [last] if hand[last] > used else []
        out.extend(c for c in range(last + 1, 54) if hand[c] and es[c] == suit)
        return out

    def complete(self, picked: Sequence[int]) -> bool:
        return bool(picked)


class ListPicker(Picker):
    """One of an enumerated list of card sets (units, or follows that owe pairs/tractors)."""

    def __init__(self, sets: Sequence[Sequence[int]]) -> None:
        self.sets = sorted({tuple(sorted(s)) for s in sets})
        self._done = set(self.sets)

    def allowed(self, picked: Sequence[int]) -> list[int]:
        n = len(picked)
        pre = tuple(picked)
        return sorted({s[n] for s in self.sets if len(s) > n and s[:n] == pre})

    def complete(self, picked: Sequence[int]) -> bool:
        return tuple(picked) in self._done


class LeadPicker(Picker):
    """Leads: units of the hand, and throws where the ruleset lets this seat try one.

    ``throw_suits``: effective suits in which any set of cards may be led (every suit under
    ``throw_policy="validated"``; under ``"others-void"`` the suits every other seat lacks,
    which the rule itself makes known to the leader; none under ``"never"``).
    """

    def __init__(
        self, hand: Sequence[int], esuit: Sequence[int], units: list[tuple[int, ...]],
        throw_suits: set[int],
    ) -> None:
        self.esuit = esuit
        self.throws = SuitSetPicker(hand, esuit, throw_suits)
        self.units = ListPicker([u for u in units if esuit[u[0]] not in throw_suits])
        self.throw_suits = throw_suits

    def _part(self, picked: Sequence[int]) -> Picker:
        return self.throws if self.esuit[picked[0]] in self.throw_suits else self.units

    def allowed(self, picked: Sequence[int]) -> list[int]:
        if not picked:
            return sorted(set(self.throws.allowed(picked)) | set(self.units.allowed(picked)))
        return self._part(picked).allowed(picked)

    def complete(self, picked: Sequence[int]) -> bool:
        return bool(picked) and self._part(picked).complete(picked)


def _lead_picker(state: Position, seat: int) -> LeadPicker:
    ctx = state.ctx
    assert ctx is not None
    hand = state.hands[seat]
    es = ctx.esuit
    policy = state.ruleset.throw_policy
    if policy == "validated":
        return LeadPicker(hand, es, [], {0, 1, 2, 3, 4})
    throw_suits: set[int] = set()
    if policy == "others-void":
        held = {es[k] for p in range(state.players) if p != seat
                for k, n in enumerate(state.hands[p]) if n}
        throw_suits = {s for s in range(5) if s not in held}
    return LeadPicker(hand, es, hand_units(hand, ctx), throw_suits)


def _follow_picker(state: Position, seat: int) -> Picker:
    ctx, lead = state.ctx, state.lead
    assert ctx is not None and lead is not None
    hand = state.hands[seat]
    es = ctx.esuit
    suit = [hand[k] if es[k] == lead.suit else 0 for k in range(54)]
    off = [hand[k] - suit[k] for k in range(54)]
    m, n = sum(suit), lead.size
    if m <= n:
        return ChoosePicker(suit, off, n - m)
    if not lead.has_structure:
        return ChoosePicker([0] * 54, suit, n)
    return ListPicker(list(legal_follows(lead.cards, hand, ctx, state.ruleset)))


class Turn:
    """One seat's decision in progress: what it may pick next, and the action it completes.

    ``offer``: the seat was just dealt a level card or a joker and may declare now
    (``pass`` = not now), as ``bots/driver.py`` asks it.
    """

    def __init__(
        self, state: Position, seat: int, catalogue: ActionCatalogue, offer: bool = False
    ) -> None:
        self.state = state
        self.seat = seat
        self.catalogue = catalogue
        self.offer = offer
        self.legal = LegalActions(state, seat)
        self.picked: list[int] = []
        self.options: dict[int, Action | NotNow] = {}
        self.picker: Picker | None = None
        kind = self.legal.kind
        if kind == "list":
            for a in self.legal.small:
                self.options[catalogue.list_index(a)] = a
            if offer:
                self.options[PASS] = NOT_NOW
        elif kind == "bury":
            self.picker = ChoosePicker([0] * 54, state.hands[seat], self.legal.bury_count)
        elif kind == "lead":
            self.picker = _lead_picker(state, seat)
        elif kind == "follow":
            self.picker = _follow_picker(state, seat)
        self._allowed = self._compute()

    @property
    def phase(self) -> Phase:
        """The deal's phase for this decision."""
        return self.state.phase

    def _compute(self) -> list[int]:
        if self.picker is None:
            return sorted(self.options)
        out = self.picker.allowed(self.picked)
        if self.picked and self.picker.complete(self.picked):
            out.append(FINISH)
        return out

    def allowed(self) -> list[int]:
        """The indices allowed now (the action mask's ones), sorted."""
        return self._allowed

    def pick(self, index: int) -> Action | NotNow | None:
        """Take ``index``: the action it completes, ``NOT_NOW``, or None (a card was added)."""
        if index not in self._allowed:
            raise ValueError(
                f"action {index} ({_safe_name(self.catalogue, index)}) is not allowed now; "
                f"allowed: {', '.join(self.catalogue.name(i) for i in self._allowed)}"
            )
        if self.picker is None:
            return self.options[index]
        if index != FINISH:
            self.picked.append(index)
            self._allowed = self._compute()
            if self._allowed != [FINISH] and self._allowed:
                return None
        cards = tuple(self.picked)
        if self.legal.kind == "bury":
            return Bury(self.seat, cards)
        return Play(self.seat, cards)

    def indices_for(self, action: Action | None) -> list[int]:
        """The indices that make ``action`` (None: decline a dealing-time offer)."""
        if action is None:
            if not self.offer:
                raise ValueError("only a dealing-time declaration offer can be declined")
            return [PASS]
        if isinstance(action, _CARD_CHOICES):
            cards = sorted(action.cards)
            picker = self.picker
            assert picker is not None
            out: list[int] = []
            for i, c in enumerate(cards):
                out.append(c)
                rest = picker.allowed(cards[: i + 1])
                if i == len(cards) - 1 and rest:
                    out.append(FINISH)
            return out
        return [self.catalogue.list_index(action)]


def _safe_name(catalogue: ActionCatalogue, index: int) -> str:
    try:
        return catalogue.name(index)
    except ValueError:
        return "out of range"
