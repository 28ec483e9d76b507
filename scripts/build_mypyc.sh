#!/usr/bin/env bash
# Opt-in: compile with mypyc, in place, the pure rules core (src/shengji/core), the bots
# (src/shengji/bots: the heuristic, its memory/odds/outlook, the search and its rollouts, the
# driver) and the server's per-action path: the table's state machine (server/table), the
# rendering of each seat's view (server/wire/seat_view.py, server/wire/render.py) and the replay
# buffer (server/live/backlog.py). The .so files sit next to the .py files and take precedence on
# import; remove them with `make mypyc-clean` to go back to pure Python (the default, and
# what CI tests). SRC=<dir> builds another checkout's src (used by bench comparisons).
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../src}"
BIN="${BIN:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin}"
# bots/base.py (a runtime-checkable Protocol) and bots/fault.py (an exception class) stay
# interpreted: mypyc compiles neither. So do the server's I/O shell (rooms, sockets: asyncio)
# and the wire structs (msgspec classes; their rendering is apart, in wire/render.py).
# The table's state machine, not the room-option and vote helpers that sit beside it in
# table/ (validate, catalog, seeds, votes, owners, settlement, compiled: not per action).
TABLE="$(ls shengji/server/table/*.py \
  | grep -Ev '/(validate|catalog|seeds|votes|owners|settlement|compiled)\.py$')"
SERVER="$TABLE shengji/server/wire/seat_view.py shengji/server/wire/render.py
  shengji/server/live/backlog.py"
# shellcheck disable=SC2086  # the globs above are meant to expand
"$BIN/mypyc" shengji/core/*.py $(ls shengji/bots/*.py | grep -Ev '/(base|fault)\.py$') $SERVER
rm -rf build
echo "compiled: $(ls shengji/core/*.so shengji/bots/*.so shengji/server/*/*.so \
  | wc -l) extension modules (make mypyc-clean removes them)"
