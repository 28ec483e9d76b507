"""``shengji replay``: a recorded match printed trick by trick, in English and Chinese."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from shengji.cli.arena import run_arena
from shengji.cli.i18n import EN, ZH
from shengji.cli.main import main
from shengji.core.events import Declared, TrickWon
from shengji.core.record import GameRecord, replay, replay_steps
from shengji.core.ruleset import preset

TRICK = re.compile(r"^Trick \d+: #\d \S+.*( \| #\d \S+.*){3} -> #\d wins \d+ pts")


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two tournament matches with 反底 allowed (throws fail there, with a penalty)."""
    path = tmp_path_factory.mktemp("records")
    rules = preset("tournament", {"rebury": True})
    run_arena(rules, ["random"] * 4, seed=3, matches=2, deals=3, record_dir=path)
    return path


def replay_out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["replay", *args]) == 0
    out: str = capsys.readouterr().out
    return out


def counts(path: Path) -> tuple[int, int, int]:
    """Tricks, failed throws and 反底 in a record, counted from the replayed events."""
    tricks = reburies = 0
    for _a, _s, events in replay_steps(GameRecord.from_json(path.read_text(encoding="utf-8"))):
        tricks += sum(isinstance(e, TrickWon) for e in events)
        reburies += sum(isinstance(e, Declared) and e.rebury for e in events)
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    failed = sum(d.result.failed_throws for d in replay(record).history)
    return tricks, failed, reburies


def test_english_replay_shows_every_trick(
    records: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for f in sorted(records.glob("*.json")):
        out = replay_out(capsys, str(f))
        tricks, failed, reburies = counts(f)
        lines = out.splitlines()
        assert lines[0].startswith("Record: preset tournament")
        assert sum(bool(TRICK.match(x)) for x in lines) == tricks
        assert sum("throw failed" in x for x in lines) == failed
        assert sum("re-bury" in x for x in lines) == reburies
        assert sum(x.startswith("Deal ") for x in lines) == 3
        assert sum(x.startswith("Result: attackers") for x in lines) == 3
        assert sum("Kitty revealed" in x for x in lines) == 3
        assert "level 2" in out and "Kitty: #" in out and "buries" in out


def test_chinese_replay_uses_the_game_terms(
    records: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = replay_out(capsys, str(records / "match-1.json"), "--lang", "zh")
    for term in ("庄家", "级牌", "底牌", "第1轮", "得分", "第1局", "结果：闲家得分"):
        assert term in out
    assert "Trick" not in out and "Deal" not in out
    assert re.search(r"主 (黑桃|红桃|方块|梅花)|无主", out)


def test_one_deal_only(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = replay_out(capsys, str(records / "match-1.json"), "--deal", "2")
    assert "Deal 2:" in out and "Deal 1:" not in out and "Deal 3:" not in out
    assert "Trick 1:" in out


def test_no_such_deal(records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(records / "match-1.json"), "--deal", "9"]) == 2
    assert "--deal must be 1..3" in capsys.readouterr().err
    assert main(["replay", str(records / "match-1.json"), "--deal", "0"]) == 2
    assert "--deal counts from 1" in capsys.readouterr().err


def test_a_result_that_disagrees_is_a_warning_and_exit_1(
    records: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((records / "match-1.json").read_text(encoding="utf-8"))
    data["result"]["attacker_points"][0] += 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    captured = capsys.readouterr()
    assert "Trick 1:" in captured.out
    assert "warning: the record's result disagrees with the replay: attacker_points" in (
        captured.err
    )


def test_an_illegal_action_is_an_error(
    records: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((records / "match-1.json").read_text(encoding="utf-8"))
    i = next(i for i, a in enumerate(data["actions"]) if a.startswith("play"))
    data["actions"][i] = "play 0 BJ BJ BJ BJ"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(bad), "--lang", "zh"]) == 1
    err = capsys.readouterr().err
    assert f"错误：第{i + 1}个动作（play 0 BJ BJ BJ BJ）无法重放" in err
    assert "Traceback" not in err


NO_RULESET = '{"format": "shengji-record/1", "seed": 1}'
BAD_ACTION = (
    '{"format": "shengji-record/1", "ruleset": {"name": "classic"}, "seed": 1, "actions": [3]}'
)


@pytest.mark.parametrize(
    "content", [None, "not json", '{"format": "other"}', NO_RULESET, BAD_ACTION]
)
def test_unreadable_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None
) -> None:
    f = tmp_path / "r.json"
    if content is not None:
        f.write_text(content, encoding="utf-8")
    assert main(["replay", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot read {f}") and "Traceback" not in err


def test_catalogs_have_the_same_keys_and_fields() -> None:
    assert set(EN) == set(ZH)

    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key in EN:
        assert fields(EN[key]) == fields(ZH[key]), key
