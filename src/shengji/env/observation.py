"""The observation: a fixed-size float32 vector built from one seat's view only.

Seats are relative: index 0 is the observing seat, 1 the next seat in turn order, and so
on. Card sections are 54 counts in kind order (``suit·13 + rank``, ``LJ`` 52, ``BJ`` 53).
The sections depend on the ruleset (players, and the 找朋友 / 竞标 parts); ``Layout``
names each slice (docs/research.md, "Observations"). Nothing is read from the deal state
but ``view_for(state, seat)`` and the cards the seat has picked so far.

>>> from shengji.core.ruleset import PRESETS
>>> lay = Layout(PRESETS["classic"])
>>> lay.size, lay.slices["hand"], lay.slices["played"]
(730, slice(0, 54, None), slice(162, 378, None))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from shengji.core.cards import BJ, LJ, NO_TRUMP
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset
from shengji.core.views import DealView

PHASES = tuple(Phase)
POINT_SCALE = 100.0
"""Points are divided by this (one deck holds 100)."""
_BIG = 1e6


class Layout:
    """Named slices of the observation vector for one ruleset, with their bounds."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        p, d = ruleset.players, ruleset.decks
        self.players = p
        sections: list[tuple[str, int, float, float]] = [
            ("hand", 54, 0, d),
            ("picked", 54, 0, d),
            ("unseen", 54, 0, d),
            ("played", p * 54, 0, d),
            ("trick", p * 54, 0, d),
            ("trick_leader", p, 0, 1),
            ("kitty", 54, 0, d),
            ("phase", len(PHASES), 0, 1),
            ("level", 13, 0, 1),
            ("trump", 6, 0, 1),
            ("seat_levels", p, 0, 1),
            ("dealer", p + 1, 0, 1),
            ("to_act", p + 1, 0, 1),
            ("defenders", p, 0, 1),
            ("kitty_holder", p + 1, 0, 1),
            ("hand_sizes", p, 0, 54 * d),
            ("attacker_points", 1, -_BIG, _BIG),
            ("stake", 1, 0, _BIG),
            ("dealt", 1, 0, 1),
            ("tricks_done", 1, 0, 1),
            ("declaration_seat", p + 1, 0, 1),
            ("declaration", 7, 0, 1),
            ("own_declaration", 7, 0, 1),
        ]
        if ruleset.partnership == "find-friend":
            sections += [
                ("friend_call", 54, 0, 1),
                ("friend_nth", d, 0, 1),
                ("friend_seen", 1, 0, 1),
                ("friend", p + 1, 0, 1),
            ]
        if ruleset.partnership == "bidding":
            sections += [
                ("bids", p, 0, 1),
                ("passed", p, 0, 1),
                ("standing", p + 1, 0, 1),
                ("target", 1, 0, 1),
                ("shown", 54, 0, d),
            ]
        self.slices: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        at = 0
        for name, size, lo, hi in sections:
            self.slices[name] = slice(at, at + size)
            low.extend([lo] * size)
            high.extend([hi] * size)
            at += size
        self.size = at
        """Length of the vector."""
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        self.starts = {name: s.start for name, s in self.slices.items()}
        self._full = [d] * 54
        self._max_width = max(ruleset.max_width, d)
        self._tricks = (54 * d - ruleset.kitty_size) // p
        self._cards = p * ruleset.hand_size

    def encode(self, view: DealView, picked: Sequence[int] = ()) -> npt.NDArray[np.float32]:
        """The vector for ``view`` (a seat's) and the cards it has picked so far."""
        assert view.seat is not None
        rs = self.ruleset
        p = self.players
        me = view.seat
        sl = self.starts
        v = [0.0] * self.size  # filled as a list (fast), converted once

        def one_hot_seat(name: str, seat: int | None) -> None:
            v[sl[name] + (p if seat is None or seat < 0 else (seat - me) % p)] = 1.0

        unseen = list(self._full)
        hand = view.hand_counts
        base = sl["hand"]
        for k in range(54):
            n = hand[k]
            if n:
                v[base + k] = n
                unseen[k] -= n
        base = sl["picked"]
        for c in picked:
            v[base + c] += 1
        played = sl["played"]
        for t in view.tricks:
            for seat, cards in t.plays:
                off = played + 54 * ((seat - me) % p)
                for c in cards:
                    v[off + c] += 1
                    unseen[c] -= 1
        trick = sl["trick"]
        for seat, cards in view.trick:
            r = 54 * ((seat - me) % p)
            for c in cards:
                v[played + r + c] += 1
                v[trick + r + c] += 1
                unseen[c] -= 1
        if view.trick:
            v[sl["trick_leader"] + (view.leader - me) % p] = 1
        if view.kitty is not None:
            # While its holder names trump or buries, the kitty's cards are in its hand.
            in_hand = view.phase in (Phase.NAMING, Phase.BURYING)
            base = sl["kitty"]
            for c in view.kitty:
                v[base + c] += 1
                if not in_hand:
                    unseen[c] -= 1
        base = sl["unseen"]
        v[base : base + 54] = unseen
        v[sl["phase"] + PHASES.index(view.phase)] = 1
        v[sl["level"] + view.level] = 1
        trump = view.trump
        v[sl["trump"] + (5 if trump is None else 4 if trump == NO_TRUMP else trump)] = 1
        base = sl["seat_levels"]
        for seat, lv in enumerate(view.seat_levels):
            v[base + (seat - me) % p] = lv / 12
        one_hot_seat("dealer", view.dealer)
        one_hot_seat("to_act", view.to_act)
        base = sl["defenders"]
        for seat in view.defenders:
            v[base + (seat - me) % p] = 1
        one_hot_seat("kitty_holder", view.kitty_holder)
        base = sl["hand_sizes"]
        for seat, n in enumerate(view.hand_sizes):
            v[base + (seat - me) % p] = n
        v[sl["attacker_points"]] = view.attacker_points / POINT_SCALE
        v[sl["stake"]] = view.stake
        v[sl["dealt"]] = min(1.0, view.cards_dealt / self._cards)
        v[sl["tricks_done"]] = len(view.tricks) / self._tricks
        decl = view.declaration
        one_hot_seat("declaration_seat", decl.seat if decl is not None else None)
        for name, d in (("declaration", decl), ("own_declaration", view.own_declaration)):
            if d is not None:
                base = sl[name]
                face = 4 if d.joker == LJ else 5 if d.joker == BJ else d.trump
                v[base + face] = 1
                v[base + 6] = d.count / self._max_width
        if rs.partnership == "find-friend":
            call = view.friend_call
            if call is not None:
                v[sl["friend_call"] + call.card] = 1
                v[sl["friend_nth"] + call.nth - 1] = 1
                seen = 0
                if view.dealer is not None:
                    plays = [pl for t in view.tricks for pl in t.plays]
                    plays.extend(view.trick)
                    for seat, cards in plays:
                        if seat != view.dealer:
                            seen += sum(1 for c in cards if c == call.card)
                v[sl["friend_seen"]] = min(seen, rs.decks) / rs.decks
            one_hot_seat("friend", view.friend)
        if rs.partnership == "bidding":
            auction = view.auction
            standing = auction.standing if auction is not None else None
            if auction is not None:
                for seat, target in auction.bids:
                    if target is None:
                        v[sl["passed"] + (seat - me) % p] = 1
                    else:
                        v[sl["bids"] + (seat - me) % p] = target / rs.bid_open
            one_hot_seat("standing", standing[0] if standing else None)
            if view.target is not None:
                v[sl["target"]] = view.target / rs.bid_open
            base = sl["shown"]
            for c in view.shown:
                v[base + c] += 1
        return np.array(v, dtype=np.float32)
