"""The training example end to end, small: a few hundred steps of masked PPO self-play, a
checkpoint, the learned bot in a duplicate match, the evaluation script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_the_curve_chart_from_training_logs(tmp_path: Path) -> None:
    import json
    import xml.etree.ElementTree as ET

    from shengji.ml.curve import main as curve_main
    from shengji.ml.curve import points_of

    rate = {"mean": 0.6, "lo": 0.5, "hi": 0.7}
    imitation: list[dict[str, Any]] = [{"phase": "demonstrations", "deals": 9, "seconds": 30.0},
                 {"phase": "imitation", "epoch": 1, "seconds": 60.0,
                  "vs_random": {"level_rate": rate}}]
    ppo: list[dict[str, Any]] = [{"steps": 10, "deals": 1, "seconds": 5.0},
           {"steps": 20, "deals": 2, "seconds": 120.0, "vs_random": {"level_rate": rate}}]
    (tmp_path / "i.json").write_text(json.dumps(imitation))
    (tmp_path / "p.json").write_text(json.dumps(ppo))
    pts = points_of([imitation, ppo])
    assert [(p.minutes, p.phase) for p in pts] == [(1.0, "imitation"), (3.0, "ppo")]
    out = tmp_path / "c.svg"
    assert curve_main([str(tmp_path / "i.json"), str(tmp_path / "p.json"), "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 2 + 2  # points, legend
    assert curve_main([str(tmp_path / "i.json"), str(tmp_path / "p.json"), "--out", str(out),
                       "--scratch", str(tmp_path / "p.json")]) == 0
    root = ET.parse(out).getroot()
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 3 + 3
    assert len(root.findall("{http://www.w3.org/2000/svg}path")) == 2
    (tmp_path / "none.json").write_text(json.dumps(ppo[:1]))
    assert curve_main([str(tmp_path / "none.json"), "--out", str(tmp_path / "n.svg")]) == 2


def test_demonstrations_label_every_step_with_an_allowed_index_of_the_teachers_action() -> None:
    import numpy as np

    from shengji.ml.imitate import demonstrations

    data = demonstrations("classic", deals=2, seed=5)
    n = len(data.action)
    assert data.deals == 2 and n == len(data.obs) == len(data.mask) == len(data.ret) > 200
    assert data.mask[np.arange(n), data.action].all()
    # signed levels (+ points shaping) of a whole deal: both signs occur, nothing else
    assert (data.ret > 0).any() and (data.ret < 0).any() and np.isfinite(data.ret).all()
    again = demonstrations("classic", deals=2, seed=5)
    assert (again.action == data.action).all()  # seeded


def test_imitation_learns_the_teachers_picks_and_ppo_starts_from_it(tmp_path: Path) -> None:
    from shengji.ml.imitate import demonstrations, pretrain
    from shengji.ml.imitate import main as imitate_main
    from shengji.ml.policy import PolicyNet, save

    torch.manual_seed(0)
    data = demonstrations("one-deck", deals=3, seed=2)
    net = PolicyNet(data.obs.shape[1], data.mask.shape[1], hidden=64)
    log = pretrain(net, data, epochs=40, lr=3e-3, batch=128)
    assert log[0]["accuracy"] < 0.8 < log[-1]["accuracy"]  # memorises three deals
    ckpt = tmp_path / "bc.pt"
    save(net, str(ckpt), {"preset": "one-deck", "imitation_deals": 3})
    out = tmp_path / "ppo.pt"
    curve = tmp_path / "curve.json"
    train(preset="one-deck", steps=120, envs=1, hidden=8, out=str(out), log_every=0,
          init=str(ckpt), curve=str(curve), eval_every=60, eval_deals=1)
    tuned, meta = load(str(out))
    assert tuned.hidden == 64 and meta["imitation_deals"] == 3  # the warm start's net
    import json

    assert any("vs_random" in e for e in json.loads(curve.read_text()))
    with pytest.raises(ValueError, match="another preset"):
        train(preset="classic", steps=10, envs=1, out=None, log_every=0, init=str(ckpt))
    with pytest.raises(ValueError, match="needs an --init"):
        train(preset="one-deck", steps=10, envs=1, out=None, log_every=0, kl=0.5)
    held = tmp_path / "kl.pt"  # a KL penalty towards the warm start: a large one keeps it
    train(preset="one-deck", steps=300, envs=1, out=str(held), log_every=0, init=str(ckpt),
          kl=100.0, lr=1e-3)
    free = tmp_path / "free.pt"
    train(preset="one-deck", steps=300, envs=1, out=str(free), log_every=0, init=str(ckpt),
          lr=1e-3)
    x = torch.from_numpy(data.obs[:200]).float()
    m = torch.from_numpy(data.mask[:200])
    with torch.no_grad():
        base = torch.log_softmax(net(x, m)[0], -1)

    def drift(path: Path) -> float:
        with torch.no_grad():
            other = torch.log_softmax(load(str(path))[0](x, m)[0], -1)
        return float((base.exp() * (base - other)).sum(-1).mean())

    assert drift(held) < drift(free)
    assert imitate_main(["--preset", "one-deck", "--deals", "2", "--epochs", "1",
                         "--hidden", "16", "--out", str(tmp_path / "i.pt"),
                         "--eval-deals", "1", "--curve", str(tmp_path / "i.json")]) == 0
    first = json.loads((tmp_path / "i.json").read_text())
    assert first[0]["phase"] == "demonstrations" and "vs_random" in first[-1]


def test_the_shipped_checkpoint_plays_classic(monkeypatch: pytest.MonkeyPatch) -> None:
    from shengji.ml.bot import default_checkpoint

    monkeypatch.delenv("SHENGJI_CHECKPOINT", raising=False)
    path = default_checkpoint("classic")
    net, meta = load(str(path))
    assert meta["preset"] == "classic" and meta["imitation_deals"] == 16000
    assert (net.obs_size, net.actions) == (730, 68)
    bot_module._load.cache_clear()
    report = run_duplicate(PRESETS["classic"], "shengji.ml.bot:LearnedBot", "random", 4,
                           seed=7, allow_import=True)
    assert report.pairs == 4 and not report.forfeits


def test_the_agreement_bench_runs(tmp_path: Path) -> None:
    """``bench/agreement.py`` at a tiny size, so it never rots (no figure is checked)."""
    import json
    import os
    import subprocess
    import sys

    from shengji.ml.bot import default_checkpoint

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != "SHENGJI_CHECKPOINT"}
    env["PYTHONPATH"] = os.pathsep.join([str(root / "src"), str(root)])
    out = tmp_path / "agree.json"
    done = subprocess.run(
        [sys.executable, str(root / "bench" / "agreement.py"), str(default_checkpoint()),
         "--deals", "2", "--out", str(out)], env=env, capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (row,) = json.loads(out.read_text())["checkpoints"]
    assert row["steps"] > 100 and 0 <= row["agree"] <= 1
