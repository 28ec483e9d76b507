"""``--executor ray``: duplicate pairs on a (local) Ray cluster give the same report as
``--jobs 1`` for deterministic bots."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from shengji.cli.main import main

ray = pytest.importorskip(
    "ray", reason="ray is not installed: pip install 'shengji[distributed]' to run this test"
)

TIMING = {"seconds", "decision_ms"}


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _figures(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING}


def test_ray_report_equals_the_local_one(
    local_ray: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["arena", "--duplicate", "--bots", "heuristic,random", "--preset", "one-deck",
            "--deals", "6", "--seed", "5", "--json", "--no-progress"]
    assert main([*args, "--jobs", "1"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--executor", "ray"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert _figures(on_ray) == _figures(local)
    assert on_ray["pairs"] == 6


def test_ray_ladder_and_bot_faults(
    local_ray: None, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    assert main(["ladder", "--bots", "random,heuristic", "--preset", "one-deck", "--deals",
                 "3", "--out-dir", str(tmp_path), "--executor", "ray", "--no-progress"]) == 0
    assert "| 1 | heuristic |" in capsys.readouterr().out
    assert main(["arena", "--duplicate", "--bots",
                 "random,tests.bots.plugin_examples:CrashBot", "--preset", "one-deck",
                 "--deals", "2", "--executor", "ray", "--no-progress"]) == 1
    assert "bot 'crash'" in capsys.readouterr().err
