"""The training example end to end, small: a few hundred steps of masked PPO self-play, a
checkpoint, the learned bot in a duplicate match, the evaluation script."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the ml extra is not installed: pip install "
                            "'shengji[ml]'")

from shengji.bots.duplicate import run_duplicate  # noqa: E402
from shengji.core.ruleset import PRESETS  # noqa: E402
from shengji.ml import bot as bot_module  # noqa: E402
from shengji.ml.evaluate import main as evaluate_main  # noqa: E402
from shengji.ml.policy import load  # noqa: E402
from shengji.ml.train import train  # noqa: E402


def test_a_few_hundred_steps_train_save_and_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ckpt = tmp_path / "ppo.pt"
    log = train(preset="classic", steps=400, envs=2, seed=3, hidden=32, out=str(ckpt),
                log_every=0)
    assert log[-1]["steps"] >= 400 and log[-1]["deals"] >= 2
    assert all(torch.isfinite(torch.tensor(e["loss"])) for e in log)
    net, meta = load(str(ckpt))
    assert meta["preset"] == "classic" and net.actions == 68
    monkeypatch.setenv("SHENGJI_CHECKPOINT", str(ckpt))
    bot_module._load.cache_clear()
    report = run_duplicate(PRESETS["classic"], "shengji.ml.bot:LearnedBot", "random", 2,
                           seed=1, allow_import=True)
    assert report.pairs == 2 and not report.forfeits
    assert evaluate_main(["--checkpoint", str(ckpt), "--deals", "1", "--against",
                          "heuristic"]) == 0
    assert "A = shengji.ml.bot:LearnedBot vs B = heuristic" in capsys.readouterr().out


def test_a_checkpoint_for_another_preset_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ckpt = tmp_path / "one.pt"
    train(preset="one-deck", steps=50, envs=1, hidden=8, out=str(ckpt), log_every=0)
    monkeypatch.setenv("SHENGJI_CHECKPOINT", str(ckpt))
    bot_module._load.cache_clear()
    with pytest.raises(Exception, match="another preset"):
        run_duplicate(PRESETS["classic"], "shengji.ml.bot:LearnedBot", "random", 1,
                      allow_import=True)
    assert evaluate_main(["--checkpoint", str(tmp_path / "none.pt")]) == 2


def test_the_curve_chart_from_a_training_log(tmp_path: Path) -> None:
    import json
    import xml.etree.ElementTree as ET

    from shengji.ml.curve import main as curve_main

    rate = {"mean": 0.6, "lo": 0.5, "hi": 0.7}
    log = [{"steps": 10, "deals": 1}, {"steps": 20, "deals": 2, "vs_random": {"level_rate": rate}}]
    (tmp_path / "c.json").write_text(json.dumps(log))
    assert curve_main([str(tmp_path / "c.json"), str(tmp_path / "c.svg")]) == 0
    root = ET.parse(tmp_path / "c.svg").getroot()
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 1
    (tmp_path / "none.json").write_text(json.dumps(log[:1]))
    assert curve_main([str(tmp_path / "none.json"), str(tmp_path / "n.svg")]) == 2
