"""The house-rules editor's fields: which ``Ruleset`` fields a room's creator may change,
grouped as a player thinks of them, with each field's kind, choices and bounds
(``GET /api/meta`` ``rule_fields``; the words live in the browser's i18n files under
``rule.<field>``).

The bounds are each field's widest range; the combination is checked by the core
(``Ruleset.validate``), whose error names the field (``room_ruleset``).

>>> [g["group"] for g in rule_fields()]
['dealing', 'following', 'throws', 'kitty', 'levels', 'partners']
>>> next(f for g in rule_fields() for f in g["fields"] if f["name"] == "tractor_follow")["choices"]
['tractor-then-pairs', 'pairs-only', 'tractor-only', 'free']
>>> check_rules("classic", {"kitty_cap": 8})["changed"]
{'kitty_cap': 8}
"""

from __future__ import annotations

from typing import Any, Final

from shengji.core.cards import LEVELS
from shengji.core.rules_file import changed_fields
from shengji.core.ruleset import FIELD_CHOICES, LEVEL_TABLES, MAX_KITTY_CAP, Ruleset, preset
from shengji.server.table.validate import room_ruleset

GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "dealing": (
        "decks", "players", "kitty_size", "deal_order", "declaration", "allow_reinforce",
        "allow_self_overturn", "no_declaration", "kitty_card_index",
        "first_deal_overturn_takes_dealer", "permanent_twos", "two_color",
    ),
    "following": (
        "triple_follow", "tractor_follow", "follow_order", "stronger_shapes_beat",
        "player_aids",
    ),
    "throws": ("throw_policy", "throw_forced", "failed_throw_penalty"),
    "kitty": ("kitty_formula", "kitty_cap", "kitty_throw_units", "rebury", "rebury_swap"),
    "levels": (
        "level_table", "level_sequence", "must_play", "dealer_rotation", "takeover_dealer",
        "jack_kitty_reset",
    ),
    "partners": (
        "partnership", "friend_rule", "friend_call", "level_shares", "jack_kitty_penalty",
        "ace_kitty_penalty", "level_transfer", "kitty_shown", "bid_open", "bid_step", "bid_min",
    ),
}
"""Editable fields by group, in the order the editor shows them. Not editable: ``name``
(the preset's) and ``ruff_compare`` (one value)."""

_INT_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "decks": (1, 4),
    "players": (3, 6),
    "kitty_size": (0, 212),
    "kitty_card_index": (0, 215),
    "failed_throw_penalty": (0, 400),
    "kitty_cap": (1, MAX_KITTY_CAP),
    "rebury_swap": (0, 212),
    "kitty_shown": (0, 212),
    "bid_open": (1, 400),
    "bid_step": (1, 400),
    "bid_min": (0, 400),
}
"""Widest range of each number field (the core narrows it by the other fields)."""


_FRIEND: Final = {"partnership": "find-friend"}
_BIDDING: Final = {"partnership": "bidding"}
WHEN: Final[dict[str, dict[str, Any]]] = {
    "kitty_card_index": {"no_declaration": "kitty-card"},
    "kitty_cap": {"kitty_formula": "power-of-size"},
    "rebury_swap": {"rebury": True},
    **{f: _FRIEND for f in ("friend_rule", "friend_call", "level_shares", "jack_kitty_penalty",
                            "ace_kitty_penalty", "level_transfer")},
    **{f: _BIDDING for f in ("kitty_shown", "bid_open", "bid_step", "bid_min")},
}
"""A field that only matters when other fields have these values (the editor hides it
otherwise; its value is kept)."""


def _field_spec(name: str, default: Any) -> dict[str, Any]:
    if name in FIELD_CHOICES:
        out: dict[str, Any] = {"name": name, "kind": "choice",
                               "choices": list(FIELD_CHOICES[name])}
    elif name == "level_table":
        out = {"name": name, "kind": "choice", "choices": list(LEVEL_TABLES)}
    elif isinstance(default, bool):
        out = {"name": name, "kind": "bool"}
    elif isinstance(default, list):  # a rank list (level_sequence, must_play): ticked ranks
        out = {"name": name, "kind": "ranks", "ranks": list(LEVELS)}
    else:
        low, high = _INT_BOUNDS[name]
        out = {"name": name, "kind": "int", "min": low, "max": high}
    if name in WHEN:
        out["when"] = dict(WHEN[name])
    return out


def rule_fields() -> list[dict[str, Any]]:
    """The editor's groups: ``[{"group", "fields": [{"name", "kind", ...}]}]``; ``kind``
    ``bool``, ``int`` (``min``, ``max``), ``choice`` (``choices``, in the order shown) or
    ``ranks`` (a set of ``ranks``, sent in their order: ``["2", "5", "10", "A"]``);
    ``when``: the other fields' values under which the field matters."""
    defaults = Ruleset().to_dict()
    return [
        {"group": group, "fields": [_field_spec(n, defaults[n]) for n in names]}
        for group, names in GROUPS.items()
    ]


EDITABLE: Final[frozenset[str]] = frozenset(n for names in GROUPS.values() for n in names)


def check_rules(preset_name: Any, options: Any) -> dict[str, Any]:
    """What the editor shows for a preset with ``options``: the whole ruleset and what
    differs from the preset (``changed``), or ``OptionError`` naming the field, exactly as
    creating the room would refuse it."""
    ruleset = room_ruleset(preset_name, options)
    changed = changed_fields(ruleset, preset(preset_name))
    return {"ruleset": ruleset.to_dict(), "changed": changed,
            "rules": {"preset": preset_name, "options": changed}}


__all__ = ["EDITABLE", "GROUPS", "check_rules", "rule_fields"]
