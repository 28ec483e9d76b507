"""Typed game actions (protocol v3): what a client's ``act`` may carry instead of an action
text, and the form a room's log keeps an action in.

On the wire an action names no seat (the connection's seat is the actor) and its cards
are parsed once, here, into the engine's action: ``{"type": "play", "cards": "SA SA"}``
from seat 2 is ``Play(2, (12, 12))``. The room log keeps each applied action as JSON
(``logged``: ``{"seat": 2, "act": {"type": "play", "cards": "SA SA"}}``); ``read_logged``
reads that and the action texts older logs hold (``"play 2 SA SA"``).

>>> to_action(PlayCards(cards="SA SA"), 2)
Play(seat=2, cards=(12, 12))
>>> logged(to_action(CallCard(nth=1, card="HA"), 0))
'{"seat":0,"act":{"type":"call","nth":1,"card":"HA"}}'
>>> read_logged(logged(to_action(CallCard(nth=1, card="HA"), 0))) == read_logged("call 0 1 HA")
True
"""

from __future__ import annotations

import msgspec

from shengji.core.actions import (
    SYSTEM,
    Bid,
    Bury,
    CallFriend,
    Deal,
    Declare,
    MatchAction,
    NameTrump,
    Pass,
    Play,
    Redeal,
    parse_match_action,
)
from shengji.core.cards import cards_str, parse_cards, parse_trump, trump_str
from shengji.core.errors import NotationError

__all__ = [
    "BidTarget",
    "BuryCards",
    "CallCard",
    "DealCard",
    "DeclareCards",
    "LoggedAction",
    "NameSuit",
    "PassTurn",
    "PlayCards",
    "RedealAll",
    "TypedAction",
    "logged",
    "read_logged",
    "to_action",
    "typed",
]


class _Typed(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of the typed actions."""


class PlayCards(_Typed, tag="play"):
    """Play ``cards`` to the trick: ``{"type": "play", "cards": "SA SA"}``."""

    cards: str


class BuryCards(_Typed, tag="bury"):
    """Bury ``cards`` in the kitty."""

    cards: str


class DeclareCards(_Typed, tag="declare"):
    """Declare (亮主, 反主, 反底) by showing ``cards``: ``{"type": "declare", "cards":
    "H2 H2"}``."""

    cards: str


class PassTurn(_Typed, tag="pass"):
    """Pass (the declaration window, the auction)."""


class BidTarget(_Typed, tag="bid"):
    """竞标: bid ``target`` points."""

    target: int


class NameSuit(_Typed, tag="trump"):
    """竞标: name the trump ``suit`` (``S``, ``H``, ``D``, ``C``, or ``N``: no trump)."""

    suit: str


class CallCard(_Typed, tag="call"):
    """找朋友: whoever else plays the ``nth`` copy of ``card`` is my friend."""

    nth: int
    card: str


class DealCard(_Typed, tag="deal"):
    """The next card dealt (the room's own action; never from a client)."""


class RedealAll(_Typed, tag="redeal"):
    """The current deal dealt again (the room's own action; never from a client)."""


TypedAction = PlayCards | BuryCards | DeclareCards | PassTurn | BidTarget | NameSuit | CallCard
"""The actions a client may send typed."""


class LoggedAction(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """A room log row's action: the seat that acted and what it did."""

    seat: int = SYSTEM
    act: TypedAction | DealCard | RedealAll


_log_decoder = msgspec.json.Decoder(LoggedAction)
_encoder = msgspec.json.Encoder()


def _cards(text: str) -> tuple[int, ...]:
    cards = tuple(parse_cards(text))
    if not cards:
        raise NotationError("no cards")
    return cards


def to_action(typed: TypedAction | DealCard | RedealAll, seat: int) -> MatchAction:
    """The engine's action ``typed`` stands for, by ``seat``; ``NotationError`` for cards or
    a suit that do not parse."""
    match typed:
        case PlayCards(cards=c):
            return Play(seat, _cards(c))
        case BuryCards(cards=c):
            return Bury(seat, tuple(parse_cards(c)))
        case DeclareCards(cards=c):
            return Declare(seat, _cards(c))
        case PassTurn():
            return Pass(seat)
        case BidTarget(target=n):
            return Bid(seat, n)
        case NameSuit(suit=s):
            return NameTrump(seat, parse_trump(s))
        case CallCard(nth=n, card=c):
            card = parse_cards(c)
            if len(card) != 1:
                raise NotationError(f"call one card, not {c!r}")
            return CallFriend(seat, card[0], n)
        case DealCard():
            return Deal()
        case RedealAll():
            return Redeal()
    raise NotationError(f"unknown action {typed!r}")  # pragma: no cover


def typed(action: MatchAction) -> TypedAction | DealCard | RedealAll:
    """The typed form of an engine action (its seat apart)."""
    match action:
        case Play(cards=c):
            return PlayCards(cards=cards_str(c))
        case Bury(cards=c):
            return BuryCards(cards=cards_str(c))
        case Declare(cards=c):
            return DeclareCards(cards=cards_str(c))
        case Pass():
            return PassTurn()
        case Bid(target=n):
            return BidTarget(target=n)
        case NameTrump(trump=t):
            return NameSuit(suit=trump_str(t))
        case CallFriend(card=c, nth=n):
            return CallCard(nth=n, card=cards_str((c,)))
        case Deal():
            return DealCard()
        case Redeal():
            return RedealAll()
    raise TypeError(f"not an action: {action!r}")  # pragma: no cover


def logged(action: MatchAction) -> str:
    """An applied action as its room log row keeps it (JSON)."""
    return _encoder.encode(LoggedAction(seat=action.seat, act=typed(action))).decode()


def read_logged(data: str) -> MatchAction:
    """A room log row's action: the JSON ``logged`` writes, or an older log's action text
    (``"play 2 SA SA"``, ``"deal"``, ``"redeal"``)."""
    if data.lstrip().startswith("{"):
        row = _log_decoder.decode(data)
        return to_action(row.act, row.seat)
    return parse_match_action(data)
