"""Bot plug-ins: by import path on the command line, by entry point when installed; a bot
that breaks the protocol is named, or forfeits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from shengji.bots import plugins
from shengji.bots.driver import play_match
from shengji.bots.fault import BotFault
from shengji.bots.registry import make_bot
from shengji.cli.main import main
from shengji.core.ruleset import PRESETS

HERE = "tests.bots.plugin_examples"


def test_an_import_path_makes_a_bot_class_or_function() -> None:
    assert make_bot(f"{HERE}:SlowRandomBot", 1, allow_import=True).name == "slow-random"
    assert make_bot(f"{HERE}:make_random", 1, allow_import=True).name == "random"


def test_import_paths_only_where_allowed() -> None:
    # The server takes bot names from clients: it must never import a module they name.
    with pytest.raises(ValueError, match="only the command line"):
        make_bot("os.path:join", 1)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody", 1)


def test_bad_plugins_are_refused_clearly() -> None:
    with pytest.raises(plugins.PluginError, match="lacks the Bot protocol"):
        make_bot(f"{HERE}:NotABot", 1, allow_import=True)
    with pytest.raises(plugins.PluginError, match="has no 'Missing'"):
        make_bot(f"{HERE}:Missing", 1, allow_import=True)
    with pytest.raises(plugins.PluginError, match="cannot import module"):
        make_bot("no_such_package.bots:Bot", 1, allow_import=True)


def test_an_illegal_action_names_the_bot() -> None:
    bots = [make_bot(f"{HERE}:IllegalBot", 0, allow_import=True)] + [
        make_bot("random", k) for k in range(1, 4)
    ]
    with pytest.raises(BotFault) as info:
        play_match(PRESETS["classic"], bots, seed=1, deals=1, first_dealer=0)
    e = info.value
    assert e.bot == "illegal" and e.seat == 0
    assert "bot 'illegal' at seat 0 played an illegal action 'play 0" in str(e)


def test_arena_stops_naming_the_bot_or_counts_a_forfeit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bots = f"{HERE}:IllegalBot,random,random,random"
    assert main(["arena", "--bots", bots, "--deals", "3", "--seed", "2"]) == 1
    err = capsys.readouterr().err
    assert "bot 'illegal' at seat 0 played an illegal action" in err
    assert "--forfeit-illegal" in err
    assert main(["arena", "--bots", bots, "--deals", "3", "--seed", "2", "--json",
                 "--forfeit-illegal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forfeits"] and "bot 'illegal'" in data["forfeits"][0]
    crash = f"{HERE}:CrashBot,random,random,random"
    assert main(["arena", "--bots", crash, "--deals", "1"]) == 1
    assert "bot 'crash' at seat 0 raised ZeroDivisionError: oops" in capsys.readouterr().err


def test_duplicate_forfeits_are_left_out_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--duplicate", "--bots", f"random,{HERE}:CrashBot", "--deals", "3",
                 "--preset", "one-deck", "--forfeit-illegal", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "forfeits (pairs left out of the figures): A 0, B 3" in out
    assert "bot 'crash' at seat" in out
    assert main(["arena", "--duplicate", "--bots", f"random,{HERE}:CrashBot", "--deals", "2",
                 "--preset", "one-deck", "--jobs", "2"]) == 1
    assert "bot 'crash'" in capsys.readouterr().err


TINY_BOT = '''
"""tinybot: the smallest plug-in: leads and follows with the first legal action."""

class FirstLegal:
    name = "tiny"

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, view, legal):
        if view.phase.value == "dealing" and legal.seat >= 0:
            return None
        return next(iter(legal))
'''


def _wheel(folder: Path) -> Path:
    """A wheel of a separate package 'tinybot' whose entry point is shengji.bots: tiny
    (what any build backend makes from ``[project.entry-points."shengji.bots"]``)."""
    dist = "tinybot-0.1.dist-info"
    files = {
        "tinybot/__init__.py": TINY_BOT,
        f"{dist}/METADATA": "Metadata-Version: 2.1\nName: tinybot\nVersion: 0.1\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        f"{dist}/entry_points.txt": "[shengji.bots]\ntiny = tinybot:FirstLegal\n",
    }
    records = [f"{name},," for name in files] + [f"{dist}/RECORD,,"]
    files[f"{dist}/RECORD"] = "\n".join(records) + "\n"
    path = folder / "tinybot-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


def test_a_plugin_installed_from_a_separate_package(tmp_path: Path) -> None:
    """pip installs the plug-in into a fresh venv that sees this project's environment; the
    arena then finds the bot by its entry-point name."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "shengji_env.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    wheel = _wheel(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
         "--no-index", "--quiet", str(wheel)],
        check=True, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    run = subprocess.run(
        [str(py), "-m", "shengji", "arena", "--bots", "tiny,random", "--duplicate",
         "--deals", "2", "--preset", "one-deck", "--json"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["bot_a"] == "tiny" and data["pairs"] == 2
    # and outside that venv nobody knows 'tiny'
    assert "tiny" not in plugins.entry_point_names()
