"""The pure rules engine: no I/O, no global randomness.

>>> from shengji.core import parse_cards, cards_str
>>> cards_str(parse_cards("♠a s10 hT"))
'SA S10 H10'
"""

from shengji.core.cards import (
    BJ,
    LJ,
    NO_TRUMP,
    card_str,
    cards_str,
    counts_of,
    parse_card,
    parse_cards,
    parse_rank,
    parse_trump,
    points_of,
)
from shengji.core.errors import IllegalAction, NotationError, Reason, RulesetError, ShengjiError
from shengji.core.follow import follow_error, is_legal_follow, legal_follows
from shengji.core.order import TRUMP, TrumpContext, context, context_for
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.scoring import kitty_multiplier, level_change
from shengji.core.throws import check_throw
from shengji.core.tricks import trick_points, trick_winner
from shengji.core.units import Unit, classify, decompose

__all__ = [
    "BJ",
    "LJ",
    "NO_TRUMP",
    "PRESETS",
    "TRUMP",
    "IllegalAction",
    "NotationError",
    "Reason",
    "Ruleset",
    "RulesetError",
    "ShengjiError",
    "TrumpContext",
    "Unit",
    "card_str",
    "cards_str",
    "check_throw",
    "classify",
    "context",
    "context_for",
    "counts_of",
    "decompose",
    "follow_error",
    "is_legal_follow",
    "kitty_multiplier",
    "legal_follows",
    "level_change",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "parse_trump",
    "points_of",
    "preset",
    "trick_points",
    "trick_winner",
]
