"""Stakes of a finished deal: rating points (积分), game coins (游戏币) and 欢乐豆 (RULES.md §9).

Pure: a ``DealOutcome`` (the sides, who won, Y, 大光, the 反主/反底 stake), the room's
``StakeRules`` and the players' ratings in, one delta per seat out (``settle_outcome``;
``settle`` reads the outcome off a ``DealResult``). Seeds 000 (QQ游戏 【积分规则】,
游戏币场计算规则) and 001/003 (欢乐升级 积分规则: 欢乐豆 and its 游戏基数); decisions 75–87
and 120–129 of docs/rules.md.

- **Who won.** The dealer side wins when it goes up (``defender_levels``); otherwise the
  attackers win, also when they only take the deal over without a level (classic 80–119:
  ``Y = 0``, the seed's "闲家转庄家得两分").
- **Rating points** per player: attackers ``2 + Y``; dealer side ``Y + 1``, at most 4 (the
  大光 value, which a room may set, e.g. 6); ×2 when every rated player is in [80, 300),
  ×3 when every one is at 300 or more ("四个玩家积分都在80分以上，300分以下…翻倍").
- **Coins** (游戏币, seed 000): ``X = Y + 1`` (dealer side won) or ``Y + 2`` (attackers);
  losers pay ``X·N``, winners get ``X·N·0.9`` (rounded down). No bracket.
- **欢乐豆** (seed 001): ``X`` is the 游戏基数: the rating points with the bracket (the sheet
  states both under 游戏基数计算规则); losers pay ``X·N + A``, winners get ``X·N − A``.
- **反主/反底** ("每次反主游戏基数*2", seed 001): each doubles X when the room's
  ``overturn_doubling`` is on — by default for 欢乐豆 only, the one unit the sheet states it
  for; a coin or rating room doubles only when its creator chose it.
- **Unequal sides** (1 vs 3, 2 vs 3): each player of the larger side stakes the base; the
  smaller side stakes as much in total, shared out evenly (so ratings stay zero-sum).

>>> o = DealOutcome(dealer_side=(0, 2), attackers=(1, 3), dealer_side_won=True, levels=2)
>>> settle_outcome(o, StakeRules("coins", 1000), [None] * 4).deltas   # seed 000's example
(2700, -3000, 2700, -3000)
>>> settle_outcome(o, StakeRules("rating"), [90, 95, 120, 250]).deltas
(6, -6, 6, -6)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from shengji.core.errors import RulesetError
from shengji.core.state import DealResult

StakeKind = Literal["plain", "rating", "coins", "beans"]
STAKE_KINDS: Final[tuple[StakeKind, ...]] = ("plain", "rating", "coins", "beans")
"""A room plays for nothing, ratings (积分), game coins (游戏币) or 欢乐豆."""

DEALER_RATING_CAP: Final = 4
"""The dealer side's rating points at most ("最多闲家大光时得四分")."""
BRACKET: Final = (80, 300)
"""Every rated player in [80, 300): rating points ×2; every one at 300 or more: ×3."""
WINNERS_SHARE: Final = (9, 10)
"""游戏币 winners receive 9/10 of what they would were there no house cut."""
MAX_STAKE: Final = 2**30
"""The largest 反主/反底 stake an outcome may carry (30 doublings)."""

_OPTIONS: Final = ("kind", "coefficient", "house", "slam_points", "overturn_doubling")


