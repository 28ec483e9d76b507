"""The judge's ``kitty`` op after a throw: 联众 / 边锋 "具体得分根据最大一方牌情规定如下" count the
winner's cards, QQ "如果最后一圈牌为甩牌，只根据甩牌中的最大牌型计算抠底倍数" the throw's
(docs/rules.md Decision 139), and docs/protocol.md's examples are the judge's answers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shengji.judge.oracle import answer

RUFFED = {"level": "10", "trump": "H", "lead": "SA SK", "play": "H3 H3"}
TRACTOR = {"level": "2", "trump": "H", "lead": "SA SK SQ SJ", "play": "H3 H3 H4 H4"}


@pytest.mark.parametrize(
    ("preset", "req", "winner", "lead"),
    [
        ("lianzhong", RUFFED, 4, 2),
        ("lianzhong-three-deck", RUFFED, 4, 2),
        ("find-friend", RUFFED, 4, 2),
        ("bianfeng", TRACTOR, 8, 2),
        ("classic", TRACTOR, 2, 2),
        ("three-deck", TRACTOR, 2, 2),
    ],
)
def test_kitty_answers_each_presets_reading(
    preset: str, req: dict[str, str], winner: int, lead: int
) -> None:
    base = {"id": 1, "op": "kitty", "preset": preset, **req}
    assert answer(base) == {"id": 1, "multiplier": winner}
    old = answer({**base, "options": {"kitty_throw_units": "lead"}})
    assert old == {"id": 1, "multiplier": lead}


def test_the_protocol_examples_are_the_judges_answers() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    section = text[text.index("### `kitty`"):text.index("### `levels`")]
    lines = [ln for block in re.findall(r"```json\n(.*?)```", section, re.S)
             for ln in block.splitlines() if ln.strip()]
    assert len(lines) == 12
    for request, expected in zip(lines[::2], lines[1::2], strict=True):
        assert answer(json.loads(request)) == json.loads(expected), request
