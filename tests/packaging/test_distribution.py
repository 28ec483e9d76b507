"""What PyPI shows and ships: a README whose first screen has the two commands and no link
that breaks off GitHub, POSIX classifiers, dependency floors that work, a lean sdist; and
the docs site's doctest fencing."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_readme_is_a_first_screen() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) < 150
    assert lines[3].startswith("make run ") and lines[4].startswith("make test ")
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r'href="([^"]+)"', text)
    assert all(t.startswith("https://") for t in targets), targets  # PyPI breaks the rest


def test_classifiers_say_posix_and_floors_work() -> None:
    classifiers = PROJECT["classifiers"]
    assert "Operating System :: OS Independent" not in classifiers
    assert "Operating System :: POSIX" in classifiers
    server = PROJECT["optional-dependencies"]["server"]
    # prometheus-client < 0.23 lacks CONTENT_TYPE_PLAIN_0_0_4; redis 5.0.0 lacks aclose, and
    # limits' async storage on redis-py (quotas shared through Redis) needs redis 5.2, limits 4.2
    assert "prometheus-client>=0.23.1" in server and "redis>=5.2.0" in server
    assert any(d.startswith("limits>=4.2") for d in server)
    assert "uvicorn>=0.44" in server  # 0.35-0.43: no keepalive in the sans-I/O protocol


@pytest.mark.skipif(importlib.util.find_spec("build") is None, reason="no 'build' installed")
def test_the_sdist_leaves_out_the_benchmark_results(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(tmp_path),
         str(ROOT)], check=True, capture_output=True, timeout=300,
    )
    (sdist,) = tmp_path.glob("shengji-*.tar.gz")
    with tarfile.open(sdist) as tar:
        members = tar.getmembers()
    names = {m.name.split("/", 1)[1] for m in members if "/" in m.name}
    assert not [n for n in names if n.startswith("bench/results")]
    assert {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml",
            "src/shengji/__init__.py", "bench/rules.py"} <= names
    assert sum(m.size for m in members) < 8_000_000  # 18.9 MB with the results


def test_doctest_blocks_are_fenced_for_the_api_reference() -> None:
    spec = importlib.util.spec_from_file_location("doctests", ROOT / "docs/hooks/doctests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Cards:\n\n>>> parse('SA')[0]\n51\n\n```\n>>> not a doctest\n```\nEnd."
    assert module.fence_doctests(text) == (
        "Cards:\n\n```pycon\n>>> parse('SA')[0]\n51\n```\n\n```\n>>> not a doctest\n```\nEnd."
    )
