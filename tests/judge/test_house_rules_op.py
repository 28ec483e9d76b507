"""The judge answers for house rules: ``options`` carry the new fields into ``follow`` and
``friend`` (docs/protocol.md, docs/rules.md Decisions 147–148)."""

from __future__ import annotations

from typing import Any

from shengji.judge.oracle import answer
from tests.judge.test_friend_op import hands_for

BASE = {"preset": "classic", "level": "10", "trump": "H"}


def follow(options: dict[str, Any], play: str) -> dict[str, Any]:
    return answer({**BASE, "options": options, "op": "follow", "lead": "SK SK SQ SQ",
                   "hand": "S3 S3 S4 S4 S7 S7", "play": play})


def test_the_judge_follows_the_tractor_rule_it_is_given() -> None:
    assert follow({}, "S3 S3 S7 S7")["legal"] is False
    assert follow({"tractor_follow": "pairs-only"}, "S3 S3 S7 S7")["legal"] is True
    assert follow({"tractor_follow": "free"}, "S3 S4 S7 S7")["legal"] is True
    assert follow({"tractor_follow": "tractor-only"}, "S3 S4 S7 S7")["legal"] is False


def test_the_judge_refuses_a_call_of_a_card_the_dealer_lacks_under_other_copy() -> None:
    req = {"op": "friend", "preset": "find-friend", "dealer": 0, "call": "SA",
           "options": {"friend_call": "other-copy"}}
    ok = answer({**req, "hands": hands_for({0: "SA", 3: "SA"})})
    assert ok["friend"] == 3
    bad = answer({**req, "id": 2, "hands": hands_for({1: "SA", 3: "SA"})})
    assert "other-copy" in bad["error"] and bad["id"] == 2
