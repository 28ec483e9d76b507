#!/usr/bin/env bash
# The tests against the compiled build (scripts/build_mypyc.sh), built in a temporary copy of
# src so that this checkout stays pure Python. Arguments: the tests to run (default: the
# core's, the bots' and the server's). About six minutes to build on two cores, then the tests.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${BIN:-$ROOT/.venv/bin}"
# MYPYC_COPY: a copy of src made (and maybe built, e.g. in the background) beforehand; the
# build below then finds it up to date
if [ -n "${MYPYC_COPY:-}" ]; then
  COPY="$MYPYC_COPY"
else
  COPY="$(mktemp -d)"
  trap 'rm -rf "$COPY"' EXIT
  cp -r "$ROOT/src" "$COPY/"
fi
SRC="$COPY/src" BIN="$BIN" bash "$ROOT/scripts/build_mypyc.sh"
cd "$ROOT"
if [ "$#" -eq 0 ]; then set -- tests/core tests/bots tests/server; fi
PYTHONPATH="$COPY/src" "$BIN/python" -c \
  'from shengji.bots.build import compiled; from shengji.server.table.compiled import tables_compiled
assert compiled() and tables_compiled()'
PYTHONPATH="$COPY/src" "$BIN/python" -m pytest -n 2 -p no:cacheprovider "$@"
