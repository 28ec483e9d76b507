"""``shengji demo``: a short tour of the rules engine (placeholder until the server lands)."""

from __future__ import annotations

from typing import TextIO


def demo(out: TextIO) -> int:
    """Print a few rules decisions in card notation."""
    from shengji.judge.oracle import answer

    examples = [
        {"op": "classify", "level": "10", "trump": "H", "cards": "LJ LJ H10 H10"},
        {"op": "trick", "level": "10", "trump": "H", "plays": ["S5 S4 S4", "H9 H7 H7", "H8 H8 H4"]},
        {"op": "throw", "level": "10", "trump": "H", "lead": "S9 S8 S8 S4 S4",
         "others": ["SJ C3", "D4", "H5"]},
        {"op": "levels", "preset": "classic", "points": 125},
    ]
    for ex in examples:
        out.write(f"{ex}\n  -> {answer(ex)}\n")
    return 0
