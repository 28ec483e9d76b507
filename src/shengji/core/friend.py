"""Find a friend (找朋友, 边锋 "寻"; RULES.md §8): the dealer's call and who it reveals.

After the burial the dealer names a card and which copy counts: "the first SA", "the
second SA"… Only copies played by *other* seats are counted, in play order; the seat that
plays the counted copy becomes the dealer's friend, and everyone sees it then. So with two
decks "the first SA" means: the dealer holds one SA → whoever holds the other is the friend;
the dealer holds none → the first other seat to play one; the dealer holds both (or the
copies lie in the kitty) → nobody can play it and the dealer plays one against three.

>>> from shengji.core.cards import parse_card as c
>>> call = FriendCall(c("SA"), 1)
>>> str(call)
'1 SA'
>>> friend_after_play(call, dealer=0, seen=0, seat=2, cards=(c("SA"),))
(1, True)
>>> friend_after_play(call, dealer=0, seen=0, seat=0, cards=(c("SA"),))
(0, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from shengji.core.cards import card_str, parse_card
from shengji.core.errors import NotationError


@dataclass(frozen=True, slots=True)
class FriendCall:
    """The dealer's call: the ``nth`` (1-based) copy of ``card`` played by another seat."""

    card: int
    nth: int

    def __str__(self) -> str:
        return f"{self.nth} {card_str(self.card)}"


def parse_call(text: str) -> FriendCall:
    """Inverse of ``str(call)``: ``"2 HA"`` → the second HA."""
    parts = text.split()
    if len(parts) != 2 or not parts[0].isdigit():
        raise NotationError(f"bad friend call {text!r}: expected '<nth> <card>', e.g. '1 SA'")
    return FriendCall(parse_card(parts[1]), int(parts[0]))


def friend_after_play(
    call: FriendCall, dealer: int, seen: int, seat: int, cards: Iterable[int]
) -> tuple[int, bool]:
    """Copies counted after ``seat`` plays ``cards`` (``seen`` before), and whether that
    play holds the counted copy (a pair of SA counts as two copies, in order)."""
    if seat == dealer:
        return seen, False
    n = sum(1 for c in cards if c == call.card)
    return seen + n, seen < call.nth <= seen + n


def copies_seen(
    call: FriendCall, dealer: int, plays: Iterable[tuple[int, Iterable[int]]]
) -> tuple[int, int | None]:
    """Replay ``(seat, cards)`` plays in order: copies counted and the friend, if found."""
    seen, friend = 0, None
    for seat, cards in plays:
        seen, hit = friend_after_play(call, dealer, seen, seat, cards)
        if hit and friend is None:
            friend = seat
    return seen, friend
