"""Guess the hidden cards from one seat's view (determinization for PIMC search).

The unseen cards are dealt at random to the other seats (as many as each holds) and to the
kitty (when the viewer did not bury it), never giving a seat a suit it has shown it lacks,
and keeping a standing declaration's cards with its declarer. Each follow a seat made must
have been legal with the hand the world gives it (its cards now plus those it played
since): a seat that followed a led pair (拖拉机: a tractor) with two singles of the suit held
no pair of it then, so no world gives it one (rejection, ``FOLLOW_TRIES`` tries; when the
evidence cannot be met the last world that keeps the voids is used). 找朋友 (nearest-holder): once
a seat has played the called card without being revealed, a nearer seat must hold one, so a
copy goes to one of the seats that may still be the friend. Soft evidence (``tells``): how
a seat followed a single lead while an opponent's card of the led suit was winning. Ducking
under it with a lower card of the suit says it held nothing above that card; beating it
says it held nothing between that card and the one it beat it with (the cheapest winner).
Among heuristic players a side suit's duck was wrong in 2% of cases (never from the trick's
last seat) and a beat in 8%; trumps' in 7% and 11%. A world keeps each tell with its
``TRUST``, lower where people deviate on purpose (second hand low, a high trump to keep
control), so no hand is ruled out. A seat void in a led side suit that let an opponent keep
points on the table (it discarded, or played a trump too low) held no trump that would have
taken them (right in 99% of 225 cases in 400 heuristic deals; ``TRUST_NO_RUFF``). Only the
view is used.

>>> import random
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.random_bot import RandomBot
>>> from shengji.bots.driver import play_match
"""

from __future__ import annotations

import random
from typing import Final

from shengji.bots.burial_inference import played_by, rebury
from shengji.core.cards import points
from shengji.core.determinize import known_voids, unseen_cards
from shengji.core.follow import Lead, analyse_lead, follow_refusal
from shengji.core.match import team_of
from shengji.core.order import TRUMP, TrumpContext
from shengji.core.tricks import trick_winner
from shengji.core.views import DealView

KITTY: Final = -1
"""Pseudo-seat for kitty cards in a guess."""
FOLLOW_TRIES: Final = 40
"""Worlds drawn before giving up on the follows' structure evidence."""

TRUST: Final = {("duck", False, True): 0.95, ("duck", False, False): 0.8,
         ("duck", True, True): 0.8, ("duck", True, False): 0.7,
         ("beat", False, True): 0.8, ("beat", False, False): 0.75,
         ("beat", True, True): 0.7, ("beat", True, False): 0.6}
"""Chance a world keeps a tell, by ``(kind, led suit is trump, the trick's last seat)``."""
TRUST_NO_RUFF: Final = 0.9
"""Chance a world keeps a declined ruff: among heuristic players, a seat void in the led
side suit that let an opponent keep points on the table held no trump that would have
taken them (see ``tells``)."""

Tell = tuple[int, int, int, int, float]
"""``(seat, suit, lo, hi, trust)``: the seat most likely holds no card of the effective
suit at a position strictly between ``lo`` and ``hi``; a world keeps it with ``trust``."""

Follow = tuple[int, Lead, tuple[int, ...], list[int]]
"""A past follow that the structure rule constrains: ``(seat, lead, play, cards the seat
played after it)``."""


