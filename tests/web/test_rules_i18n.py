"""Every field of the house-rules editor is worded in both catalogs: a label, what it does
and an example, and a label for each choice (never the value's own name)."""

from __future__ import annotations

import json
from pathlib import Path

from shengji.server.table.rule_fields import rule_fields

STATIC = Path(__file__).resolve().parents[2] / "src" / "shengji" / "web" / "static"


def test_each_editable_field_and_choice_has_words_in_both_languages() -> None:
    for lang in ("en", "zh-CN"):
        cat = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
        for group in rule_fields():
            assert cat[f"rule.group.{group['group']}"].strip()
            for f in group["fields"]:
                name = f["name"]
                for key in (f"rule.{name}", f"rule.{name}.help", f"rule.{name}.ex"):
                    assert cat.get(key, "").strip(), (lang, key)
                assert name not in cat[f"rule.{name}"]
                for choice in f.get("choices", []):
                    label = cat.get(f"rule.{name}.{choice}", "")
                    assert label.strip() and label != choice, (lang, name, choice)
