#!/usr/bin/env bash
# The compiled build (docs/deploy.md "The compiled build"): compile with mypyc, in place, the
# pure rules core (src/shengji/core), the bots (src/shengji/bots: the heuristic, its
# memory/odds/outlook, the search and its rollouts, the driver) and the server's per-action
# path: the table's state machine (server/table), the rendering of each seat's view
# (server/wire/seat_view.py, server/wire/render.py), which view fields an action changed
# (server/wire/changes.py, protocol 3's deltas), the replay buffer
# (server/live/backlog.py) and each connection's buffer and flush (server/live/conn.py). The
# .so files sit next to the .py files and take precedence on import; `make mypyc-clean`
# removes them (pure Python again: what `make run` starts, at once). What `make host` and
# the deploy/ image build. A build whose sources have not changed since the last one is kept
# (src/.mypyc-built holds their hash); FORCE=1 builds anyway. SRC=<dir> builds another
# checkout's src (used by bench comparisons).
set -euo pipefail
cd "${SRC:-$(dirname "$0")/../src}"
BIN="${BIN:-$(cd "$(dirname "$0")/.." && pwd)/.venv/bin}"
# bots/base.py (a runtime-checkable Protocol) and bots/fault.py (an exception class) stay
# interpreted: mypyc compiles neither. So do the rest of the server's I/O shell (rooms,
# sockets: asyncio tasks and protocols) and the wire structs (msgspec classes; their
# rendering is apart, in wire/render.py).
# The table's state machine, not the room-option and vote helpers that sit beside it in
# table/ (validate, catalog, rule_fields, seeds, votes, owners, settlement, compiled: not per
# action).
TABLE="$(ls shengji/server/table/*.py \
  | grep -Ev '/(validate|catalog|rule_fields|seeds|votes|owners|settlement|compiled)\.py$')"
SERVER="$TABLE shengji/server/wire/seat_view.py shengji/server/wire/render.py
  shengji/server/wire/changes.py shengji/server/live/backlog.py shengji/server/live/conn.py"
# shellcheck disable=SC2086  # the globs above are meant to expand
FILES="$(ls shengji/core/*.py $(ls shengji/bots/*.py | grep -Ev '/(base|fault)\.py$') $SERVER)"
# MYPYC_OPT_LEVEL (mypyc's own setting, default 3) is the C compiler's optimisation: 0 builds
# the same C about twice as fast and runs it slower (CI tests with it; hosts keep 3).
# shellcheck disable=SC2086
HASH="$( (cat $FILES; "$BIN/python" -VV; echo "opt ${MYPYC_OPT_LEVEL:-3}"
  "$BIN/mypyc" --version 2>/dev/null || true) \
  | sha256sum | cut -d' ' -f1)"
if [ "${FORCE:-0}" != 1 ] && [ -f .mypyc-built ] && [ "$(cat .mypyc-built)" = "$HASH" ] \
  && ls shengji/server/table/*.so >/dev/null 2>&1; then
  echo "compiled build up to date (FORCE=1 builds again; make mypyc-clean removes it)"
  exit 0
fi
rm -f .mypyc-built
# shellcheck disable=SC2086
"$BIN/mypyc" $FILES
rm -rf build
echo "$HASH" > .mypyc-built
echo "compiled: $(ls shengji/core/*.so shengji/bots/*.so shengji/server/*/*.so \
  | wc -l) extension modules (make mypyc-clean removes them)"
