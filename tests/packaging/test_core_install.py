"""``pip install shengji`` is the core alone: the wheel, installed with no extras into a
fresh venv (``--no-deps``, then only the core's own requirements at the versions of
constraints.txt: rich), runs the judge and the arena, has no FastAPI, and ``shengji serve``
says in one line how to add the server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from shengji import __version__

ROOT = Path(__file__).resolve().parents[2]


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return z.read(name).decode()


def core_requirements(wheel: Path) -> list[str]:
    """The wheel's requirements outside any extra."""
    lines = [line.removeprefix("Requires-Dist: ") for line in _metadata(wheel).splitlines()
             if line.startswith("Requires-Dist:")]
    return [r for r in lines if "extra ==" not in r]


def _run(args: list[str | Path], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=120, check=False, **kw
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this tree (hatchling from the dev venv, nothing downloaded)."""
    out = tmp_path_factory.mktemp("dist")
    built = _run(
        [
            sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
            "--no-index", "-q", "-w", out, ROOT,
        ]
    )
    assert built.returncode == 0, built.stderr
    (found,) = out.glob("shengji-*.whl")
    return found


@pytest.fixture(scope="module")
def core_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv (no system site-packages) with the wheel and no extra: its bin folder."""
    venv = tmp_path_factory.mktemp("core") / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = _run(
        [
            sys.executable, "-m", "pip", "--python", python, "install", "-q",
            "--no-deps", "--no-index", wheel,
        ]
    )
    assert installed.returncode == 0, installed.stderr
    core = core_requirements(wheel)
    if core:  # from pip's cache or the index, at the tested versions
        deps = _run(
            [
                sys.executable, "-m", "pip", "--python", python, "install", "-q",
                "-c", ROOT / "constraints.txt", *core,
            ]
        )
        if deps.returncode != 0:
            pytest.skip(f"could not install the core's requirements {core}: "
                        f"{deps.stderr.strip().splitlines()[-1:]}")
    return venv / "bin"


def test_the_core_requires_no_server_package_and_the_wheel_carries_the_license(
    wheel: Path,
) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    meta = _metadata(wheel)
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert any(line.startswith("Requires-Dist: fastapi") for line in requires)
    core = {re.match(r"[A-Za-z0-9._-]+", r).group(0).lower()  # type: ignore[union-attr]
            for r in core_requirements(wheel)}
    # the server stack only with the server extra; mypy_extensions is a few decorators
    # (``mypyc_attr``) that say how the opt-in compiled build compiles a class
    assert core <= {"rich", "mypy-extensions", "msgspec"}, core
    assert "License-Expression: MIT" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert f"Version: {__version__}" in meta
    assert "shengji/web/static/index.html" in names  # the browser table ships with it
    assert "shengji/server/store/migrations/versions/r0001_first_schema.py" in names
    assert "shengji/server/store/migrations/env.py" in names


def test_the_core_alone_judges_and_plays(core_venv: Path) -> None:
    env = {"PATH": f"{core_venv}:/usr/bin:/bin", "HOME": str(core_venv.parent)}
    no_fastapi = _run([core_venv / "python", "-c", "import fastapi"], env=env)
    assert no_fastapi.returncode != 0 and "No module named 'fastapi'" in no_fastapi.stderr

    version = _run([core_venv / "shengji", "--version"], env=env)
    assert version.returncode == 0 and version.stdout.strip() == f"shengji {__version__}"

    request = {"id": "x", "op": "classify", "preset": "classic", "level": "10",
               "trump": "H", "cards": "SK SK SQ SQ"}
    judged = _run([core_venv / "shengji", "judge"], input=json.dumps(request) + "\n", env=env)
    assert judged.returncode == 0, judged.stderr
    answer = json.loads(judged.stdout)
    assert answer["id"] == "x" and answer["kind"] == "tractor"

    arena = _run([core_venv / "shengji", "arena", "--deals", "2", "--json"], env=env)
    assert arena.returncode == 0, arena.stderr
    assert json.loads(arena.stdout)["deals"] == 2

    # the terminal game narrates the table's typed projection (msgspec, no server stack)
    played = _run([core_venv / "shengji", "play", "--seed", "3"], input="quit\n", env=env)
    assert played.returncode == 1, played.stderr
    assert played.stdout.rstrip().endswith("bye"), played.stdout[-300:]


def test_server_commands_say_how_to_install_the_server(core_venv: Path) -> None:
    env = {"PATH": f"{core_venv}:/usr/bin:/bin", "HOME": str(core_venv.parent)}
    for command in (["serve"], ["rooms", "quarantined"], ["db", "upgrade"]):
        done = _run([core_venv / "shengji", *command], env=env)
        assert done.returncode == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith(f"shengji {command[0]}: the server's packages")
        assert lines[0].endswith("pip install 'shengji[server]'")
        assert "fastapi" in lines[0]