def sample_hidden(
    view: DealView,
    rng: random.Random,
    tries: int = 20,
    follows: bool = True,
    evidence: list[Follow] | None = None,
    tells: list[Tell] | None = None,
    burial: bool = False,
) -> tuple[list[list[int]], list[int]]:
    """Hands (count vectors, the viewer's own included) and kitty of one random world
    (``follows=False``: without the follows' structure evidence; ``evidence``: that
    evidence already worked out by ``structured_follows(view)``, for many draws; ``tells``:
    the soft evidence of ``tells(view)`` to weigh in, none when None; ``burial``: the kitty
    another seat buried made what it would have buried, ``burial_inference.rebury``)."""
    assert view.seat is not None
    ctx = view.ctx
    players = view.ruleset.players
    unseen = unseen_cards(view)
    need = {s: view.hand_sizes[s] for s in range(players) if s != view.seat}
    kitty_size = 0 if view.kitty is not None else len(unseen) - sum(need.values())
    voids = known_voids(view)
    pinned: dict[int, list[int]] = {}
    decl = view.declaration
    if decl is not None and decl.seat != view.seat and decl.seat != view.kitty_holder:
        still = list(decl.cards)
        for c in view.played_cards:
            if c in still and _played_by(view, decl.seat, c):
                still.remove(c)
        pinned[decl.seat] = still
    holder = view.kitty_holder
    if view.shown and holder is not None and holder != view.seat:
        # 竞标: the shown kitty cards went to the kitty's taker; those not played since are
        # in that hand or back in the kitty.
        still = [c for c in view.shown if c in unseen]
        for c in view.played_cards:
            if c in still and _played_by(view, holder, c):
                still.remove(c)
        shown_left = still
    else:
        shown_left = []
    friend_pin = _friend_holders(view, unseen, voids)
    if not follows:
        evidence = []
    elif evidence is None:
        evidence = structured_follows(view)
    fallback: tuple[list[list[int]], list[int]] | None = None
    for _ in range(FOLLOW_TRIES if evidence else tries):
        pins = dict(pinned)
        if shown_left:
            pins = _place_shown(rng, shown_left, holder, need, kitty_size, pins)
        if friend_pin is not None:
            card, seats = friend_pin
            seat = rng.choices(seats, weights=[need[p] for p in seats])[0]
            pins = {**pins, seat: [*pins.get(seat, []), card]}
        gaps = _kept_tells(tells, rng, players) if tells else None
        world = _try(view, rng, unseen, need, kitty_size, voids, pins, ctx is not None, gaps)
        if world is None and gaps is not None:  # the tells kept cannot all hold: drop them
            world = _try(view, rng, unseen, need, kitty_size, voids, pins, ctx is not None)
        if world is None:
            continue
        if burial and holder is not None and holder not in pins:
            rebury(view, world[0], world[1], voids)
        if not evidence or follows_hold(view, world[0], evidence):
            return world
        fallback = world
    if fallback is not None:
        return fallback
    # Constraints too tight to satisfy at random: drop the voids, keep the counts.
    world = _try(view, rng, unseen, need, kitty_size, [set() for _ in voids], {}, False)
    assert world is not None
    return world


def structured_follows(view: DealView) -> list[Follow]:
    """The other seats' follows of a lead with structure (pairs, tractors) made with as
    many cards of the led suit as were led: the rule then said which shapes they owed."""
    ctx = view.ctx
    if ctx is None:
        return []
    tricks = _tricks(view)
    out: list[Follow] = []
    later: dict[int, list[int]] = {}
    for plays in reversed(tricks):
        lead = analyse_lead(plays[0][1], ctx, view.ruleset) if len(plays[0][1]) > 1 else None
        for seat, cards in reversed(plays):
            if (
                lead is not None and lead.has_structure and seat != view.seat
                and seat != plays[0][0]
                and sum(1 for c in cards if ctx.esuit[c] == lead.suit) == lead.size
            ):
                out.append((seat, lead, tuple(cards), list(later.get(seat, ()))))
            later.setdefault(seat, []).extend(cards)
    return out


