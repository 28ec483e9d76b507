#!/usr/bin/env bash
# Opt-in: compile the pure rules core (src/shengji/core) with mypyc, in place.
# The .so files sit next to the .py files and take precedence on import; remove them with
# `make mypyc-clean` to go back to pure Python (the default, and what CI tests).
set -euo pipefail
cd "$(dirname "$0")/../src"
BIN="${BIN:-../.venv/bin}"
"$BIN/mypyc" shengji/core/*.py
rm -rf build
echo "compiled: $(ls shengji/core/*.so | wc -l) extension modules (make mypyc-clean removes them)"
