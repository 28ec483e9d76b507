"""``--rules FILE`` in ``shengji arena`` and ``shengji play``: a room's rules file plays
the same ruleset, ``--options`` changes it further, a bad file is refused naming why."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from shengji.cli.main import build_parser, main
from shengji.cli.play import play_command
from shengji.core.record import GameRecord
from shengji.core.rules_file import rules_document
from shengji.core.ruleset import preset

HOUSE = preset("find-friend", {"friend_call": "other-copy", "tractor_follow": "tractor-only",
                               "kitty_cap": 8})


def test_arena_plays_the_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(rules_document(HOUSE)), encoding="utf-8")
    assert main(["arena", "--json", "--rules", str(rules), "--deals", "2",
                 "--options", '{"throw_policy": "never"}', "--record", str(tmp_path)]) == 0
    record = GameRecord.from_json((tmp_path / "match-1.json").read_text(encoding="utf-8"))
    assert record.ruleset == HOUSE.replace({"throw_policy": "never"}).to_dict()


@pytest.mark.parametrize(("text", "message"), [
    ("{bad", "is not a JSON rules file"),
    ('{"preset": "classic", "options": {"kitty_size": 7}}', "kitty_size 7 leaves"),
    ('{"preset": "classic", "colour": 1}', "unknown key 'colour'"),
])
def test_a_bad_rules_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    rules = tmp_path / "bad.json"
    rules.write_text(text, encoding="utf-8")
    assert main(["arena", "--rules", str(rules)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert main(["arena", "--rules", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err


def test_play_reads_the_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "house.json"
    rules.write_text(json.dumps(rules_document(HOUSE)), encoding="utf-8")
    args = build_parser().parse_args(["play", "--rules", str(rules), "--seed", "1"])
    assert play_command(args, io.StringIO("quit\n"), io.StringIO(), io.StringIO()) != 2
    rules.write_text('{"preset": "one-deck", "options": {"partnership": "find-friend", '
                     '"friend_call": "other-copy"}}', encoding="utf-8")
    err = io.StringIO()
    assert play_command(args, io.StringIO("quit\n"), io.StringIO(), err) == 2
    assert "friend_call" in err.getvalue()
