"""找朋友 levels: each seat keeps its own level (RULES.md §8, seed 002 "变异打法").

The level table gives ``n`` levels per player. Attackers taking over go up ``n`` each. A
winning dealer side gets ``n`` per attacker in all (级差权平等: 2 vs 3 → 3n, the dealer alone
vs 4 → 4n), shared by ``Ruleset.level_shares``:

- ``equal``: half each (the dealer takes an odd one);
- ``fixed``: 2/3 to whoever held the last trick for the side (保底; the dealer when the kitty
  was captured), 1/3 to the other;
- ``elastic``: 1/3 each, the last 1/3 (spoils) to the partner behind in level (ties: the
  保底 player).

Optional kitty penalties when the attackers take over by capturing the kitty: on J with J
units (single 6, pair 12, triple 18, tractor 24, tractor of triples 36 levels: dealer 2/3,
friend 1/3), on A with an A (the dealer back to J, the friend down 3). Levels a seat cannot
lose below 2 pass on: dealer → friend → the attackers, highest level first, the capturer last.

级数不浪费 (``Ruleset.level_transfer``, seed 002): levels a seat cannot go up because a
must-play rank (or the last level) stops it are taken off its opponents one at a time,
highest level first and down to 2 at most, then given to its partners up to a must-play
rank (``opponents``), or the other way round (``partners``: lowest partner first).

>>> from shengji.core.ruleset import PRESETS
>>> five = PRESETS["five-player"]
>>> side_shares(five, base=1, attackers=3, friend_holds_last=False, levels=(0, 0))
(2, 1)
>>> side_shares(five, base=3, attackers=4, friend_holds_last=None, levels=(0, 0))
(12, 0)
>>> jack_penalty_total(2, 1), jack_penalty_total(2, 2), jack_penalty_total(3, 2)
(12, 24, 36)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from shengji.core.cards import parse_rank
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import advance
from shengji.core.state import DealResult, DealState
from shengji.core.units import decompose

_J: Final = parse_rank("J")
_A: Final = parse_rank("A")


def side_shares(
    rs: Ruleset, base: int, attackers: int, friend_holds_last: bool | None,
    levels: tuple[int, int],
) -> tuple[int, int]:
    """``(dealer, friend)`` levels for a winning dealer side whose table row says ``base``.

    ``friend_holds_last``: None when the dealer plays alone; ``levels``: (dealer, friend)
    indices before the deal (for the elastic spoils).
    """
    total = base * attackers
    if friend_holds_last is None:
        return total, 0
    if rs.level_shares == "equal":
        friend = total // 2
        return total - friend, friend
    third = (total + 1) // 3
    if rs.level_shares == "fixed":
        big, small = total - third, third
        return (small, big) if friend_holds_last else (big, small)
    spoils = total - 2 * third
    d_lvl, f_lvl = levels
    to_friend = f_lvl < d_lvl or (f_lvl == d_lvl and friend_holds_last)
    return (third, third + spoils) if to_friend else (third + spoils, third)


def jack_penalty_total(width: int, length: int) -> int:
    """Levels the dealer side loses when its kitty is captured by this J unit (seed 002
    item 5): single 6, pair 12, triple 18, tractor 24, tractor of triples (推土机) 36."""
    if length > 1:
        return 36 if width >= 3 else 24
    return 6 * min(width, 3)


def _jack_unit(deal: DealState, cards: Sequence[int]) -> tuple[int, int] | None:
    """The largest unit holding a J in ``cards`` (the last trick's winning play)."""
    ctx = deal.ctx
    assert ctx is not None
    best: tuple[int, int] | None = None
    for u in decompose(cards, ctx):
        if any(_rank(f) == _J for f in u.faces):
            shape = (u.width, u.length)
            if best is None or jack_penalty_total(*shape) > jack_penalty_total(*best):
                best = shape
    return best


def _rank(card: int) -> int:
    return card % 13 if card < 52 else -1


def _drain(levels: list[int], amount: int, order: Sequence[int]) -> None:
    """Take ``amount`` levels off the seats in ``order``, each down to 2 at most."""
    for seat in order:
        if amount <= 0:
            return
        d = min(amount, levels[seat])
        levels[seat] -= d
        amount -= d


def _designated(levels: list[int], seats: Sequence[int]) -> list[int]:
    """Seats a dealer-side player names to go down: highest level first (ties: in order)."""
    return sorted(seats, key=lambda s: -levels[s])


def kitty_penalty_kind(
    rs: Ruleset, deal: DealState, res: DealResult
) -> tuple[str, int] | None:
    """The kitty penalty a deal's end calls for: ``("jack", levels the dealer side loses)``,
    ``("ace", 3)`` (the dealer back to J, the friend down 3), or None."""
    if not (res.change.attackers_take_over and res.kitty_captured):
        return None
    if rs.jack_kitty_penalty and deal.level == _J:
        unit = _jack_unit(deal, res.last_winning_cards)
        return None if unit is None else ("jack", jack_penalty_total(*unit))
    ace = rs.ace_kitty_penalty and deal.level == _A
    if ace and any(_rank(c) == _A for c in res.last_winning_cards):
        return ("ace", 3)
    return None


def kitty_penalties(
    rs: Ruleset, levels: list[int], deal: DealState, res: DealResult, attackers: Sequence[int]
) -> None:
    """Apply the J / A kitty penalties (seed 002 items 5, 6) to ``levels`` in place."""
    penalty = kitty_penalty_kind(rs, deal, res)
    if penalty is None:
        return
    assert deal.dealer is not None
    dealer, friend, capturer = deal.dealer, res.friend, res.last_winner
    others = [a for a in attackers if a != capturer]
    if penalty[0] == "jack":
        total = penalty[1]
        friend_part = total // 3 if friend is not None else 0
        carry = total - friend_part
        d = min(carry, levels[dealer])
        levels[dealer] -= d
        carry = carry - d + friend_part
        if friend is not None:
            d = min(carry, levels[friend])
            levels[friend] -= d
            carry -= d
        _drain(levels, carry, [*_designated(levels, others), capturer])
    else:
        seq = rs.level_sequence
        jack = max((i for i, r in enumerate(seq) if r <= _J), default=0)
        levels[dealer] = min(levels[dealer], jack)
        if friend is not None:
            d = min(3, levels[friend])
            levels[friend] -= d
            _drain(levels, 3 - d, _designated(levels, attackers))


def climb(rs: Ruleset, index: int, steps: int, as_dealer: bool = True) -> tuple[int, int]:
    """``advance`` and the levels it could not use (a must-play rank or the last level
    stopped it): ``climb(five, J, 3) == (A, 1)`` for the dealer — from J it goes to Q, K, A."""
    new = advance(rs, index, steps, as_dealer)
    return new, steps - (new - index)


def _by_distance(seat: int, seats: Sequence[int], players: int) -> list[int]:
    """``seats`` in play order after ``seat``."""
    return sorted(seats, key=lambda p: (p - seat) % players)


def _lower(levels: list[int], k: int, opponents: Sequence[int]) -> int:
    """Take ``k`` levels off ``opponents`` one at a time, the highest first (ties: the
    first listed), none below 2; returns what is left."""
    while k > 0:
        can = [p for p in opponents if levels[p] > 0]
        if not can:
            break
        levels[max(can, key=lambda q: levels[q])] -= 1
        k -= 1
    return k


def _raise(rs: Ruleset, levels: list[int], k: int, partners: Sequence[int]) -> int:
    """Give ``k`` levels to ``partners`` one at a time, the lowest first (ties: the first
    listed), none past a must-play rank ("升到必打的点数不能再升"); returns what is left."""
    while k > 0:
        can = [p for p in partners if advance(rs, levels[p], 1, as_dealer=False) > levels[p]]
        if not can:
            break
        levels[min(can, key=lambda q: levels[q])] += 1
        k -= 1
    return k


def pass_on(
    rs: Ruleset, levels: list[int], wasted: dict[int, int], sides: Sequence[Sequence[int]]
) -> None:
    """级数不浪费 (seed 002): hand each seat's ``wasted`` levels on, seats in the order
    given: "将所剩余的级数转移给同一方的指定玩家让其升相应的级数，或指定对方玩家降相应的级数".
    The seat's choice is modelled by ``rs.level_transfer``; partners accept (Decision 95)."""
    if rs.level_transfer == "off":
        return
    n = rs.players
    for seat, k in wasted.items():
        if k <= 0:
            continue
        mine = next(side for side in sides if seat in side)
        partners = _by_distance(seat, [p for p in mine if p != seat], n)
        opponents = _by_distance(seat, [p for s in sides if s is not mine for p in s], n)
        if rs.level_transfer == "opponents":
            _raise(rs, levels, _lower(levels, k, opponents), partners)
        else:
            _lower(levels, _raise(rs, levels, k, partners), opponents)


def friend_outcome(
    rs: Ruleset, before: tuple[int, ...], deal: DealState, res: DealResult
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """The ``match.OutcomeRule`` of find-a-friend: new levels, next dealer, winners.

    Takeover: the first attacker after the dealer deals next (under ``takeover_dealer=
    "attackers-declare"`` only if no attacker declares: ``match.takeover_rights``). Dealer
    side wins: the dealer deals again (``dealer_rotation="same"``, or when alone), else its
    friend. A dealer side winning a deal played at the last level wins the match: its seats
    then on it are the winners. Wasted levels pass on (``pass_on``) unless the match is won.
    """
    assert deal.dealer is not None
    dealer, friend = deal.dealer, res.friend
    n = rs.players
    side = {dealer} if friend is None else {dealer, friend}
    attackers = [(dealer + i) % n for i in range(1, n) if (dealer + i) % n not in side]
    ch = res.change
    levels = list(before)
    last = len(rs.level_sequence) - 1
    winners: tuple[int, ...] = ()
    sides = (sorted(side, key=lambda p: (p - dealer) % n), attackers)
    wasted: dict[int, int] = {}
    if ch.attackers_take_over:
        for a in attackers:
            levels[a], wasted[a] = climb(rs, levels[a], ch.attacker_levels, as_dealer=False)
        kitty_penalties(rs, levels, deal, res, attackers)
        pass_on(rs, levels, wasted, sides)
        return tuple(levels), attackers[0], winners
    holder = res.last_winner if res.last_winner in side else dealer
    f_lvl = before[friend] if friend is not None else 0
    d_steps, f_steps = side_shares(
        rs, ch.defender_levels, len(attackers),
        None if friend is None else holder == friend, (before[dealer], f_lvl),
    )
    if before[dealer] == last:
        winners = tuple(s for s in sorted(side) if before[s] == last)
    levels[dealer], wasted[dealer] = climb(rs, levels[dealer], d_steps)
    if friend is not None:  # it leaves a must-play rank only from a deal played there
        at_own = rs.level_sequence[before[friend]] == deal.level
        levels[friend], wasted[friend] = climb(rs, levels[friend], f_steps, as_dealer=at_own)
    if not winners:
        pass_on(rs, levels, wasted, sides)
    nxt = friend if friend is not None and rs.dealer_rotation == "partner" else dealer
    return tuple(levels), nxt, winners