def tells(view: DealView) -> list[Tell]:
    """The other seats' follows of a single lead, in the led suit, while an opponent's card
    of it was winning: a duck under it (nothing above it), or a beat (nothing between it
    and the card that beat it); and from a seat void in a led side suit, a declined ruff of
    points (``_declined_ruff``: no trump that would have taken them). Fixed partnerships
    only; a tell that a later play of the seat shows false (it played a card of that range
    later) is left out.
    tests/bots/test_inference.py checks them on seeded deals."""
    ctx = view.ctx
    rs = view.ruleset
    if ctx is None or rs.partnership != "fixed":
        return []
    tricks = _tricks(view)
    out: list[Tell] = []
    later: dict[int, list[int]] = {}
    for plays in reversed(tricks):
        lead = plays[0][1]
        suit = ctx.esuit[lead[0]]
        for i in range(1, len(plays) if len(lead) == 1 else 0):
            seat, cards = plays[i]
            followed = ctx.esuit[cards[0]] == suit
            if seat == view.seat or (not followed and suit == TRUMP):
                continue
            wi = trick_winner([c for _, c in plays[:i]], ctx, rs)
            wseat, win = plays[wi][0], plays[wi][1][0]
            if team_of(wseat) == team_of(seat):
                continue
            if not followed:  # void in the led side suit: did it ruff the points?
                gap = _declined_ruff(plays[:i], cards[0], win, ctx)
                if gap is not None and not any(
                    ctx.esuit[c] == TRUMP and gap[0] < ctx.pos[c] < gap[1]
                    for c in later.get(seat, ())
                ):
                    out.append((seat, TRUMP, gap[0], gap[1], TRUST_NO_RUFF))
                continue
            if ctx.esuit[win] != suit:
                continue
            top, mine = ctx.pos[win], ctx.pos[cards[0]]
            lo, hi = (top, 1 << 30) if mine < top else (top, mine)
            if lo + 1 >= hi or any(
                ctx.esuit[c] == suit and lo < ctx.pos[c] < hi for c in later.get(seat, ())
            ):
                continue
            kind = "duck" if mine < top else "beat"
            out.append((seat, suit, lo, hi, TRUST[kind, suit == TRUMP, i == rs.players - 1]))
        for seat, cards in plays:
            later.setdefault(seat, []).extend(cards)
    return out


def _declined_ruff(
    before: tuple[tuple[int, tuple[int, ...]], ...], mine: int, win: int, ctx: TrumpContext
) -> tuple[int, int] | None:
    """The trumps a seat void in a led side suit most likely lacked, when an opponent's
    ``win`` held points it did not take: with ``mine`` not a trump, every trump (or every
    trump above ``win`` when that is one: it did not over-ruff); with a trump below ``win``,
    those above ``win``. None when it took the trick, no points were on it, or no trump
    ranks above ``win``.

    >>> from shengji.core.cards import parse_cards as p
    >>> from shengji.core.order import context
    >>> ctx = context(0, 0, False, False)  # level 2, spades trump
    >>> hk, c3, s3 = p("HK C3 S3")
    >>> _declined_ruff(((0, (hk,)),), c3, hk, ctx)  # no trump would have taken the K
    (-1, 1073741824)
    >>> _declined_ruff(((0, (hk,)), (1, (s3,))), c3, s3, ctx) == (ctx.pos[s3], 1 << 30)
    True
    """
    if not any(points(c) for _, cards in before for c in cards):
        return None
    top = ctx.pos[win] if ctx.esuit[win] == TRUMP else -1
    if ctx.esuit[mine] == TRUMP and ctx.pos[mine] > top:
        return None  # it ruffed (or over-ruffed) and holds the trick
    if top >= len(ctx.pos_faces[TRUMP]) - 1:
        return None  # nothing ranks above the winning trump: nothing to tell
    return (top, 1 << 30)


