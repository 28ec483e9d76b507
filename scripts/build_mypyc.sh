#!/usr/bin/env bash
# Opt-in: compile the pure rules core (src/shengji/core) and the bots (src/shengji/bots: the
# heuristic, its memory/odds/outlook, the search and its rollouts, the driver) with mypyc, in
# place. The .so files sit next to the .py files and take precedence on import; remove them
# with `make mypyc-clean` to go back to pure Python (the default, and what CI tests).
# SRC=<dir> builds another checkout's src (used by bench comparisons).
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../src}"
BIN="${BIN:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin}"
# bots/base.py (a runtime-checkable Protocol) and bots/fault.py (an exception class) stay
# interpreted: mypyc compiles neither.
"$BIN/mypyc" shengji/core/*.py $(ls shengji/bots/*.py | grep -Ev '/(base|fault)\.py$')
rm -rf build
echo "compiled: $(ls shengji/core/*.so shengji/bots/*.so | wc -l) extension modules" \
  "(make mypyc-clean removes them)"
