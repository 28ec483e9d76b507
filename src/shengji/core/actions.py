"""Actions: frozen, hashable values with a text form that round-trips.

>>> from shengji.core.cards import parse_cards as p
>>> str(Play(2, tuple(p("SA SA SK"))))
'play 2 SA SA SK'
>>> parse_action("play 2 SA SA SK") == Play(2, tuple(p("SA SA SK")))
True
"""

from __future__ import annotations

from dataclasses import dataclass

from shengji.core.cards import cards_str, parse_cards
from shengji.core.errors import NotationError

SYSTEM = -1
"""The 'seat' that deals the cards (``to_act`` while dealing)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next card (the system's action while dealing)."""

    seat: int = SYSTEM

    def __str__(self) -> str:
        return "deal"


@dataclass(frozen=True, slots=True)
class Declare:
    """Show level cards or jokers to name (or overturn) trump, or to 反底 after the burial."""

    seat: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"declare {self.seat} {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to declare (declaration window, 反底 round)."""

    seat: int

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True, slots=True)
class Bury:
    """Put cards back as the kitty (扣底)."""

    seat: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"bury {self.seat} {cards_str(self.cards)}"


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow in a trick."""

    seat: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"play {self.seat} {cards_str(self.cards)}"


Action = Deal | Declare | Pass | Bury | Play


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
