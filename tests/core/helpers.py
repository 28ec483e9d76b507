"""Small helpers so rules tests read like the rules, in card notation.

Defaults follow RULES.md §10: level 10, hearts trump, the classic preset.

>>> winner("S5 S4 S4", "H9 H7 H7", "H8 H8 H4")
2
"""

from __future__ import annotations

from collections.abc import Sequence

from shengji.core.cards import (
    cards_str,
    check_possible,
    counts_of,
    parse_cards,
    parse_rank,
    parse_trump,
)
from shengji.core.follow import follow_error, legal_follows
from shengji.core.order import TrumpContext, context_for
from shengji.core.ruleset import Ruleset, preset
from shengji.core.scoring import kitty_multiplier, level_change
from shengji.core.throws import ThrowResult, check_throw
from shengji.core.tricks import is_valid_ruff, trick_winner
from shengji.core.units import Unit, classify, decompose

C = parse_cards
"""``C("SA SA")``: cards from notation."""


def rules(name: str = "classic", **options: object) -> Ruleset:
    """A preset, with options overridden."""
    return preset(name, dict(options)) if options else preset(name)


def ctx(level: str = "10", trump: str = "H", ruleset: str | Ruleset = "classic") -> TrumpContext:
    """The order tables for a level rank and trump (``"NT"`` for no trump)."""
    rs = rules(ruleset) if isinstance(ruleset, str) else ruleset
    return context_for(rs, parse_rank(level), parse_trump(trump))


def _rs(ruleset: str | Ruleset) -> Ruleset:
    return rules(ruleset) if isinstance(ruleset, str) else ruleset


def possible(ruleset: str | Ruleset, *texts: str) -> None:
    """Refuse examples that hold more copies of a card than the decks do (a typo guard)."""
    check_possible([c for t in texts for c in C(t)], _rs(ruleset).decks, " | ".join(texts))


def kind(cards: str, level: str = "10", trump: str = "H",
         ruleset: str | Ruleset = "classic") -> str:
    """``single``, ``pair``, ``triple``, ``quad``, ``tractor``, ``throw``, ``mixed``."""
    return classify(C(cards), ctx(level, trump, ruleset)).kind


def shape(cards: str, level: str = "10", trump: str = "H", ruleset: str | Ruleset = "classic"
          ) -> tuple[int | None, int | None]:
    """``(width, length)`` of a one-unit play."""
    c = classify(C(cards), ctx(level, trump, ruleset))
    return c.width, c.length


def units(cards: str, level: str = "10", trump: str = "H", ruleset: str | Ruleset = "classic"
          ) -> list[str]:
    """The units of a one-suit play, in notation, as the engine orders them."""
    return [str(u) for u in decompose(C(cards), ctx(level, trump, ruleset))]


def unit_set(cards: str, level: str = "10", trump: str = "H",
             ruleset: str | Ruleset = "classic") -> set[str]:
    """The units of a one-suit play as a set (order-free comparisons)."""
    return set(units(cards, level, trump, ruleset))


def winner(*plays: str, level: str = "10", trump: str = "H",
           ruleset: str | Ruleset = "classic") -> int:
    """Index of the winning play, the lead first."""
    possible(ruleset, *plays)
    return trick_winner([C(p) for p in plays], ctx(level, trump, ruleset), _rs(ruleset))


def ruffs(lead: str, play: str, level: str = "10", trump: str = "H",
          ruleset: str | Ruleset = "classic") -> bool:
    """Whether an all-trump play is a valid ruff of an off-suit lead."""
    return is_valid_ruff(C(lead), C(play), ctx(level, trump, ruleset))


def follow(lead: str, hand: str, play: str, level: str = "10", trump: str = "H",
           ruleset: str | Ruleset = "classic") -> str | None:
    """Why ``play`` may not follow ``lead`` from ``hand`` (the whole hand, the play
    included); None when it may."""
    possible(ruleset, lead, hand)
    return follow_error(C(lead), counts_of(C(hand)), C(play), ctx(level, trump, ruleset),
                        _rs(ruleset))


def legal(lead: str, hand: str, play: str, level: str = "10", trump: str = "H",
          ruleset: str | Ruleset = "classic") -> bool:
    """Whether ``play`` (taken from ``hand``) is a legal follow to ``lead``."""
    return follow(lead, hand, play, level, trump, ruleset) is None


def follows(lead: str, hand: str, level: str = "10", trump: str = "H",
            ruleset: str | Ruleset = "classic") -> set[str]:
    """Every legal follow, each in notation (cards in kind order)."""
    possible(ruleset, lead, hand)
    out = legal_follows(C(lead), counts_of(C(hand)), ctx(level, trump, ruleset), _rs(ruleset))
    return {cards_str(p) for p in out}


def same(a: str, b: str) -> bool:
    """Whether two plays hold the same cards (any order)."""
    return sorted(C(a)) == sorted(C(b))


def norm(cards: str) -> str:
    """Canonical notation in kind order, to compare with ``follows`` output."""
    return cards_str(sorted(C(cards)))


def throw(lead: str, *others: str, level: str = "10", trump: str = "H",
          ruleset: str | Ruleset = "classic") -> ThrowResult:
    """Check a throw against the other hands."""
    possible(ruleset, lead, *others)
    return check_throw(C(lead), [counts_of(C(o)) for o in others], ctx(level, trump, ruleset),
                       _rs(ruleset))


def forced(lead: str, *others: str, level: str = "10", trump: str = "H",
           ruleset: str | Ruleset = "classic") -> str:
    """What the leader actually plays (the whole lead when the throw stands), sorted."""
    return norm(cards_str(throw(lead, *others, level=level, trump=trump, ruleset=ruleset).play))


def kitty(lead: str, play: str | None = None, level: str = "2", trump: str = "H",
          ruleset: str | Ruleset = "classic") -> int:
    """Kitty multiplier when ``play`` (by default the lead itself) wins the last trick."""
    return kitty_multiplier(C(lead), C(play if play is not None else lead),
                            ctx(level, trump, ruleset), _rs(ruleset))


def levels(points: int, ruleset: str | Ruleset = "classic") -> tuple[int, int, bool]:
    """``(defender_levels, attacker_levels, attackers_take_over)``."""
    return tuple(level_change(points, _rs(ruleset)))  # type: ignore[return-value]


def unit_strs(us: Sequence[Unit]) -> list[str]:
    """Units in notation."""
    return [str(u) for u in us]
