"""Actions: frozen, hashable values with a text form that round-trips.

>>> from shengji.core.cards import parse_cards as p
>>> str(Play(2, tuple(p("SA SA SK"))))
'play 2 SA SA SK'
>>> parse_action("play 2 SA SA SK") == Play(2, tuple(p("SA SA SK")))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from shengji.core.cards import cards_str, parse_cards, parse_trump, trump_str
from shengji.core.errors import NotationError

SYSTEM: Final = -1
"""The 'seat' that deals the cards (``to_act`` while dealing)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next card (the system's action while dealing)."""

    seat: int = SYSTEM

    def __init__(self, seat: int = SYSTEM) -> None:
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return "deal"


@dataclass(frozen=True, slots=True)
class Declare:
    """Show level cards or jokers to name (or overturn) trump, or to 反底 after the burial."""

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"declare {self.seat} {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to declare (declaration window, 反底 round)."""

    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True, slots=True)
class Bury:
    """Put cards back as the kitty (扣底)."""

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"bury {self.seat} {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class Bid:
    """竞标: offer to deal with ``target`` as the attackers' target (``bid 1 120``)."""

    seat: int
    target: int

    def __init__(self, seat: int, target: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "target", target)

    def __str__(self) -> str:
        return f"bid {self.seat} {self.target}"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """竞标: the auction's winner names the trump suit (``trump 1 H``)."""

    seat: int
    trump: int

    def __init__(self, seat: int, trump: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "trump", trump)

    def __str__(self) -> str:
        return f"trump {self.seat} {trump_str(self.trump)}"


@dataclass(frozen=True, slots=True)
class CallFriend:
    """找朋友: after the burial the dealer names the ``nth`` copy of ``card`` that another
    seat plays as its friend (``call 0 1 SA``: the first SA; see ``core/friend.py``)."""

    seat: int
    card: int
    nth: int

    def __init__(self, seat: int, card: int, nth: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "nth", nth)

    def __str__(self) -> str:
        return f"call {self.seat} {self.nth} {cards_str((self.card,))}"


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow in a trick."""

    seat: int
    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"play {self.seat} {cards_str(self.cards)}"


Action = Deal | Declare | Pass | Bury | Play | Bid | NameTrump | CallFriend
ACTION_CLASSES: Final = (Deal, Declare, Pass, Bury, Play, Bid, NameTrump, CallFriend)
"""``Action``'s classes as a tuple, for ``isinstance`` on a hot path (``X | Y`` in a call
builds a new union object every time)."""


@dataclass(frozen=True, slots=True)
class Redeal:
    """The table agreed to deal the current deal again: a fresh shuffle, the same dealer,
    level and seat levels (``core/match.py``; the server's reset by vote). A match-level
    action: a deal never sees it.

    >>> parse_match_action("redeal") == Redeal(), str(Redeal())
    (True, 'redeal')
    """

    seat: int = SYSTEM

    def __init__(self, seat: int = SYSTEM) -> None:
        object.__setattr__(self, "seat", seat)

    def __str__(self) -> str:
        return "redeal"


MatchAction = Action | Redeal
"""What a match applies: a deal's actions, and ``Redeal``."""


def parse_match_action(text: str) -> MatchAction:
    """``parse_action``, and ``redeal`` (a record's or a room log's action text)."""
    if text.strip().lower() == "redeal":
        return Redeal()
    return parse_action(text)


def parse_action(text: str) -> Action:
    """Inverse of ``str(action)``."""
    parts = text.split(None, 2)
    if not parts:
        raise NotationError("empty action")
    verb = parts[0].lower()
    if verb == "deal" and len(parts) == 1:
        return Deal()
    if len(parts) < 2 or not parts[1].lstrip("-").isdigit():
        raise NotationError(f"bad action {text!r}: expected '<verb> <seat> [cards]'")
    seat = int(parts[1])
    if verb == "bid" and len(parts) > 2 and parts[2].strip().isdigit():
        return Bid(seat, int(parts[2]))
    if verb == "trump" and len(parts) > 2:
        return NameTrump(seat, parse_trump(parts[2]))
    if verb == "call" and len(parts) > 2:
        nth, _, card = parts[2].partition(" ")
        if not nth.isdigit() or len(parse_cards(card)) != 1:
            raise NotationError(f"bad action {text!r}: expected 'call <seat> <nth> <card>'")
        return CallFriend(seat, parse_cards(card)[0], int(nth))
    cards = tuple(parse_cards(parts[2])) if len(parts) > 2 else ()
    if verb == "pass" and not cards:
        return Pass(seat)
    if verb == "declare" and cards:
        return Declare(seat, cards)
    if verb == "bury":
        return Bury(seat, cards)
    if verb == "play" and cards:
        return Play(seat, cards)
    raise NotationError(f"bad action {text!r}")