def _tricks(view: DealView) -> list[tuple[tuple[int, tuple[int, ...]], ...]]:
    """The plays of every trick so far, the one on the table last."""
    tricks = [t.plays for t in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    return tricks


def _kept_tells(
    tells: list[Tell], rng: random.Random, players: int
) -> list[dict[int, list[tuple[int, int]]]]:
    """Per seat, suit -> the ranges of positions it holds nothing in, of the tells this
    world keeps."""
    gaps: list[dict[int, list[tuple[int, int]]]] = [{} for _ in range(players)]
    for seat, suit, lo, hi, trust in tells:
        if rng.random() < trust:
            gaps[seat].setdefault(suit, []).append((lo, hi))
    return gaps


def follows_hold(view: DealView, hands: list[list[int]], follows: list[Follow]) -> bool:
    """Whether every constrained follow was legal with the hand ``hands`` implies."""
    ctx = view.ctx
    assert ctx is not None
    for seat, lead, play, since in follows:
        then = list(hands[seat])
        for c in (*play, *since):
            then[c] += 1
        if follow_refusal(lead, then, play, ctx) is not None:
            return False
    return True


def _place_shown(
    rng: random.Random,
    cards: list[int],
    holder: int | None,
    need: dict[int, int],
    kitty_size: int,
    pinned: dict[int, list[int]],
) -> dict[int, list[int]]:
    """Pin each shown card to the kitty's taker or to the kitty, in proportion to room."""
    assert holder is not None
    out = {s: list(v) for s, v in pinned.items()}
    hand = out.setdefault(holder, [])
    in_kitty: list[int] = []
    for c in cards:
        room_hand = need.get(holder, 0) - len(hand)
        room_kitty = kitty_size - len(out.get(KITTY, [])) - len(in_kitty)
        if room_hand <= 0 and room_kitty <= 0:
            break
        if rng.random() * (room_hand + room_kitty) < room_hand:
            hand.append(c)
        else:
            in_kitty.append(c)
    if in_kitty:
        out[KITTY] = [*out.get(KITTY, []), *in_kitty]
    return out


def _friend_holders(
    view: DealView, unseen: list[int], voids: list[set[int]]
) -> tuple[int, list[int]] | None:
    """找朋友: ``(card, seats)`` when a hidden friend surely exists and the viewer cannot be
    it — a non-friend has played the called card — so one of ``seats`` holds a copy."""
    call, dealer, ctx = view.friend_call, view.dealer, view.ctx
    if (
        call is None or dealer is None or view.friend is not None or ctx is None
        or view.ruleset.friend_rule != "nearest-holder" or call.card not in unseen
    ):
        return None
    cands = view.friend_candidates
    if view.seat in cands or not any(
        s != dealer and call.card in cards
        for t in [*(t.plays for t in view.tricks), view.trick] for s, cards in t
    ):
        return None
    suit = ctx.esuit[call.card]
    seats = [p for p in cands if view.hand_sizes[p] and suit not in voids[p]]
    return (call.card, seats) if seats else None


def _played_by(view: DealView, seat: int, card: int) -> bool:
    return card in played_by(view, seat)


def _try(
    view: DealView,
    rng: random.Random,
    unseen: list[int],
    need: dict[int, int],
    kitty_size: int,
    voids: list[set[int]],
    pinned: dict[int, list[int]],
    use_voids: bool,
    gaps: list[dict[int, list[tuple[int, int]]]] | None = None,
) -> tuple[list[list[int]], list[int]] | None:
    ctx = view.ctx
    players = view.ruleset.players
    hands = [[0] * 54 for _ in range(players)]
    hands[view.seat if view.seat is not None else 0] = list(view.hand_counts)
    left = dict(need)
    pool = list(unseen)
    kitty: list[int] = []
    for seat, cards in pinned.items():
        for c in cards:
            if c not in pool:
                continue
            if seat == KITTY:
                if len(kitty) < kitty_size:
                    pool.remove(c)
                    kitty.append(c)
            elif left[seat] > 0:
                pool.remove(c)
                hands[seat][c] += 1
                left[seat] -= 1
    rng.shuffle(pool)
    # Most constrained cards first: those few seats may hold.
    def holders(c: int) -> list[int]:
        if not use_voids or ctx is None:
            return [s for s in left if left[s] > 0]
        suit = ctx.esuit[c]
        if gaps is None:
            return [s for s in left if left[s] > 0 and suit not in voids[s]]
        p = ctx.pos[c]
        return [s for s in left if left[s] > 0 and suit not in voids[s]
                and not any(lo < p < hi for lo, hi in gaps[s].get(suit, ()))]

    pool.sort(key=lambda c: len(holders(c)))
    for c in pool:
        options = holders(c)
        room_kitty = len(kitty) < kitty_size
        if not options and not room_kitty:
            return None
        weights = [left[s] for s in options] + ([kitty_size - len(kitty)] if room_kitty else [])
        pick = rng.choices([*options, KITTY] if room_kitty else options, weights=weights)[0]
        if pick == KITTY:
            kitty.append(c)
        else:
            hands[pick][c] += 1
            left[pick] -= 1
    if any(left.values()) or len(kitty) != kitty_size:
        return None
    return hands, kitty if view.kitty is None else list(view.kitty)
