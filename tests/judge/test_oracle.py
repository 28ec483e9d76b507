"""The JSON-lines judge: every op, id echo, every error, and the command end to end."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shengji.judge.oracle import answer, answer_line, run

ROOT = Path(__file__).resolve().parents[2]
BASE = {"preset": "classic", "level": "10", "trump": "H"}


def ask(**req: Any) -> dict[str, Any]:
    return answer({**BASE, **req})


def test_classify() -> None:
    a = ask(op="classify", cards="SK SK SQ SQ")
    assert a == {"kind": "tractor", "width": 2, "length": 2, "units": ["SK SK SQ SQ"]}
    t = ask(op="classify", cards="S9 S8 S8")
    assert (t["kind"], t["width"], t["length"], t["units"]) == ("throw", None, None,
                                                                ["S8 S8", "S9"])


def test_follow() -> None:
    assert ask(op="follow", lead="SK SK", hand="S3 S3 S4 C5", play="S3 S3") == {
        "legal": True, "reason": None}
    bad = ask(op="follow", lead="SK SK", hand="S3 S3 S4 C5", play="S3 S4")
    assert bad == {"legal": False, "reason": "must play a pair of the led suit when you hold one"}


def test_trick() -> None:
    a = ask(op="trick", plays=["S5 S4 S4", "H9 H7 H7", "H8 H8 H4", "SK SK S3"])
    assert a == {"winner": 2, "points": 25}


def test_throw() -> None:
    a = ask(op="throw", lead="S9 S8 S8 S4 S4", others=["SJ C3", "D4", "H5"])
    assert a == {"valid": False, "play": "S9", "failed": ["S9"], "reason": "the throw failed"}
    ok = ask(op="throw", lead="SA SA SK", others=["S3", "", "C4"])
    assert ok == {"valid": True, "play": "SA SA SK", "failed": [], "reason": None}
    # 边锋 and 联众 play the smallest failing unit (Decisions 111, 138); the biggest structure
    # is a room option
    bf = ask(op="throw", preset="bianfeng", trump="S", lead="HA HQ HQ H3", others=["HK HK", "H5"])
    assert (bf["play"], sorted(bf["failed"])) == ("H3", ["H3", "HQ HQ"])
    lz = ask(op="throw", preset="lianzhong", trump="S", lead="HA HQ HQ H3", others=["HK HK", "H5"])
    assert lz["play"] == "H3"
    wide = ask(op="throw", preset="lianzhong", options={"throw_forced": "structure-first"},
               trump="S", lead="HA HQ HQ H3", others=["HK HK", "H5"])
    assert wide["play"] == "HQ HQ"


def test_kitty() -> None:
    assert ask(op="kitty", lead="S4 S4 S5 S5", play="S4 S4 S5 S5") == {"multiplier": 16}
    assert ask(op="kitty", preset="tournament", lead="S4 S4", play="H3 H3") == {"multiplier": 4}


def test_platform_presets() -> None:
    # Decisions 112–114: the 联众 list (AAA + KKQQ → 6), 联众 three decks, 欢乐升级
    lz3 = {"preset": "lianzhong-three-deck", "level": "2", "trump": "H"}
    assert answer({**lz3, "op": "kitty", "lead": "SA SA SA SK SK SQ SQ",
                   "play": "SA SA SA SK SK SQ SQ"}) == {"multiplier": 6}
    assert answer({**lz3, "op": "follow", "lead": "S3 S3 S3 S4 S4 S4",
                   "hand": "S6 S6 S7 S7 S9 S9 S9 SQ SQ SQ", "play": "S9 S9 S9 SQ SQ SQ"})[
        "legal"] is True
    assert answer({"op": "levels", "preset": "lianzhong-three-deck", "points": 120})[
        "attackers_take_over"] is True
    assert answer({"op": "levels", "preset": "huanle", "points": 80}) == answer(
        {"op": "levels", "preset": "classic", "points": 80})


def test_levels() -> None:
    assert answer({"op": "levels", "preset": "three-deck", "points": 240}) == {
        "defender_levels": 0, "attacker_levels": 2, "attackers_take_over": True}


def test_defaults_and_options() -> None:
    # preset classic, level 2, no trump by default; options override the preset
    assert answer({"op": "classify", "cards": "S2 S2 LJ LJ"})["kind"] == "tractor"
    a = answer({"op": "throw", "options": {"throw_policy": "never"}, "lead": "SA SK",
                "others": []})
    assert a["valid"] is False and a["reason"] == "throws are not allowed in this ruleset"
    assert answer({"op": "classify", "level": 10, "trump": "H", "cards": "SJ SJ S9 S9"})[
        "kind"] == "tractor"


@pytest.mark.parametrize("rid", [7, "abc", None, [1, 2], {"k": 1}, 0])
def test_id_is_echoed(rid: Any) -> None:
    assert answer({"id": rid, "op": "levels", "points": 80})["id"] == rid
    assert answer({"id": rid, "op": "nope"})["id"] == rid


def test_no_id_no_id_key() -> None:
    assert "id" not in answer({"op": "levels", "points": 80})


ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"op": "dance"}, "unknown op"),
    ({}, "unknown op"),
    ({"op": "levels", "preset": "nope", "points": 3}, "unknown preset"),
    ({"op": "levels", "preset": "classic", "points": 3, "alone": True}, "find-a-friend"),
    ({"op": "levels", "preset": "five-player", "points": 3, "alone": 1}, "alone must be"),
    ({"op": "levels", "preset": "five-player", "points": 3, "last": "me"}, "last must be"),
    ({"op": "levels", "preset": "find-friend", "points": 3, "alone": True, "last": "friend"},
     "no friend"),
    ({"op": "levels", "preset": 3, "points": 3}, "preset must be a string"),
    ({"op": "levels", "options": {"colour": 1}, "points": 3}, "unknown ruleset option"),
    ({"op": "levels", "options": {"decks": 9}, "points": 3}, "decks"),
    ({"op": "levels", "options": ["decks"], "points": 3}, "options must be an object"),
    ({"op": "levels", "points": 3, "cards": "SA"}, "unknown field"),
    ({"op": "levels", "points": "80"}, "points must be an integer"),
    ({"op": "levels", "points": True}, "points must be an integer"),
    ({"op": "classify", "cards": "SA SX"}, "SX"),
    ({"op": "classify", "cards": 5}, "cards must be a string"),
    ({"op": "classify"}, "missing field"),
    ({"op": "classify", "cards": "SA SA SA"}, "3 copies of SA"),
    ({"op": "classify", "level": "1", "cards": "SA"}, "bad rank"),
    ({"op": "classify", "trump": "X", "cards": "SA"}, "bad trump"),
    ({"op": "classify", "trump": 1, "cards": "SA"}, "trump must be a string"),
    ({"op": "follow", "lead": "SK SK", "hand": "S3 S4", "play": "S5 S6"}, "not in the hand"),
    ({"op": "follow", "lead": "SK SK", "hand": "SK S4", "play": "SK S4"}, "3 copies of SK"),
    ({"op": "follow", "lead": "SK HK", "hand": "S3 S4", "play": "S3 S4"}, "mixes suits"),
    ({"op": "follow", "lead": "", "hand": "S3", "play": "S3"}, "lead is empty"),
    ({"op": "trick", "plays": "SA SK"}, "plays must be a list"),
    ({"op": "trick", "plays": []}, "non-empty"),
    ({"op": "trick", "plays": ["SA", ""]}, "non-empty"),
    ({"op": "trick", "plays": ["SA", "SK SK"]}, "as many cards"),
    ({"op": "trick", "plays": ["SA H3", "SK SK"]}, "mixes suits"),
    ({"op": "trick", "plays": ["SA", "SA", "SA"]}, "3 copies of SA"),
    ({"op": "throw", "lead": "SA SK", "others": "S3"}, "others must be a list"),
    ({"op": "throw", "lead": "SA SK", "others": ["SA SA"]}, "3 copies of SA"),
    ({"op": "kitty", "lead": "S4 S4", "play": "S4"}, "as many cards"),
    ({"op": "kitty", "lead": "S4 S4 S4", "play": "S3 S3 S3"}, "3 copies of S4"),
]


@pytest.mark.parametrize(("req", "needle"), ERRORS)
def test_errors(req: dict[str, Any], needle: str) -> None:
    a = answer({"id": "e", **req})
    assert set(a) == {"id", "error"}
    assert a["id"] == "e"
    assert needle in a["error"]


@pytest.mark.parametrize("req", [[1, 2], "op", 3, None])
def test_non_object_requests(req: Any) -> None:
    assert answer(req) == {"error": "a request is a JSON object"}


def test_not_json() -> None:
    out = json.loads(answer_line("{op: levels"))
    assert set(out) == {"error"} and out["error"].startswith("not JSON")


def test_run_answers_every_line_and_continues_after_errors() -> None:
    lines = [
        "not json",
        json.dumps({"id": 1, "op": "nope"}),
        "",
        json.dumps({"id": 2, "op": "classify", "cards": "S5 S5 S5"}),
        json.dumps({"id": 3, "op": "follow", "lead": "SK", "hand": "S3", "play": "S4"}),
        json.dumps({"id": 4, "op": "levels", "points": 120}),
    ]
    out = io.StringIO()
    assert run(io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(answers) == 5  # the blank line gets no answer
    assert "error" in answers[0] and "id" not in answers[0]
    assert [a.get("id") for a in answers[1:]] == [1, 2, 3, 4]
    assert all("error" in a for a in answers[:4])
    assert answers[4]["attacker_levels"] == 1


def test_unicode_is_kept() -> None:
    assert "♠" in answer_line(json.dumps({"op": "classify", "cards": "♠X"}))


def test_command_end_to_end() -> None:
    reqs = [
        {"id": "a", "op": "trick", "level": "10", "trump": "H",
         "plays": ["SA SA S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2"]},
        {"id": "b", "op": "bogus"},
        {"id": "c", "op": "levels", "preset": "tournament", "points": 200},
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(
        [sys.executable, "-m", "shengji", "judge"],
        input="".join(json.dumps(r) + "\n" for r in reqs),
        capture_output=True, text=True, timeout=60, env=env, cwd=ROOT, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert answers[0] == {"id": "a", "winner": 0, "points": 10}
    assert answers[1]["id"] == "b" and "error" in answers[1]
    assert answers[2] == {"id": "c", "defender_levels": 0, "attacker_levels": 3,
                          "attackers_take_over": True}


# Seed 002 "变异打法" item 2 (five players, three decks, find a friend): the dealer side's
# levels, dealer + friend (2+1 shares, 2/3 to whoever held the last trick) or alone.
@pytest.mark.parametrize(
    ("points", "alone", "last", "dealer", "friend"),
    [
        (0, False, "dealer", 6, 3),  # 升9 (2*3+1*3)
        (55, False, "dealer", 4, 2),  # 升6 (2*2+1*2)
        (115, False, "dealer", 2, 1),  # 升3 (2+1)
        (115, False, "friend", 1, 2),  # 靠朋友保底: the friend 2/3
        (115, False, "attackers", 2, 1),  # 被抠底: the dealer 2/3
        (0, True, "dealer", 12, 0),
        (55, True, "attackers", 8, 0),
        (115, True, "dealer", 4, 0),
        (120, False, "dealer", 0, 0),
    ],
)
def test_five_player_levels(points: int, alone: bool, last: str, dealer: int, friend: int) -> None:
    a = answer(
        {"op": "levels", "preset": "five-player", "points": points, "alone": alone, "last": last}
    )
    assert (a["dealer_levels"], a["friend_levels"]) == (dealer, friend)


@pytest.mark.parametrize(
    ("points", "each"), [(120, 0), (179, 0), (180, 1), (240, 2), (300, 3), (365, 4)]
)
def test_five_player_attackers_each(points: int, each: int) -> None:
    a = answer({"op": "levels", "preset": "five-player", "points": points})
    assert a["attackers_take_over"] and a["attacker_levels"] == each


# Seed 002 "三人打法（竞标玩法）": levels against the winning bid (the target): 甲 150 (each 75
# more one more level), 乙 120 (each 60), 丙 115 (each 57.5); under it the dealer +2, under half
# +4, no points +6.
@pytest.mark.parametrize(
    ("target", "points", "dealer", "attackers"),
    [
        (150, 150, 0, 1), (150, 225, 0, 2), (150, 145, 2, 0), (150, 70, 4, 0), (150, 0, 6, 0),
        (120, 180, 0, 2), (120, 60, 2, 0), (120, 55, 4, 0),
        (115, 175, 0, 2), (115, 170, 0, 1), (115, 55, 4, 0), (115, 60, 2, 0),
    ],
)
def test_three_player_levels_against_the_target(
    target: int, points: int, dealer: int, attackers: int
) -> None:
    a = answer({"op": "levels", "preset": "three-player", "points": points, "target": target})
    assert a == {"defender_levels": dealer, "attacker_levels": attackers,
                 "attackers_take_over": False}


@pytest.mark.parametrize(
    ("req", "needle"),
    [
        ({"op": "levels", "preset": "three-player", "points": 100}, "target (the winning bid)"),
        ({"op": "levels", "preset": "three-player", "points": 100, "target": 0}, "positive"),
        ({"op": "levels", "preset": "three-player", "points": 100, "target": "1"}, "integer"),
        ({"op": "levels", "preset": "classic", "points": 100, "target": 100}, "bidding presets"),
    ],
)
def test_three_player_levels_errors(req: dict[str, Any], needle: str) -> None:
    assert needle in answer(req)["error"]


def test_three_player_other_ops() -> None:
    """The other ops take the preset as any other (two decks, so pairs and tractors)."""
    a = answer({"op": "follow", "preset": "three-player", "level": "2", "trump": "H",
                "lead": "S3 S3", "hand": "S4 S4 S5", "play": "S4 S5"})
    assert a["legal"] is False
