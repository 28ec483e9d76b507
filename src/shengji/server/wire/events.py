"""Game events as clients get them in ``update``: one typed struct per core event
(``core/events.py``), tagged by ``type`` (the event's name in snake case), cards in the
project's notation.

>>> from shengji.core.events import Played
>>> render_event(Played(None, seat=2, cards=(12, 12)))
PlayedEvent(seat=2, cards='SA SA')
>>> msgspec.json.encode(render_event(Played(None, seat=2, cards=(12, 12))))
b'{"type":"played","seat":2,"cards":"SA SA"}'
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeAlias, cast

import msgspec

from shengji.core import events as ev
from shengji.core.cards import LEVELS, card_str, cards_str, trump_str
from shengji.server.wire.views import DealSummary


class EventBase(msgspec.Struct, tag_field="type", kw_only=True):
    """Base of the events in an ``update``."""


class DealStartedEvent(EventBase, tag="deal_started"):
    """A deal begins (``dealer`` null: decided by declaration)."""

    dealer: int | None
    level: str
    deal_no: int
    rights: list[int] = msgspec.field(default_factory=list)
    """v2, 亮牌权: the seats that contest this deal by declaring (empty: everyone)."""


class CardDealtEvent(EventBase, tag="card_dealt"):
    """A card dealt to ``seat`` (only that seat gets this event)."""

    seat: int
    card: str


class CardCountDealtEvent(EventBase, tag="card_count_dealt"):
    """A card dealt to ``seat`` (everyone: which card is hidden)."""

    seat: int


class DeclaredEvent(EventBase, tag="declared"):
    """A declaration (hidden declarations: only to the declarer)."""

    seat: int
    cards: str
    trump: str
    overturn: bool
    rebury: bool
    dealer_to_be: int | None = None


class PassedEvent(EventBase, tag="passed"):
    """A seat passed (the declaration window, 反底, the auction)."""

    seat: int


class WindowTurnEvent(EventBase, tag="window_turn"):
    """Hidden declarations: a seat took its turn (nobody can tell a pass)."""

    seat: int


class KittyShownEvent(EventBase, tag="kitty_shown"):
    """竞标: the kitty cards turned up for everyone."""

    cards: str


class BidMadeEvent(EventBase, tag="bid_made"):
    """竞标: a bid of the attackers' target."""

    seat: int
    target: int


class AuctionWonEvent(EventBase, tag="auction_won"):
    """竞标: the lowest bidder deals alone at its own level."""

    dealer: int
    target: int
    level: str


class TrumpFixedEvent(EventBase, tag="trump_fixed"):
    """Trump is fixed (``turned``: a card turned from the kitty decided it)."""

    trump: str
    dealer: int
    declarer: int | None
    turned: str | None


class KittyTakenEvent(EventBase, tag="kitty_taken"):
    """The kitty's holder takes it (only the holder gets this event)."""

    seat: int
    cards: str


class KittyBuriedEvent(EventBase, tag="kitty_buried"):
    """The kitty is buried (``cards`` empty except for the holder)."""

    seat: int
    cards: str
    count: int


class FriendCalledEvent(EventBase, tag="friend_called"):
    """找朋友: the dealer's call."""

    seat: int
    card: str
    nth: int


class FriendRevealedEvent(EventBase, tag="friend_revealed"):
    """找朋友: ``seat`` played the called copy and joins the dealer's side."""

    seat: int
    card: str


class NotFriendEvent(EventBase, tag="not_friend"):
    """找朋友: ``seat`` played a copy of the called card and is not the friend."""

    seat: int
    card: str


class ThrowFailedEvent(EventBase, tag="throw_failed"):
    """A throw (甩牌) failed: ``forced`` is played instead, the seat's side pays."""

    seat: int
    attempted: str
    forced: str
    penalty: int


class PlayedEvent(EventBase, tag="played"):
    """Cards played into the trick."""

    seat: int
    cards: str


