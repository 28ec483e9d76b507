#!/usr/bin/env bash
# The lowest allowed versions of the direct dependencies of the core and of the server,
# postgres and env extras (scripts/lowest_versions.py; not torch or ray), installed into a
# separate virtual environment (.venv-lowest), and the tests run on them. Arguments: the
# tests (default: LOWEST_TESTS of the Makefile). The test tools come at constraints.txt's
# versions; everything else pip resolves around the floors.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="${PY:-python3}"
VENV="${LOWEST_VENV:-$ROOT/.venv-lowest}"
cd "$ROOT"
"$PY" -m venv "$VENV"
LOWEST="$VENV/lowest.txt"
"$VENV/bin/python" scripts/lowest_versions.py server postgres env > "$LOWEST"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/pip" install -q -c "$LOWEST" -e '.[server,postgres,env]'
tools=$(grep -iE '^(pytest|pytest-xdist|execnet|iniconfig|pluggy|hypothesis|sortedcontainers|attrs|httpx|httpcore|certifi|h11|idna|anyio|psutil|jsonschema|jsonschema-specifications|referencing|rpds-py)==' constraints.txt)
# shellcheck disable=SC2086
"$VENV/bin/pip" install -q -c "$LOWEST" $tools
"$VENV/bin/python" - "$LOWEST" <<'PY'
import sys
from importlib.metadata import version

names = [line.split("==")[0] for line in open(sys.argv[1]) if "==" in line]
print("test-lowest: installed", ", ".join(f"{n} {version(n)}" for n in names))
PY
"$VENV/bin/python" -m pytest -n 2 -p no:cacheprovider "$@"
