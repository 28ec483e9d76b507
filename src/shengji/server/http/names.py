"""Player names: trimmed, length-capped, and free of characters that hide or disguise text.

Refused: control characters (C0, DEL, C1), the bidirectional overrides, embeddings and
isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C), which reorder
the text shown after them, line and paragraph separators, lone surrogates, and names with no
visible character at all. Surrounding white space is trimmed (a newline too), runs of
spaces inside become one space, and the name is NFC-normalised so that two names that look
the same are the same.

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("小明")
'小明'
>>> clean_name("ann\\u202egnp.exe")
Traceback (most recent call last):
...
shengji.server.http.names.BadName: names cannot hold U+202E RIGHT-TO-LEFT OVERRIDE
>>> clean_name("x" * 40)
Traceback (most recent call last):
...
shengji.server.http.names.BadName: names are at most 32 characters, not 40
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
    "\u200e\u200f\u061c"  # marks
)
"""Characters that change the direction of the text around them."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Control characters, lone surrogates, line and paragraph separators."""

VISIBLE = ("L", "N", "P", "S")
"""A name needs one character of these classes: a letter, digit, punctuation or symbol."""


class BadName(ValueError):
    """A name that is refused; the message says why."""


def describe(ch: str) -> str:
    """``describe("\\x07")`` is ``'U+0007 (a control character)'``."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X} (a control character)"


def clean_name(raw: str, max_chars: int = 32) -> str:
    """The name to keep for ``raw``, or ``BadName`` saying what to change."""
    name = unicodedata.normalize("NFC", raw).strip()
    for ch in name:
        if ch in BIDI_CONTROLS or unicodedata.category(ch) in REFUSED_CATEGORIES:
            raise BadName(f"names cannot hold {describe(ch)}")
    name = " ".join(name.split())  # only spaces are left to split on
    if not any(unicodedata.category(ch).startswith(VISIBLE) for ch in name):
        raise BadName("a name needs at least one visible character")
    if len(name) > max_chars:
        raise BadName(f"names are at most {max_chars} characters, not {len(name)}")
    return name
