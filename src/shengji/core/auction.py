"""The three-player auction (竞标, seed 002 三人打法): seats bid the attackers' target.

Seats speak in turn from the opener. A bid is a multiple of ``bid_step``, at most
``bid_open`` and at least one step below the standing bid, and never below ``lowest_bid``
(``bid_min``, and at least one step); a pass
drops the seat out for the rest of the auction. The auction ends when one seat is left and
it holds the standing bid: that seat deals alone against the other two, and the attackers'
target is its bid. If all pass, the opener deals at ``bid_open`` (rules.md, decisions 60–63).

The level change is counted against the target T (``target_level_change``): attackers
reaching T go up one level each, one more per further T/2; below T the dealer goes up 2,
below T/2 by 4, with no points by 6.

>>> from shengji.core.ruleset import preset
>>> rs = preset("three-player")                       # seed 002: 甲 150, 乙 120, 丙 115
>>> a = Auction(opener=0, players=3).bid(0, 150, rs).bid(1, 120, rs).bid(2, 115, rs)
>>> a.turn, a.legal_targets(rs)[:3]
(0, [110, 105, 100])
>>> a = a.pass_(0).pass_(1)
>>> a.is_over, a.result(rs)
(True, (2, 115))
>>> target_level_change(175, 115)                     # 115 + 57.5 reached: +2 each
LevelChange(defender_levels=0, attacker_levels=2, attackers_take_over=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from shengji.core.errors import IllegalAction, Reason
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import LevelChange

BidEntry = tuple[int, int | None]
"""``(seat, target)`` of one turn of the auction; ``target`` None is a pass."""


@dataclass(frozen=True)
class Auction:
    """The bids so far of one deal's auction (a value: ``bid`` and ``pass_`` return a new one).

    >>> from shengji.core.ruleset import preset
    >>> a = Auction(opener=1, players=3)
    >>> a.turn, a.standing
    (1, None)
    """

    opener: int
    players: int
    bids: tuple[BidEntry, ...] = ()

    @property
    def standing(self) -> tuple[int, int] | None:
        """The lowest bid so far as ``(seat, target)``, or None before the first bid."""
        for seat, target in reversed(self.bids):
            if target is not None:
                return seat, target
        return None

    @property
    def passed(self) -> frozenset[int]:
        """Seats that passed and are out of the auction."""
        return frozenset(seat for seat, target in self.bids if target is None)

    @property
    def is_over(self) -> bool:
        """Everybody passed, or one seat is left and it holds the standing bid."""
        active = self.players - len(self.passed)
        if active == 0:
            return True
        standing = self.standing
        return active == 1 and standing is not None and standing[0] not in self.passed

    @property
    def turn(self) -> int | None:
        """The seat to speak next (None once the auction is over)."""
        if self.is_over:
            return None
        seat = self.opener if not self.bids else (self.bids[-1][0] + 1) % self.players
        out = self.passed
        while seat in out:
            seat = (seat + 1) % self.players
        return seat

    def ceiling(self, ruleset: Ruleset) -> int:
        """The highest target a bid may name now: ``bid_open``, then a step below the last."""
        standing = self.standing
        return ruleset.bid_open if standing is None else standing[1] - ruleset.bid_step

    def legal_targets(self, ruleset: Ruleset) -> list[int]:
        """Every target the seat to speak may bid, highest first (empty once over, or when
        the standing bid is the lowest: the seat can only pass)."""
        if self.is_over:
            return []
        step = ruleset.bid_step
        top = self.ceiling(ruleset) // step * step
        return list(range(top, lowest_bid(ruleset) - 1, -step))

    def refusal(self, seat: int, target: int, ruleset: Ruleset) -> tuple[Reason, str] | None:
        """Why ``seat`` may not bid ``target`` now, or None if it may."""
        turn = self.turn
        if turn is None:
            return Reason.WRONG_PHASE, "the auction is over"
        if seat != turn:
            return Reason.NOT_YOUR_TURN, f"it is seat {turn}'s turn to bid"
        step = ruleset.bid_step
        if target % step:
            return Reason.BAD_BID, f"a bid is a multiple of {step} points"
        low = lowest_bid(ruleset)
        if target < low:
            return Reason.BAD_BID, f"the lowest bid is {low} points"
        top = self.ceiling(ruleset)
        if target > top:
            standing = self.standing
            if standing is None:
                return Reason.BAD_BID, f"the first bid is at most {ruleset.bid_open} points"
            return Reason.BAD_BID, (
                f"a bid must be at least {step} below the standing bid of {standing[1]}"
            )
        return None

    def bid(self, seat: int, target: int, ruleset: Ruleset) -> Auction:
        """The auction after ``seat`` bids ``target``; raises ``IllegalAction``."""
        refusal = self.refusal(seat, target, ruleset)
        if refusal is not None:
            raise IllegalAction(*refusal)
        return Auction(self.opener, self.players, (*self.bids, (seat, target)))

    def pass_(self, seat: int) -> Auction:
        """The auction after ``seat`` passes (drops out); raises ``IllegalAction``."""
        turn = self.turn
        if turn is None:
            raise IllegalAction(Reason.WRONG_PHASE, "the auction is over")
        if seat != turn:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {turn}'s turn to bid")
        return Auction(self.opener, self.players, (*self.bids, (seat, None)))

    def result(self, ruleset: Ruleset) -> tuple[int, int]:
        """``(dealer, target)`` of a finished auction: the lowest bidder, or the opener at
        ``bid_open`` when all passed."""
        if not self.is_over:
            raise ValueError("the auction is not over")
        standing = self.standing
        return standing if standing is not None else (self.opener, ruleset.bid_open)


def lowest_bid(ruleset: Ruleset) -> int:
    """The lowest target a bid may name: ``bid_min``, and never below one ``bid_step``.

    >>> from shengji.core.ruleset import preset
    >>> lowest_bid(preset("three-player")), lowest_bid(preset("three-player", {"bid_min": 0}))
    (100, 5)
    """
    return max(ruleset.bid_min, ruleset.bid_step)


def target_level_change(points: int, target: int) -> LevelChange:
    """Levels for the attackers' final ``points`` against the auction's ``target``.

    ``defender_levels`` is the dealer's gain, ``attacker_levels`` each attacker's; nobody
    takes over (the auction picks each deal's dealer). Seed 002: "抓分方抓到150分即可升一级，
    以后每75分升一级。不到150分庄家升2级，不到75分庄家升4级，没抓到分庄家升6级".

    >>> [tuple(target_level_change(p, 150)[:2]) for p in (0, 70, 75, 145, 150, 220, 225)]
    [(6, 0), (4, 0), (2, 0), (2, 0), (0, 1), (0, 1), (0, 2)]
    """
    if points >= target:
        # One level, then one per further half target: 1 + floor((p - T) / (T / 2)).
        return LevelChange(0, 1 + 2 * (points - target) // target, False)
    if points <= 0:
        return LevelChange(6, 0, False)
    if 2 * points < target:
        return LevelChange(4, 0, False)
    return LevelChange(2, 0, False)
