"""The lowest allowed versions of shengji's direct dependencies, as pip constraints.

    python scripts/lowest_versions.py server postgres env > lowest.txt
    pip install -c lowest.txt -e '.[server,postgres,env]'

Reads pyproject.toml: for the core's requirements and those of the extras named, each
requirement's ``>=`` floor becomes ``name==floor`` (a requirement without a floor is an
error: every direct dependency states one). The extras' references to shengji itself
(``shengji[server]``) are followed. ``make test-lowest`` installs these into a separate
virtual environment and runs the core, server and env suites on them.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$")


def floors(extras: list[str]) -> dict[str, str]:
    """``{distribution: lowest allowed version}`` for the core and ``extras``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional: dict[str, list[str]] = project["optional-dependencies"]
    requirements = list(project["dependencies"])
    seen: set[str] = set()
    todo = list(extras)
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        if extra not in optional:
            raise SystemExit(f"no extra {extra!r} in pyproject.toml")
        seen.add(extra)
        for req in optional[extra]:
            match = _REQ.match(req)
            assert match is not None, req
            if match.group(1) == project["name"]:
                todo += [e.strip() for e in (match.group(2) or "[]")[1:-1].split(",") if e]
            else:
                requirements.append(req)
    out: dict[str, str] = {}
    for req in requirements:
        match = _REQ.match(req)
        assert match is not None, req
        floor = re.search(r">=\s*([0-9][^,;\s]*)", match.group(3))
        if floor is None:
            raise SystemExit(f"requirement {req!r} states no floor (>=)")
        out[match.group(1).lower()] = floor.group(1)
    return out


def main(argv: list[str]) -> int:
    for name, version in sorted(floors(argv).items()):
        print(f"{name}=={version}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
