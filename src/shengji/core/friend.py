"""Find a friend (找朋友, 边锋 "寻"; RULES.md §8): the dealer's call and who it makes the friend.

After the burial the dealer names a card. Seed 002: "如果庄家自己有其中一张，则拿到另外一张的玩家为
其对家，如果庄自己没有该牌，则按出牌顺序，靠近庄家的有该牌的玩家和他是对家，如果庄家自己拿到2张该牌，
则庄家一打三" — under ``Ruleset.friend_rule == "nearest-holder"`` (every preset) the friend is
the seat nearest the dealer in play order (the dealer's next seat first) that *holds* a copy
when the call is made; nobody but the dealer (and the kitty) holding one → the dealer plays
alone. The friend is fixed at the call and hidden until it plays a copy of the card; any
other seat that plays a copy first is thereby shown not to be the friend (a nearer seat
holds one). The option ``"nth-played"`` is the other common table rule: the seat that plays
the ``nth`` copy of the card among the other seats becomes the friend (the dealer may then
call "the second SA").

>>> from shengji.core.cards import counts_of, parse_card as c, parse_cards as p
>>> hands = [counts_of(p(h)) for h in ("S3", "H4", "SA", "SA")]   # seat 0 deals
>>> nearest_holder(c("SA"), 0, hands)                               # not seat 3
2
>>> candidates(FriendCall(c("SA"), 1), 0, 4, 2, [(3, (c("SA"),))], None)
(1, 2)
>>> friend_after_play(FriendCall(c("SA"), 1), dealer=0, seen=0, seat=2, cards=(c("SA"),))
(1, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shengji.core.cards import card_str, parse_card
from shengji.core.errors import NotationError


@dataclass(frozen=True, slots=True)
class FriendCall:
    """The dealer's call: ``card``, and which copy counts (``nth``, 1-based; always 1 under
    the nearest-holder rule, where the card alone decides)."""

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


def play_order(dealer: int, players: int) -> list[int]:
    """The other seats in play order from the dealer: ``play_order(3, 5) == [4, 0, 1, 2]``."""
    return [(dealer + i) % players for i in range(1, players)]


def nearest_holder(card: int, dealer: int, hands: Sequence[Sequence[int]]) -> int | None:
    """The friend under the nearest-holder rule: the first seat after the dealer in play
    order whose hand (a count vector) holds ``card``; None when no other seat does."""
    for seat in play_order(dealer, len(hands)):
        if hands[seat][card]:
            return seat
    return None


def call_allowed(rule: str, decks: int, hand: Sequence[int], card: int) -> bool:
    """Whether the dealer holding ``hand`` may call ``card`` (``Ruleset.friend_call``):
    under ``other-copy`` only a card it holds some but not all copies of, unless it holds
    no such card.

    >>> from shengji.core.cards import counts_of, parse_card as c, parse_cards as p
    >>> hand = counts_of(p("SA HK HK"))
    >>> call_allowed("other-copy", 2, hand, c("SA")), call_allowed("other-copy", 2, hand, c("HK"))
    (True, False)
    """
    if rule != "other-copy" or 0 < hand[card] < decks:
        return True
    return not any(0 < hand[k] < decks for k in range(54))


def candidates(
    call: FriendCall,
    dealer: int,
    players: int,
    decks: int,
    plays: Iterable[tuple[int, Iterable[int]]],
    friend: int | None,
    viewer: int | None = None,
    held: int = 0,
    kitty: Iterable[int] = (),
) -> tuple[int, ...]:
    """Seats that may still be the friend, nearest first, as ``viewer`` can tell (nearest-
    holder rule; ``viewer`` None: anyone at the table).

    Public facts: a seat other than the dealer that plays a copy without being revealed is
    not the friend, and neither is any seat farther from the dealer (the friend holds a copy
    nearer); every copy played without a reveal → nobody (the dealer is alone). The viewer
    adds its own ``held`` copies and the ``kitty`` it saw: holding one, no farther seat can
    be the friend; holding none, it is not; no copy left unaccounted for → nobody else.
    """
    if friend is not None:
        return (friend,)
    order = play_order(dealer, players)
    played = 0
    for seat, cards in plays:
        n = sum(1 for c in cards if c == call.card)
        played += n
        if n and seat != dealer and seat in order:
            order = order[: order.index(seat)]
    unaccounted = decks - played - held - sum(1 for c in kitty if c == call.card)
    if viewer is not None and viewer != dealer and viewer in order:
        if held:
            if unaccounted <= 0:  # nobody else holds one
                return (viewer,)
            return tuple(order[: order.index(viewer) + 1])
        order.remove(viewer)
    if unaccounted <= 0:
        return ()
    return tuple(order)


def friend_after_play(
    call: FriendCall, dealer: int, seen: int, seat: int, cards: Iterable[int]
) -> tuple[int, bool]:
    """``nth-played`` rule: copies counted after ``seat`` plays ``cards`` (``seen`` before),
    and whether that play holds the counted copy (a pair of SA counts as two, in order)."""
    if seat == dealer:
        return seen, False
    n = sum(1 for c in cards if c == call.card)
    return seen + n, seen < call.nth <= seen + n


def copies_seen(
    call: FriendCall, dealer: int, plays: Iterable[tuple[int, Iterable[int]]]
) -> tuple[int, int | None]:
    """``nth-played`` rule: replay ``(seat, cards)`` plays in order: copies counted and the
    friend, if found."""
    seen, friend = 0, None
    for seat, cards in plays:
        seen, hit = friend_after_play(call, dealer, seen, seat, cards)
        if hit and friend is None:
            friend = seat
    return seen, friend
