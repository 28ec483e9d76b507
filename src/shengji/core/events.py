"""Typed events: everything that happens in a deal, with who may see it (values: never
mutate one; they are not frozen only because frozen dataclasses are slow to build).

An event's ``audience`` is None when every seat (and spectators) may see it, else the one
seat that may. ``visible(events, seat)`` filters a list for a seat.

>>> from shengji.core.cards import parse_cards as p
>>> evs = [CardDealt(audience=1, seat=1, card=12), Played(audience=None, seat=0, cards=(12,))]
>>> [type(e).__name__ for e in visible(evs, 2)]
['Played']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(slots=True)
class Event:
    """Base class; ``audience`` None = public."""

    audience: int | None


@dataclass(slots=True)
class DealStarted(Event):
    """A new deal: who deals first (None on a first deal decided by declaration), the level;
    ``rights`` (亮牌权): the seats that contest the deal by declaring, each at its own level
    (empty: everyone, at ``level``)."""

    dealer: int | None
    level: int
    deal_no: int
    rights: tuple[int, ...] = ()


@dataclass(slots=True)
class CardDealt(Event):
    """A card reached a seat (private to that seat)."""

    seat: int
    card: int

    def __init__(self, audience: int | None, seat: int, card: int) -> None:
        self.audience = audience
        self.seat = seat
        self.card = card


@dataclass(slots=True)
class CardCountDealt(Event):
    """Public counterpart of ``CardDealt``: a card went to ``seat``."""

    seat: int

    def __init__(self, audience: int | None, seat: int) -> None:
        self.audience = audience
        self.seat = seat


@dataclass(slots=True)
class Declared(Event):
    """A seat showed level cards or jokers (亮主 / 反主 / 自保 / 自反 / 反底)."""

    seat: int
    cards: tuple[int, ...]
    trump: int
    overturn: bool
    rebury: bool
    dealer_to_be: int | None = None
    """A first deal's open declarations: who deals if nothing else is declared (the first
    declarer, or this one where an overturn takes the seat); None otherwise."""

    def __init__(
        self,
        audience: int | None,
        seat: int,
        cards: tuple[int, ...],
        trump: int,
        overturn: bool,
        rebury: bool,
        dealer_to_be: int | None = None,
    ) -> None:
        self.audience = audience
        self.seat = seat
        self.cards = cards
        self.trump = trump
        self.overturn = overturn
        self.rebury = rebury
        self.dealer_to_be = dealer_to_be


@dataclass(slots=True)
class Passed(Event):
    """A seat passed in the declaration window or the 反底 round."""

    seat: int

    def __init__(self, audience: int | None, seat: int) -> None:
        self.audience = audience
        self.seat = seat


@dataclass(slots=True)
class WindowTurn(Event):
    """Hidden declarations: a seat took its turn in the window (declared or passed)."""

    seat: int


@dataclass(slots=True)
class KittyShown(Event):
    """竞标: kitty cards turned up for everyone before the auction."""

    cards: tuple[int, ...]


@dataclass(slots=True)
class BidMade(Event):
    """竞标: a seat bid ``target`` as the attackers' target (a pass is ``Passed``)."""

    seat: int
    target: int


@dataclass(slots=True)
class AuctionWon(Event):
    """竞标: the auction is over; ``dealer`` deals alone at its own ``level`` and the
    attackers need ``target`` points."""

    dealer: int
    target: int
    level: int


@dataclass(slots=True)
class TrumpFixed(Event):
    """Trump and dealer are settled; ``turned`` is the kitty card turned up, if any."""

    trump: int
    dealer: int
    declarer: int | None
    turned: int | None


@dataclass(slots=True)
class KittyTaken(Event):
    """The kitty holder picked up the kitty (cards private to the holder)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(slots=True)
class KittyBuried(Event):
    """Cards buried; ``cards`` is empty in the public copy."""

    seat: int
    cards: tuple[int, ...]
    count: int


@dataclass(slots=True)
class FriendCalled(Event):
    """找朋友: the dealer called ``card`` (``nth``: which copy counts; always 1 under the
    nearest-holder rule, where the holder nearest the dealer is the friend)."""

    seat: int
    card: int
    nth: int


@dataclass(slots=True)
class FriendRevealed(Event):
    """找朋友: ``seat`` (the friend) played the called card and joins the dealer's side."""

    seat: int
    card: int


@dataclass(slots=True)
class NotFriend(Event):
    """找朋友 (nearest-holder rule): ``seat`` played a copy of the called ``card`` before the
    friend was revealed and is not the friend — a seat nearer the dealer holds one. Public:
    anyone can tell it from the rule, since the friend's own copy would have revealed it."""

    seat: int
    card: int


@dataclass(slots=True)
class ThrowFailed(Event):
    """A throw (甩牌) failed: ``forced`` is what was played instead."""

    seat: int
    attempted: tuple[int, ...]
    forced: tuple[int, ...]
    penalty: int

    def __init__(
        self,
        audience: int | None,
        seat: int,
        attempted: tuple[int, ...],
        forced: tuple[int, ...],
        penalty: int,
    ) -> None:
        self.audience = audience
        self.seat = seat
        self.attempted = attempted
        self.forced = forced
        self.penalty = penalty


@dataclass(slots=True)
class Played(Event):
    """Cards played to the current trick."""

    seat: int
    cards: tuple[int, ...]

    def __init__(self, audience: int | None, seat: int, cards: tuple[int, ...]) -> None:
        self.audience = audience
        self.seat = seat
        self.cards = cards


@dataclass(slots=True)
class TrickWon(Event):
    """A trick is complete."""

    trick_no: int
    winner: int
    points: int
    attacker_points: int

    def __init__(
        self, audience: int | None, trick_no: int, winner: int, points: int, attacker_points: int
    ) -> None:
        self.audience = audience
        self.trick_no = trick_no
        self.winner = winner
        self.points = points
        self.attacker_points = attacker_points


@dataclass(slots=True)
class KittyRevealed(Event):
    """After the last trick: the kitty, its points and what the attackers got from it."""

    cards: tuple[int, ...]
    points: int
    multiplier: int
    attacker_gain: int


@dataclass(slots=True)
class DealEnded(Event):
    """The deal is over: final attacker points and the level change."""

    attacker_points: int
    defender_levels: int
    attacker_levels: int
    attackers_take_over: bool
    stake: int


@dataclass(slots=True)
class DealReset(Event):
    """The current deal is dealt again from a fresh shuffle (``Redeal``, agreed by the
    table); ``DealStarted`` follows. ``redeals``: how often this deal was dealt again."""

    deal_no: int
    redeals: int


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator sees the public ones)."""
    return [e for e in events if e.audience is None or e.audience == seat]
