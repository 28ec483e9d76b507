"""A deal's declarations taken in order: which are accepted, what stands, the trump they fix
and who deals a first deal (RULES.md §5; rules.md Decisions 31–33, 100–102).

The deal state (``state.py``) and the judge's ``declare`` op both use these functions, so a
sequence of declarations has one answer everywhere.

>>> from shengji.core.cards import parse_cards as p, trump_str
>>> from shengji.core.ruleset import PRESETS
>>> out = settle([(1, p("H2")), (2, p("S2 S2")), (3, p("D2"))], 0, PRESETS["classic"])
>>> trump_str(out.trump), out.dealer, [r.kind for r in out.rulings]
('S', 1, ['declare', 'overturn', None])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from shengji.core.bidding import Declaration, make_declaration, refusal, tier
from shengji.core.cards import BJ, LJ, NO_TRUMP, SPADES
from shengji.core.ruleset import Ruleset

DeclarationKind = Literal["declare", "reinforce", "self-overturn", "overturn", "outranked"]
"""What an accepted declaration did: the first one (亮主), the declarer's own stronger one in
the same suit (自保) or another (自反), another seat's (反主); ``outranked``: a hidden (暗叫)
declaration accepted but weaker than another seat's, so it does not stand."""

NOT_A_DECLARATION: Final = "a declaration shows level cards of one suit or identical jokers (2+)"


@dataclass(frozen=True)
class Ruling:
    """What became of one set of cards shown: ``kind`` None means refused, for ``reason``."""

    seat: int
    cards: tuple[int, ...]
    kind: DeclarationKind | None
    reason: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the declaration was taken."""
        return self.kind is not None


@dataclass(frozen=True)
class Settlement:
    """The outcome of a deal's declarations: every ruling, the accepted declarations in order,
    the one that stands, the trump, the kitty card turned up (if that decided trump), and the
    dealer (given, or decided by the declarations in a first deal)."""

    rulings: tuple[Ruling, ...]
    declared: tuple[Declaration, ...]
    standing: Declaration | None
    trump: int
    turned: int | None
    dealer: int


def refusal_now(
    new: Declaration, declared: Sequence[Declaration], standing: Declaration | None,
    ruleset: Ruleset,
) -> str | None:
    """Why ``new`` may not be declared after ``declared`` (``standing`` stands), or None.

    Open styles check it against the standing declaration; hidden (暗叫) only against the
    seat's own earlier one, so a refusal never tells what others showed.
    """
    if ruleset.declaration == "hidden":
        against = next((x for x in reversed(declared) if x.seat == new.seat), None)
    else:
        against = standing
    return refusal(new, against, ruleset)


def standing_after(
    standing: Declaration | None, new: Declaration, ruleset: Ruleset
) -> Declaration:
    """The declaration that stands once ``new`` is accepted: ``new`` itself in the open
    styles (it had to beat the standing one); hidden (暗叫): the stronger, ties to the earlier.
    """
    if standing is None or tier(new, ruleset) > tier(standing, ruleset):
        return new
    return standing


def kind_of(
    new: Declaration, before: Declaration | None, after: Declaration
) -> DeclarationKind:
    """What the accepted ``new`` did, given what stood ``before`` and ``after`` it."""
    if after is not new:
        return "outranked"
    if before is None:
        return "declare"
    if before.seat != new.seat:
        return "overturn"
    return "reinforce" if new.trump == before.trump and not new.joker else "self-overturn"


def first_deal_dealer(
    declared: Sequence[Declaration], standing: Declaration | None, ruleset: Ruleset
) -> int | None:
    """Who deals a first deal, given the accepted declarations in order and the one that
    stands: the first declarer ("开局中，双方争庄，先亮者为庄家"), or the standing declaration's
    seat when ``first_deal_overturn_takes_dealer`` ("第一局翻主翻庄"); None if nobody declared.

    >>> from shengji.core.cards import parse_cards as p
    >>> from shengji.core.ruleset import PRESETS
    >>> rs = PRESETS["classic"]
    >>> h2, s2 = make_declaration(1, p("H2"), 0, rs), make_declaration(2, p("S2 S2"), 0, rs)
    >>> first_deal_dealer([h2, s2], s2, rs)
    1
    >>> first_deal_dealer([h2, s2], s2, PRESETS["tournament"])
    2
    """
    if standing is None or not declared:
        return None
    return standing.seat if ruleset.first_deal_overturn_takes_dealer else declared[0].seat


def fallback_trump(ruleset: Ruleset, kitty: Sequence[int]) -> tuple[int, int | None]:
    """Trump when nobody declared, and the kitty card turned up for it (None if none was):
    no-trump, spades, or the suit of kitty card ``kitty_card_index`` (a joker: no-trump)."""
    if ruleset.no_declaration == "spades":
        return SPADES, None
    if ruleset.no_declaration == "kitty-card" and kitty:
        turned = kitty[min(ruleset.kitty_card_index, len(kitty) - 1)]
        return (NO_TRUMP if turned in (LJ, BJ) else turned // 13), turned
    return NO_TRUMP, None


def settle(
    shown: Sequence[tuple[int, Sequence[int]]],
    level: int,
    ruleset: Ruleset,
    dealer: int | None = None,
    start: int = 0,
    kitty: Sequence[int] = (),
) -> Settlement:
    """Take ``(seat, cards)`` showings in order, as a deal does (seats must be valid).

    ``dealer`` None is a first deal: the declarations decide the dealer, and ``start`` (the
    first seat dealt to) deals when nobody declares. ``kitty`` is needed only when nobody
    declares and a kitty card decides trump.
    """
    declared: list[Declaration] = []
    standing: Declaration | None = None
    rulings: list[Ruling] = []
    for seat, cards in shown:
        d = make_declaration(seat, cards, level, ruleset)
        why = NOT_A_DECLARATION if d is None else refusal_now(d, declared, standing, ruleset)
        if d is None or why is not None:
            rulings.append(Ruling(seat, tuple(cards), None, why))
            continue
        before, standing = standing, standing_after(standing, d, ruleset)
        declared.append(d)
        rulings.append(Ruling(seat, d.cards, kind_of(d, before, standing)))
    turned: int | None = None
    if standing is not None:
        trump = standing.trump
    else:
        trump, turned = fallback_trump(ruleset, kitty)
    if dealer is None:
        first = first_deal_dealer(declared, standing, ruleset)
        dealer = start if first is None else first
    return Settlement(tuple(rulings), tuple(declared), standing, trump, turned, dealer)
