"""docs/bot-api.md: the example bot runs as written, and so does every ``shengji`` command
the page gives, through the installed ``shengji`` script (not ``python -m shengji``, whose
current folder is importable anyway), from the folder the bot is saved in; the commands
that name the published bot (``lowest``) run with it installed as a package."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "bot-api.md"
SCRIPT = Path(sys.executable).with_name("shengji")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _code() -> str:
    return next(b for b in _blocks("python") if "class LowestBot" in b)


def _commands() -> list[str]:
    """Every ``shengji`` command of the page: lines of its shell blocks, and inline ones
    with flags (``shengji arena --bots lowest,random``)."""
    lines = [c for b in _blocks("sh") for c in b.splitlines() if c.startswith("shengji ")]
    inline = [c for c in re.findall(r"`(shengji [^`]*--[^`]*)`", DOC.read_text("utf-8"))]
    return list(dict.fromkeys(lines + inline))


def test_the_example_is_about_twenty_lines() -> None:
    assert len([line for line in _code().splitlines() if line.strip()]) <= 25


def test_the_page_has_the_commands_this_test_runs() -> None:
    commands = _commands()
    assert "shengji arena --bots lowest,random" in commands
    assert "shengji play --bots lowest" in commands
    assert sum("lowest_bot:LowestBot" in c for c in commands) >= 2


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example published as the page says (a package with the entry point ``lowest``),
    pip-installed into a folder of its own (``--target``)."""
    folder = tmp_path_factory.mktemp("plugin")
    dist = "shengji_lowest-0.1.0.dist-info"
    files = {
        "lowest_bot.py": _code(),
        f"{dist}/METADATA": "Metadata-Version: 2.1\nName: shengji-lowest\nVersion: 0.1.0\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
        f"{dist}/entry_points.txt": "[shengji.bots]\nlowest = lowest_bot:LowestBot\n",
    }
    files[f"{dist}/RECORD"] = "".join(f"{n},,\n" for n in [*files, f"{dist}/RECORD"])
    wheel = folder / "shengji_lowest-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    target = folder / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         "--target", str(target), str(wheel)],
        check=True, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    return target


@pytest.mark.skipif(not SCRIPT.exists(), reason=f"no installed shengji script at {SCRIPT}")
@pytest.mark.parametrize("command", _commands())
def test_every_command_of_the_page_runs_as_written(
    tmp_path: Path, command: str, installed: Path
) -> None:
    (tmp_path / "lowest_bot.py").write_text(_code(), encoding="utf-8")
    args = command.split()[1:]
    args = [re.sub(r"^\d{2,}$", "2", a) if i and args[i - 1] == "--deals" else a
            for i, a in enumerate(args)]  # fewer deals here
    # PYTHONPATH as the caller has it (the checkout under test), never the current folder;
    # the published bot's folder only where the command names it
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
             if p and Path(p).resolve() != tmp_path.resolve()]
    if "lowest_bot:" not in command:
        paths.append(str(installed))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    extra = {"arena": ["--json", "--no-progress"], "ladder": ["--no-progress"]}.get(args[0], [])
    if "--deals" not in args:
        extra += ["--deals", "2"]
    run = subprocess.run(
        [str(SCRIPT), *args, *extra], cwd=tmp_path, capture_output=True, text=True,
        timeout=300, env=env, input="quit\n",
    )
    if args[0] == "play":  # the bots took their seats; we quit at the first prompt
        assert run.returncode == 1 and not run.stderr and run.stdout.rstrip().endswith("bye")
        return
    assert run.returncode == 0, run.stderr
    if args[0] == "arena":
        data = json.loads(run.stdout)
        assert data["deals"] == (4 if "--duplicate" in args else 2)
        if "--out" in args:
            assert (tmp_path / args[args.index("--out") + 1]).is_file()
    elif args[0] == "ladder":
        ladder = json.loads((tmp_path / "ladder" / "ladder.json").read_text())
        assert {r["bot"] for r in ladder["report"]["ratings"]} == {"lowest", "random", "heuristic"}


def test_a_bot_that_raises_shows_its_traceback(tmp_path: Path) -> None:
    (tmp_path / "broken_bot.py").write_text(
        "class Broken:\n    name = 'broken'\n\n    def choose(self, view, legal):\n"
        "        return {}['nope']\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    base = [str(SCRIPT), "arena", "--bots", "broken_bot:Broken,random", "--deals", "1"]
    plain = subprocess.run(base, cwd=tmp_path, capture_output=True, text=True, env=env,
                           timeout=120)
    assert plain.returncode == 1
    assert "bot 'broken' at seat 0 raised KeyError: 'nope'" in plain.stderr
    assert "--traceback shows where" in plain.stderr and "Traceback" not in plain.stderr
    shown = subprocess.run([*base, "--traceback"], cwd=tmp_path, capture_output=True,
                           text=True, env=env, timeout=120)
    assert shown.returncode == 1
    assert "Traceback (most recent call last)" in shown.stderr
    assert 'broken_bot.py", line 5, in choose' in shown.stderr
