"""The judge's ``stakes`` op: a room's stakes, the players' ratings and a deal's outcome in,
each seat's settlement out (``core.stakes.settle_outcome``; docs/protocol.md, rules.md 75–87
and 120–129).

>>> from shengji.core.ruleset import preset
>>> req = {"stakes": {"kind": "coins", "coefficient": 1000}, "dealer_side": [0, 2],
...        "winner": "dealer", "levels": 2}
>>> stakes_answer(req, preset("classic"))["deltas"]          # seed 000's example
[2700, -3000, 2700, -3000]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shengji.core.ruleset import Ruleset
from shengji.core.stakes import MAX_STAKE, DealOutcome, StakeRules, settle_outcome

FIELDS = {"stakes", "dealer_side", "winner", "levels", "slam", "overturns", "ratings", "balances"}
"""The op's own request fields."""
MAX_LEVELS = 99
MAX_OVERTURNS = MAX_STAKE.bit_length() - 1
MAX_VALUE = 10**12
"""Ratings and balances are whole numbers of at most this size (either sign)."""


class StakesRequestError(ValueError):
    """A ``stakes`` request that cannot be answered; the message says what to fix."""


def _int(req: Mapping[str, Any], key: str, default: int | None, low: int, high: int) -> int:
    v = req.get(key, default)
    if v is None:
        raise StakesRequestError(f"missing field {key!r}")
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise StakesRequestError(f"{key} must be a whole number {low}..{high}")
    return v


def _per_seat(req: Mapping[str, Any], key: str, seats: int) -> list[int | None]:
    v = req.get(key)
    if v is None:
        return [None] * seats
    ok = isinstance(v, list) and all(
        x is None or (isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_VALUE)
        for x in v
    )
    if not ok:
        raise StakesRequestError(f"{key} must be a list of whole numbers or null, one per seat")
    if len(v) != seats:
        raise StakesRequestError(f"{key} has {len(v)} entries for {seats} seats")
    return list(v)


def _dealer_side(req: Mapping[str, Any], rs: Ruleset) -> tuple[int, ...]:
    """The dealer's side as the preset's partnership allows it."""
    v = req.get("dealer_side")
    n = rs.players
    if v is None:
        raise StakesRequestError("missing field 'dealer_side'")
    if (
        not isinstance(v, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in v)
        or not v
        or len(set(v)) != len(v)
        or any(not 0 <= s < n for s in v)
    ):
        raise StakesRequestError(f"dealer_side must list distinct seats 0..{n - 1}")
    side = tuple(sorted(v))
    if rs.partnership == "fixed":
        team = tuple(range(side[0] % 2, n, 2))
        if side != team:
            raise StakesRequestError(
                f"fixed partners: the dealer side is a whole team, {list(team)}, not {list(v)}"
            )
    elif rs.partnership == "bidding" and len(side) != 1:
        raise StakesRequestError("竞标: the dealer plays alone (dealer_side is one seat)")
    elif rs.partnership == "find-friend" and len(side) > 2:
        raise StakesRequestError("找朋友: the dealer side is the dealer and at most one friend")
    if len(side) == n:
        raise StakesRequestError("the attackers need at least one seat")
    return side


def _outcome(req: Mapping[str, Any], rs: Ruleset) -> DealOutcome:
    side = _dealer_side(req, rs)
    winner = req.get("winner")
    if winner not in ("dealer", "attackers"):
        raise StakesRequestError("winner must be 'dealer' or 'attackers'")
    dealer_won = winner == "dealer"
    levels = _int(req, "levels", None, 0, MAX_LEVELS)
    if dealer_won and levels < 1:
        raise StakesRequestError(
            "the dealer side wins only by going up: levels must be at least 1 "
            "(a takeover without a level is a win of the attackers with levels 0)"
        )
    slam = req.get("slam", False)
    if not isinstance(slam, bool):
        raise StakesRequestError("slam must be true or false")
    if slam and not dealer_won:
        raise StakesRequestError("slam (大光, the attackers on 0 points) is a win of the dealer")
    overturns = _int(req, "overturns", 0, 0, MAX_OVERTURNS)
    attackers = tuple(s for s in range(rs.players) if s not in side)
    try:
        return DealOutcome(side, attackers, dealer_won, levels, slam, 2**overturns)
    except ValueError as e:  # every check above should have caught it first
        raise StakesRequestError(str(e)) from e


def stakes_answer(req: Mapping[str, Any], rs: Ruleset) -> dict[str, Any]:
    """Each seat's settlement for one request (``preset``'s seats; fields as in FIELDS)."""
    if "stakes" not in req:
        raise StakesRequestError("missing field 'stakes'")
    data = req["stakes"]
    if not isinstance(data, dict):
        raise StakesRequestError('stakes must be an object, e.g. {"kind": "coins"}')
    rules = StakeRules.from_dict(data)
    o = _outcome(req, rs)
    ratings = _per_seat(req, "ratings", o.seats)
    balances = _per_seat(req, "balances", o.seats)
    if rules.kind == "rating":
        if "balances" in req and any(
            b is not None and b != r for b, r in zip(balances, ratings, strict=True)
        ):
            raise StakesRequestError("a rating room's balances are the ratings: give ratings")
        balances = ratings
    s = settle_outcome(o, rules, ratings)
    return {
        "kind": s.kind,
        "winners": list(o.winners),
        "losers": list(o.losers),
        "base": s.base,
        "multiplier": s.multiplier,
        "stake": s.stake,
        "overturn_doubling": rules.doubles,
        "house": s.house,
        "deltas": list(s.deltas),
        "after": [None if b is None else b + d for b, d in zip(balances, s.deltas, strict=True)],
        "reason": s.reason,
    }
