"""Stakes of a finished deal: rating points (积分), game coins (游戏币) and 欢乐豆 (RULES.md §9).

Pure: a ``DealResult`` (who defended, the level change, the attackers' points, the 反主/反底
stake) and the players' ratings in, one delta per seat out. Seeds 000 (【积分规则】,
游戏币场计算规则) and 001 (欢乐豆, 反主/反底); decisions 75–89 of docs/rules.md.

- **Who won.** The dealer side wins when it goes up (``defender_levels``); otherwise the
  attackers win, also when they only take the deal over without a level (classic 80–119:
  ``Y = 0``, the seed's "闲家转庄家得两分").
- **Rating points** per player: attackers ``2 + Y``; dealer side ``Y + 1``, at most 4 (the
  大光 value, which a room may set, e.g. 6); ×2 when every rated player is in [80, 300),
  ×3 when every one is at 300 or more.
- **Coins** (游戏币): ``X = Y + 1`` (dealer side won) or ``Y + 2`` (attackers), doubled per
  反主/反底; losers pay ``X·N``, winners get ``X·N·0.9`` (rounded down).
- **欢乐豆**: ``X`` = the rating points (no bracket) doubled per 反主/反底; losers pay
  ``X·N + A``, winners get ``X·N − A``.
- **Unequal sides** (1 vs 3, 2 vs 3): each player of the larger side stakes the base; the
  smaller side stakes as much in total, shared out evenly (so ratings stay zero-sum).

>>> o = DealOutcome(dealer_side=(0, 2), attackers=(1, 3), dealer_side_won=True, levels=2)
>>> coin_deltas(o, 1000)      # the seed's example: N = 1000, dealer side +2
(2700, -3000, 2700, -3000)
>>> rating_deltas(o, [90, 95, 120, 250])
(6, -6, 6, -6)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from shengji.core.errors import RulesetError
from shengji.core.state import DealResult

StakeKind = Literal["plain", "rating", "coins", "beans"]
STAKE_KINDS: tuple[StakeKind, ...] = ("plain", "rating", "coins", "beans")
"""A room plays for nothing, ratings (积分), game coins (游戏币) or 欢乐豆."""

DEALER_RATING_CAP = 4
"""The dealer side's rating points at most ("最多闲家大光时得四分")."""
BRACKET = (80, 300)
"""Every rated player in [80, 300): rating points ×2; every one at 300 or more: ×3."""
WINNERS_SHARE = (9, 10)
"""游戏币 winners receive 9/10 of what they would were there no house cut."""


