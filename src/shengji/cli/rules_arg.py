"""``--rules FILE``: a room's rules file (``{"preset", "options"}``, as the browser's
rules download or ``/api/rules/check`` gives it) for ``shengji arena`` and ``shengji play``;
``--options`` then changes fields over it.

>>> import argparse
>>> ruleset_from_args(argparse.Namespace(preset="one-deck", options=None, rules=None)).decks
1
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shengji.core.errors import RulesetError
from shengji.core.rules_file import load_rules
from shengji.core.ruleset import Ruleset, preset


def add_rules_arg(p: argparse.ArgumentParser) -> None:
    """Adds ``--rules FILE`` to a command."""
    p.add_argument(
        "--rules", metavar="FILE", default=None,
        help="a rules file (JSON {\"preset\": ..., \"options\": {...}}, as a room's rules "
        "download); replaces --preset, --options changes fields over it",
    )


def ruleset_from_args(args: argparse.Namespace) -> Ruleset:
    """The ruleset ``--rules``/``--preset`` and ``--options`` name; ``RulesetError`` (with
    the field) or ``ValueError`` saying what is wrong with the file or the JSON."""
    options = None
    if getattr(args, "options", None):
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as e:
            raise ValueError(f"--options is not valid JSON: {e}") from e
        if not isinstance(options, dict):
            raise ValueError(
                "--options must be a JSON object, e.g. '{\"throw_policy\": \"never\"}'"
            )
    path = getattr(args, "rules", None)
    if path is None:
        return preset(args.preset, options)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"--rules {path}: {e.strerror or e}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"--rules {path} is not a JSON rules file: {e}") from e
    try:
        ruleset = load_rules(data)
    except RulesetError as e:
        raise RulesetError(f"--rules {path}: {e.message}", e.field) from e
    return ruleset.replace(options) if options else ruleset


__all__ = ["add_rules_arg", "ruleset_from_args"]
