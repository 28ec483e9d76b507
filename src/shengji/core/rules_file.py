"""A ruleset as a shareable document: ``{"preset": "classic", "options": {...}}`` (what
differs from the preset), as the room's rules link, a downloaded rules file,
``shengji arena --rules FILE`` and ``shengji play --rules FILE`` use it.

A whole ruleset (``Ruleset.to_dict``, e.g. from a game record) is read too: its ``name``
is the preset, and every field is an option.

>>> doc = rules_document(preset("classic", {"kitty_cap": 8, "tractor_follow": "free"}))
>>> doc["preset"], doc["options"]
('classic', {'kitty_cap': 8, 'tractor_follow': 'free'})
>>> load_rules(doc) == preset("classic", {"kitty_cap": 8, "tractor_follow": "free"})
True
>>> load_rules({"preset": "classic", "options": {"kitty_cap": 0}})
Traceback (most recent call last):
...
shengji.core.errors.RulesetError: kitty_cap must be 1..1048576, not 0
"""

from __future__ import annotations

from typing import Any, Final

from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESETS, Ruleset, preset

FORMAT: Final = "shengji-rules/1"
"""The ``format`` a rules document carries (optional when read)."""


def changed_fields(ruleset: Ruleset, base: Ruleset) -> dict[str, Any]:
    """The fields of ``ruleset`` that differ from ``base``, as JSON values (``name`` aside).

    >>> changed_fields(preset("classic", {"rebury": True}), PRESETS["classic"])
    {'rebury': True}
    """
    mine, theirs = ruleset.to_dict(), base.to_dict()
    return {k: v for k, v in mine.items() if k != "name" and theirs.get(k) != v}


def rules_document(ruleset: Ruleset, preset_name: str | None = None) -> dict[str, Any]:
    """``ruleset`` as a rules document: its preset (``preset_name``, else ``ruleset.name``)
    and what differs from it."""
    name = preset_name or ruleset.name
    base = PRESETS.get(name)
    if base is None:
        raise RulesetError(f"unknown preset {name[:40]!r}; known: {sorted(PRESETS)}", "preset")
    return {"format": FORMAT, "preset": name, "options": changed_fields(ruleset, base)}


def load_rules(data: Any) -> Ruleset:
    """The ruleset a rules document (or a whole ``Ruleset.to_dict``) describes;
    ``RulesetError`` naming the field at fault otherwise."""
    if not isinstance(data, dict):
        raise RulesetError("a rules file is a JSON object such as {\"preset\": \"classic\"}")
    if "preset" in data or "options" in data:
        unknown = sorted(set(data) - {"format", "preset", "options"})
        if unknown:
            raise RulesetError(
                f"unknown key {unknown[0][:40]!r} in a rules file; known: format, preset, "
                "options", unknown[0][:40],
            )
        if data.get("format", FORMAT) != FORMAT:
            raise RulesetError(f"rules file format {str(data['format'])[:40]!r} is not {FORMAT}",
                               "format")
        name = data.get("preset", "classic")
        options = data.get("options") or {}
        if not isinstance(name, str):
            raise RulesetError("preset is a name such as \"classic\"", "preset")
        if not isinstance(options, dict):
            raise RulesetError("options is an object of ruleset fields", "options")
        return preset(name, options)
    return Ruleset.from_dict(data)  # a whole ruleset: a missing key as stored rulesets take it


__all__ = ["FORMAT", "changed_fields", "load_rules", "rules_document"]