class TrickWonEvent(EventBase, tag="trick_won"):
    """A trick is won."""

    trick_no: int
    winner: int
    points: int
    attacker_points: int


class KittyRevealedEvent(EventBase, tag="kitty_revealed"):
    """The kitty is shown after the last trick, with what it adds to the attackers."""

    cards: str
    points: int
    multiplier: int
    attacker_gain: int


class DealEndedEvent(EventBase, tag="deal_ended"):
    """The deal is over; ``summary`` is the deal-end summary."""

    attacker_points: int
    defender_levels: int
    attacker_levels: int
    attackers_take_over: bool
    stake: int
    summary: DealSummary | None = None


class DealResetEvent(EventBase, tag="deal_reset"):
    """The table agreed to deal this deal again (``deal_started`` follows)."""

    deal_no: int
    redeals: int


WireEvent: TypeAlias = (
    DealStartedEvent
    | CardDealtEvent
    | CardCountDealtEvent
    | DeclaredEvent
    | PassedEvent
    | WindowTurnEvent
    | KittyShownEvent
    | BidMadeEvent
    | AuctionWonEvent
    | TrumpFixedEvent
    | KittyTakenEvent
    | KittyBuriedEvent
    | FriendCalledEvent
    | FriendRevealedEvent
    | NotFriendEvent
    | ThrowFailedEvent
    | PlayedEvent
    | TrickWonEvent
    | KittyRevealedEvent
    | DealEndedEvent
    | DealResetEvent
)

WIRE_EVENTS: dict[type[ev.Event], type[EventBase]] = {
    ev.DealStarted: DealStartedEvent,
    ev.CardDealt: CardDealtEvent,
    ev.CardCountDealt: CardCountDealtEvent,
    ev.Declared: DeclaredEvent,
    ev.Passed: PassedEvent,
    ev.WindowTurn: WindowTurnEvent,
    ev.KittyShown: KittyShownEvent,
    ev.BidMade: BidMadeEvent,
    ev.AuctionWon: AuctionWonEvent,
    ev.TrumpFixed: TrumpFixedEvent,
    ev.KittyTaken: KittyTakenEvent,
    ev.KittyBuried: KittyBuriedEvent,
    ev.FriendCalled: FriendCalledEvent,
    ev.FriendRevealed: FriendRevealedEvent,
    ev.NotFriend: NotFriendEvent,
    ev.ThrowFailed: ThrowFailedEvent,
    ev.Played: PlayedEvent,
    ev.TrickWon: TrickWonEvent,
    ev.KittyRevealed: KittyRevealedEvent,
    ev.DealEnded: DealEndedEvent,
    ev.DealReset: DealResetEvent,
}
"""The wire struct of each core event (tests check that none is missing)."""

_CARD_LISTS = frozenset({"cards", "attempted", "forced"})
_CARDS = frozenset({"card", "turned"})


def _value(name: str, v: Any) -> Any:
    if name in _CARD_LISTS:
        return cards_str(v)
    if name in _CARDS:
        return None if v is None else card_str(v)
    if name == "trump":
        return None if v is None else trump_str(v)
    if name == "level":
        return LEVELS[v]
    if isinstance(v, tuple):
        return list(v)
    return v


_FIELDS: dict[type[ev.Event], tuple[str, ...]] = {
    t: tuple(f.name for f in dataclasses.fields(t) if f.name != "audience") for t in WIRE_EVENTS
}
"""Each core event's fields that go on the wire (all but its audience), read once."""


def render_event(event: ev.Event) -> WireEvent:
    """A core event as its wire struct (the audience stays with the room).

    >>> from shengji.core.cards import parse_cards
    >>> render_event(ev.Played(None, seat=2, cards=tuple(parse_cards("SA SA"))))
    PlayedEvent(seat=2, cards='SA SA')
    """
    kind = type(event)
    cls = WIRE_EVENTS[kind]
    fields = {name: _value(name, getattr(event, name)) for name in _FIELDS[kind]}
    return cast(WireEvent, cls(**fields))