@dataclass(frozen=True)
class StakeRules:
    """What a room plays for.

    >>> StakeRules("coins", coefficient=1000).kind
    'coins'
    >>> StakeRules("beans", coefficient=100, house=250)
    Traceback (most recent call last):
    ...
    shengji.core.errors.RulesetError: the house take A must be 0..N (100), not 250
    """

    kind: StakeKind = "plain"
    coefficient: int = 1
    """N, the room coefficient (coins and 欢乐豆)."""
    house: int = 0
    """A, 欢乐豆 taken by the house from every player every deal."""
    slam_points: int | None = None
    """Special 大光 rating value (the dealer side's points when the attackers score 0)."""

    def __post_init__(self) -> None:
        if self.kind not in STAKE_KINDS:
            raise RulesetError(f"stakes kind must be one of {', '.join(STAKE_KINDS)}")
        if not 1 <= self.coefficient <= 10**9:
            raise RulesetError(f"the coefficient N must be 1..10^9, not {self.coefficient}")
        if not 0 <= self.house <= self.coefficient:
            raise RulesetError(
                f"the house take A must be 0..N ({self.coefficient}), not {self.house}"
            )
        if self.house and self.kind != "beans":
            raise RulesetError("a house take A belongs to 欢乐豆 rooms only")
        if self.slam_points is not None and not 1 <= self.slam_points <= 100:
            raise RulesetError(f"the 大光 value must be 1..100, not {self.slam_points}")

    def to_dict(self) -> dict[str, int | str | None]:
        """JSON-ready form (``from_dict`` reads it back)."""
        return {
            "kind": self.kind,
            "coefficient": self.coefficient,
            "house": self.house,
            "slam_points": self.slam_points,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> StakeRules:
        """Rules from JSON; unknown keys and wrong types are refused.

        >>> StakeRules.from_dict({"kind": "rating", "slam_points": 6}).slam_points
        6
        """
        if not data:
            return cls()
        unknown = set(data) - {"kind", "coefficient", "house", "slam_points"}
        if unknown:
            raise RulesetError(f"unknown stakes option(s): {', '.join(sorted(unknown))}")
        kind = next((k for k in STAKE_KINDS if k == data.get("kind", "plain")), None)
        if kind is None:
            raise RulesetError(f"stakes kind must be one of {', '.join(STAKE_KINDS)}")
        return cls(
            kind,
            _whole(data, "coefficient", 1),
            _whole(data, "house", 0),
            None if data.get("slam_points") is None else _whole(data, "slam_points", 0),
        )


def _whole(data: Mapping[str, object], key: str, default: int) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesetError(f"stakes option {key} must be a whole number")
    return v


PLAIN = StakeRules()


@dataclass(frozen=True)
class DealOutcome:
    """A finished deal as the stakes see it: the sides, who won, ``Y``, 大光, the stake."""

    dealer_side: tuple[int, ...]
    attackers: tuple[int, ...]
    dealer_side_won: bool
    levels: int
    """Y: levels the winning side goes up by the level table (0: a takeover alone)."""
    slam: bool = False
    """大光: the dealer side won with the attackers on 0 points (or less)."""
    stake: int = 1
    """2 to the number of 反主 and 反底 in the deal."""

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats of the side that won."""
        return self.dealer_side if self.dealer_side_won else self.attackers

    @property
    def losers(self) -> tuple[int, ...]:
        """Seats of the side that lost."""
        return self.attackers if self.dealer_side_won else self.dealer_side

    def describe(self) -> str:
        """Short English words: ``"dealer side +2"``, ``"attackers take over +0"``."""
        if self.dealer_side_won:
            words = f"dealer side +{self.levels}" + (" (大光)" if self.slam else "")
        else:
            words = f"attackers take over +{self.levels}"
        return words + (f", stake x{self.stake}" if self.stake > 1 else "")


def deal_outcome(result: DealResult, players: int) -> DealOutcome:
    """Sides and winner of a deal: the dealer side wins when it goes up a level.

    Y is the level table's change, before a must-play rank stops the climb.
    """
    dealer_side = tuple(sorted(result.defenders))
    if not dealer_side or any(not 0 <= s < players for s in dealer_side):
        raise ValueError(f"defenders {result.defenders} do not fit {players} seats")
    attackers = tuple(s for s in range(players) if s not in dealer_side)
    change = result.change
    dealer_won = not change.attackers_take_over and change.defender_levels > 0
    levels = change.defender_levels if dealer_won else change.attacker_levels
    return DealOutcome(
        dealer_side,
        attackers,
        dealer_won,
        max(0, levels),
        slam=dealer_won and result.attacker_points <= 0,
        stake=max(1, result.stake),
    )


# ------------------------------------------------------------------------------ bases


def rating_points(o: DealOutcome, slam_points: int | None = None) -> int:
    """Rating points per player before the bracket: attackers ``2 + Y``; dealer side
    ``Y + 1`` at most 4, or the room's 大光 value when the attackers scored 0.

    >>> rating_points(DealOutcome((0, 2), (1, 3), True, 3, slam=True), slam_points=6)
    6
    >>> rating_points(DealOutcome((0, 2), (1, 3), False, 0))   # classic 80-119: takeover
    2
    """
    if not o.dealer_side_won:
        return 2 + o.levels
    if o.slam and slam_points is not None:
        return slam_points
    return min(max(o.levels, 1) + 1, DEALER_RATING_CAP)


def rating_multiplier(ratings: Iterable[int]) -> int:
    """×3 when every rated player is at 300 or more, ×2 when all are in [80, 300), else ×1.

    >>> rating_multiplier([90] * 4), rating_multiplier([400] * 4), rating_multiplier([79, 90])
    (2, 3, 1)
    """
    rs = list(ratings)
    if not rs:
        return 1
    low, top = BRACKET
    if all(r >= top for r in rs):
        return 3
    if all(low <= r < top for r in rs):
        return 2
    return 1


def coin_base(o: DealOutcome) -> int:
    """游戏币 X: ``Y + 1`` when the dealer side won, ``Y + 2`` when the attackers did, doubled
    for each 反主 and 反底."""
    return (o.levels + (1 if o.dealer_side_won else 2)) * o.stake


def bean_base(o: DealOutcome, slam_points: int | None = None) -> int:
    """欢乐豆 X (seed 001's 游戏基数): the rating points, doubled for each 反主 and 反底."""
    return rating_points(o, slam_points) * o.stake


# ------------------------------------------------------------------------------ shares


def split_evenly(total: int, n: int) -> tuple[int, ...]:
    """``total`` in ``n`` whole parts differing by at most one, the larger ones first.

    >>> split_evenly(9, 2), split_evenly(-9, 2)
    ((5, 4), (-4, -5))
    """
    q, r = divmod(total, n)
    return tuple(q + (1 if i < r else 0) for i in range(n))


def side_stakes(o: DealOutcome, base: int) -> dict[int, int]:
    """What each seat stakes (a positive amount): ``base`` each on the larger side (both
    sides if equal); the smaller side stakes as much in total, shared out evenly.

    >>> side_stakes(DealOutcome((0,), (1, 2, 3), True, 1), 2)
    {0: 6, 1: 2, 2: 2, 3: 2}
    """
    big = max(len(o.dealer_side), len(o.attackers))
    out: dict[int, int] = {}
    for side in (o.dealer_side, o.attackers):
        if len(side) == big:
            out.update({s: base for s in side})
        else:
            out.update(zip(side, split_evenly(base * big, len(side)), strict=True))
    return out


def _seats(o: DealOutcome) -> int:
    return len(o.dealer_side) + len(o.attackers)


def rating_deltas(
    o: DealOutcome, ratings: Sequence[int | None], slam_points: int | None = None
) -> tuple[int, ...]:
    """Rating change per seat (zero-sum); ``ratings`` per seat, ``None`` for an unrated seat
    (a bot), which the bracket ignores."""
    if len(ratings) != _seats(o):
        raise ValueError(f"{len(ratings)} ratings for {_seats(o)} seats")
    mult = rating_multiplier(r for r in ratings if r is not None)
    stakes = side_stakes(o, rating_points(o, slam_points) * mult)
    winners = set(o.winners)
    return tuple(stakes[s] if s in winners else -stakes[s] for s in range(_seats(o)))


def coin_deltas(o: DealOutcome, coefficient: int) -> tuple[int, ...]:
    """游戏币 change per seat: losers −X·N, winners +X·N·0.9 (rounded down)."""
    stakes = side_stakes(o, coin_base(o) * coefficient)
    winners = set(o.winners)
    num, den = WINNERS_SHARE
    return tuple(stakes[s] * num // den if s in winners else -stakes[s] for s in range(_seats(o)))


def bean_deltas(
    o: DealOutcome, coefficient: int, house: int, slam_points: int | None = None
) -> tuple[int, ...]:
    """欢乐豆 change per seat: losers −(X·N + A), winners +(X·N − A)."""
    stakes = side_stakes(o, bean_base(o, slam_points) * coefficient)
    winners = set(o.winners)
    return tuple(
        stakes[s] - house if s in winners else -(stakes[s] + house) for s in range(_seats(o))
    )


# ------------------------------------------------------------------------------ settle


@dataclass(frozen=True)
class Settlement:
    """What one deal does to the players of a room: a delta per seat in the room's unit."""

    kind: StakeKind
    deltas: tuple[int, ...]
    base: int
    """Points per player (rating, after the bracket) or X (coins, 欢乐豆)."""
    multiplier: int
    """The rating bracket's ×1/×2/×3 (1 for coins and 欢乐豆)."""
    house: int
    """Kept by the house: what the losers paid less what the winners received."""
    reason: str
    """English words for the ledger: ``"dealer side +2, X 3, N 1000"``."""


def settle(result: DealResult, rules: StakeRules, ratings: Sequence[int | None]) -> Settlement:
    """The deal's stakes for a room, ``ratings`` per seat (``None``: unrated, a bot).

    A plain room settles nothing (all deltas 0).
    """
    o = deal_outcome(result, len(ratings))
    n = len(ratings)
    if rules.kind == "plain":
        return Settlement("plain", (0,) * n, 0, 1, 0, o.describe())
    if rules.kind == "rating":
        mult = rating_multiplier(r for r in ratings if r is not None)
        deltas = rating_deltas(o, ratings, rules.slam_points)
        base = rating_points(o, rules.slam_points) * mult
        reason = f"{o.describe()}, {base} points" + (f" (x{mult})" if mult > 1 else "")
        return Settlement("rating", deltas, base, mult, 0, reason)
    if rules.kind == "coins":
        x = coin_base(o)
        deltas = coin_deltas(o, rules.coefficient)
        reason = f"{o.describe()}, X {x}, N {rules.coefficient}"
    else:
        x = bean_base(o, rules.slam_points)
        deltas = bean_deltas(o, rules.coefficient, rules.house, rules.slam_points)
        reason = f"{o.describe()}, X {x}, N {rules.coefficient}, A {rules.house}"
    return Settlement(rules.kind, deltas, x, 1, -sum(deltas), reason)
