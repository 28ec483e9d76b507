"""``python -m shengji.judge``: the rules oracle on stdin/stdout."""

import sys

from shengji.judge.oracle import run

raise SystemExit(run(sys.stdin, sys.stdout))