@dataclass(frozen=True)
class StakeRules:
    """What a room plays for.

    ``overturn_doubling`` left out (None) follows the sheets: on for 欢乐豆, off otherwise.

    >>> StakeRules("coins", coefficient=1000).overturn_doubling
    False
    >>> StakeRules("beans", coefficient=100, house=10).overturn_doubling
    True
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
    overturn_doubling: bool | None = None
    """Each 反主 and 反底 doubles X. None: the sheet's default for the kind, which is on for
    欢乐豆 ("每次反主游戏基数*2", seed 001) and off for coins and ratings (seed 000 has no
    such rule); construction resolves None, so the field always reads True or False."""

    def __post_init__(self) -> None:
        if self.kind not in STAKE_KINDS:
            raise RulesetError(f"stakes kind must be one of {', '.join(STAKE_KINDS)}")
        if not 1 <= self.coefficient <= 10**9:
            raise RulesetError(f"the coefficient N must be 1..10^9, not {self.coefficient}")
        if self.house and self.kind != "beans":
            raise RulesetError("a house take A belongs to 欢乐豆 rooms only")
        if not 0 <= self.house <= self.coefficient:
            raise RulesetError(
                f"the house take A must be 0..N ({self.coefficient}), not {self.house}"
            )
        if self.slam_points is not None and not 1 <= self.slam_points <= 100:
            raise RulesetError(f"the 大光 value must be 1..100, not {self.slam_points}")
        if self.overturn_doubling is None:
            object.__setattr__(self, "overturn_doubling", self.kind == "beans")
        elif not isinstance(self.overturn_doubling, bool):
            raise RulesetError("stakes option overturn_doubling must be true or false")
        elif self.overturn_doubling and self.kind == "plain":
            raise RulesetError("a plain room stakes nothing: overturn_doubling needs a kind")

    @property
    def doubles(self) -> bool:
        """Whether each 反主 and 反底 doubles X in this room."""
        return bool(self.overturn_doubling)

    def to_dict(self) -> dict[str, int | str | bool | None]:
        """JSON-ready form (``from_dict`` reads it back)."""
        return {
            "kind": self.kind,
            "coefficient": self.coefficient,
            "house": self.house,
            "slam_points": self.slam_points,
            "overturn_doubling": self.doubles,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object] | None) -> StakeRules:
        """Rules from JSON; unknown keys and wrong types are refused.

        >>> StakeRules.from_dict({"kind": "rating", "slam_points": 6}).slam_points
        6
        >>> StakeRules.from_dict({"kind": "coins", "overturn_doubling": True}).doubles
        True
        """
        if not data:
            return cls()
        unknown = set(data) - set(_OPTIONS)
        if unknown:
            raise RulesetError(f"unknown stakes option(s): {', '.join(sorted(unknown))}")
        kind = next((k for k in STAKE_KINDS if k == data.get("kind", "plain")), None)
        if kind is None:
            raise RulesetError(f"stakes kind must be one of {', '.join(STAKE_KINDS)}")
        doubling = data.get("overturn_doubling")
        if doubling is not None and not isinstance(doubling, bool):
            raise RulesetError("stakes option overturn_doubling must be true or false")
        return cls(
            kind,
            _whole(data, "coefficient", 1),
            _whole(data, "house", 0),
            None if data.get("slam_points") is None else _whole(data, "slam_points", 0),
            doubling,
        )


def _whole(data: Mapping[str, object], key: str, default: int) -> int:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise RulesetError(f"stakes option {key} must be a whole number")
    return v


PLAIN: Final = StakeRules()


@dataclass(frozen=True)
class DealOutcome:
    """A finished deal as the stakes see it: the sides, who won, ``Y``, 大光, the stake.

    >>> DealOutcome((0, 2), (1, 3), True, 0)
    Traceback (most recent call last):
    ...
    ValueError: the dealer side wins only by going up: levels must be at least 1
    """

    dealer_side: tuple[int, ...]
    attackers: tuple[int, ...]
    dealer_side_won: bool
    levels: int
    """Y: levels the winning side goes up by the level table (0: a takeover alone)."""
    slam: bool = False
    """大光: the dealer side won with the attackers on 0 points (or less)."""
    stake: int = 1
    """2 to the number of 反主 and 反底 in the deal (whether it counts is the room's choice)."""

    def __post_init__(self) -> None:
        seats = sorted(self.dealer_side + self.attackers)
        if not self.dealer_side or not self.attackers or seats != list(range(len(seats))):
            raise ValueError(
                f"dealer side {list(self.dealer_side)} and attackers {list(self.attackers)} "
                "must split seats 0..n-1 into two non-empty sides"
            )
        if self.levels < 0:
            raise ValueError(f"levels cannot be negative, not {self.levels}")
        if self.dealer_side_won and self.levels < 1:
            raise ValueError("the dealer side wins only by going up: levels must be at least 1")
        if self.slam and not self.dealer_side_won:
            raise ValueError("大光 (slam) is a win of the dealer side")
        if not 1 <= self.stake <= MAX_STAKE or self.stake & (self.stake - 1):
            raise ValueError(f"the stake must be a power of two 1..2^30, not {self.stake}")

    @property
    def seats(self) -> int:
        """How many seats the deal had."""
        return len(self.dealer_side) + len(self.attackers)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats of the side that won."""
        return self.dealer_side if self.dealer_side_won else self.attackers

    @property
    def losers(self) -> tuple[int, ...]:
        """Seats of the side that lost."""
        return self.attackers if self.dealer_side_won else self.dealer_side

    def describe(self, stake: int | None = None) -> str:
        """Short English words: ``"dealer side +2"``, ``"attackers take over +0, stake x4"``;
        ``stake`` is the doubling that counted (default the deal's own)."""
        if self.dealer_side_won:
            words = f"dealer side +{self.levels}" + (" (大光)" if self.slam else "")
        else:
            words = f"attackers take over +{self.levels}"
        stake = self.stake if stake is None else stake
        return words + (f", stake x{stake}" if stake > 1 else "")


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


def rating_multiplier(ratings: Iterable[int | None]) -> int:
    """×3 when every rated player is at 300 or more, ×2 when all are in [80, 300), else ×1;
    an unrated seat (None, a bot) is not looked at.

    >>> rating_multiplier([90] * 4), rating_multiplier([400] * 4), rating_multiplier([79, 90])
    (2, 3, 1)
    """
    rs = [r for r in ratings if r is not None]
    if not rs:
        return 1
    low, top = BRACKET
    if all(r >= top for r in rs):
        return 3
    if all(low <= r < top for r in rs):
        return 2
    return 1


def coin_points(o: DealOutcome) -> int:
    """游戏币 X before any doubling: ``Y + 1`` when the dealer side won, ``Y + 2`` when the
    attackers did ("庄家赢：X＝Y＋1 闲家赢：X＝Y＋2").

    >>> coin_points(DealOutcome((0, 2), (1, 3), True, 2))    # seed 000: 庄家胜利，升2级
    3
    """
    return o.levels + (1 if o.dealer_side_won else 2)


def overturn_factor(o: DealOutcome, rules: StakeRules) -> int:
    """What the deal's 反主/反底 multiply X by in this room: the stake, or 1 when the room
    does not double."""
    return o.stake if rules.doubles else 1


@dataclass(frozen=True)
class Base:
    """X of one deal in one room, and what made it."""

    x: int
    """Points per player (rating) or X (coins, 欢乐豆), after the bracket and the doubling."""
    multiplier: int
    """The rating bracket's ×1/×2/×3 (1 for coins, which have none)."""
    stake: int
    """The 反主/反底 doubling that counted (1 when the room does not double)."""


def deal_base(o: DealOutcome, rules: StakeRules, ratings: Sequence[int | None]) -> Base:
    """The deal's X for the room's kind (0 in a plain room).

    >>> o = DealOutcome((0, 2), (1, 3), True, 3, slam=True, stake=2)
    >>> deal_base(o, StakeRules("beans", 100), [90] * 4)     # 4, ×2 bracket, ×2 反主
    Base(x=16, multiplier=2, stake=2)
    >>> deal_base(o, StakeRules("coins", 100), [90] * 4)     # Y + 1, no bracket, not doubled
    Base(x=4, multiplier=1, stake=1)
    """
    stake = overturn_factor(o, rules)
    if rules.kind == "plain":
        return Base(0, 1, 1)
    if rules.kind == "coins":
        return Base(coin_points(o) * stake, 1, stake)
    mult = rating_multiplier(ratings)
    return Base(rating_points(o, rules.slam_points) * mult * stake, mult, stake)


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


def deal_deltas(o: DealOutcome, rules: StakeRules, x: int) -> tuple[int, ...]:
    """Each seat's change for X = ``x``: ratings ±X (zero-sum); coins −X·N for a loser and
    +X·N·0.9 rounded down for a winner; 欢乐豆 −(X·N + A) and +(X·N − A); plain 0."""
    n = o.seats
    if rules.kind == "plain":
        return (0,) * n
    stakes = side_stakes(o, x if rules.kind == "rating" else x * rules.coefficient)
    winners = set(o.winners)
    out = []
    for s in range(n):
        if s not in winners:
            out.append(-stakes[s] - (rules.house if rules.kind == "beans" else 0))
        elif rules.kind == "coins":
            num, den = WINNERS_SHARE
            out.append(stakes[s] * num // den)
        else:
            out.append(stakes[s] - (rules.house if rules.kind == "beans" else 0))
    return tuple(out)


# ------------------------------------------------------------------------------ settle


@dataclass(frozen=True)
class Settlement:
    """What one deal does to the players of a room: a delta per seat in the room's unit."""

    kind: StakeKind
    deltas: tuple[int, ...]
    base: int
    """Points per player (rating) or X (coins, 欢乐豆), after the bracket and the doubling."""
    multiplier: int
    """The rating bracket's ×1/×2/×3 (ratings and 欢乐豆; 1 for coins and plain rooms)."""
    house: int
    """Kept by the house: what the losers paid less what the winners received."""
    reason: str
    """English words for the ledger: ``"dealer side +2, X 3, N 1000"``."""
    stake: int = 1
    """The 反主/反底 doubling that counted (1 when the room does not double)."""


def settle_outcome(o: DealOutcome, rules: StakeRules, ratings: Sequence[int | None]) -> Settlement:
    """The deal's stakes for a room, ``ratings`` per seat (``None``: unrated, a bot, which
    the bracket ignores). A plain room settles nothing (all deltas 0).

    >>> o = DealOutcome((0, 2), (1, 3), True, 1, stake=4)    # dealer side +1, 反主 twice
    >>> settle_outcome(o, StakeRules("beans", 100, 10), [None] * 4).deltas
    (790, -810, 790, -810)
    >>> settle_outcome(o, StakeRules("coins", 100), [None] * 4).deltas
    (180, -200, 180, -200)
    >>> settle_outcome(o, StakeRules("coins", 100, overturn_doubling=True), [None] * 4).deltas
    (720, -800, 720, -800)
    """
    if len(ratings) != o.seats:
        raise ValueError(f"{len(ratings)} ratings for {o.seats} seats")
    b = deal_base(o, rules, ratings)
    deltas = deal_deltas(o, rules, b.x)
    words = o.describe(b.stake)
    if rules.kind == "plain":
        reason = o.describe()
    elif rules.kind == "rating":
        reason = f"{words}, {b.x} points" + (f" (x{b.multiplier})" if b.multiplier > 1 else "")
    else:
        bracket = f" (x{b.multiplier})" if b.multiplier > 1 else ""
        reason = f"{words}, X {b.x}{bracket}, N {rules.coefficient}"
        if rules.kind == "beans":
            reason += f", A {rules.house}"
    return Settlement(rules.kind, deltas, b.x, b.multiplier, -sum(deltas), reason, b.stake)


def settle(result: DealResult, rules: StakeRules, ratings: Sequence[int | None]) -> Settlement:
    """``settle_outcome`` for a finished deal's ``DealResult``, ``ratings`` per seat."""
    return settle_outcome(deal_outcome(result, len(ratings)), rules, ratings)
