"""What ``bench/room_ir.py`` and ``bench/rollout_ir.py`` share: counting a command's
instructions under valgrind, and comparing and saving the trees' rows.

Instruction counts are deterministic for a fixed seed and ``PYTHONHASHSEED``, so two source
trees differ only by their code, whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def need_valgrind(name: str) -> None:
    """Exit with a clear message when valgrind is not installed."""
    if shutil.which("valgrind") is None:
        sys.exit(f"{name}: valgrind is not installed (Debian: apt-get install valgrind)")


def instructions(tree: Path, args: list[str]) -> tuple[int, str]:
    """Instructions of ``python args...`` with ``tree``'s code (run in ``tree``), and what
    it printed."""
    with tempfile.TemporaryDirectory(prefix="ir_") as tmp:
        env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}:{tree}", PYTHONHASHSEED="0")
        cmd = [
            "valgrind", "--tool=cachegrind", "--cache-sim=no",
            f"--cachegrind-out-file={Path(tmp) / 'cg.out'}", sys.executable, *args,
        ]
        done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    m = IREFS.search(done.stderr)
    if m is None:
        raise RuntimeError(f"valgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(m.group(1).replace(",", "")), done.stdout


def add_trees(ap: argparse.ArgumentParser, flag: str = "--tree") -> None:
    """The ``LABEL=PATH`` option naming the source trees to compare."""
    ap.add_argument(
        flag, action="append", default=[], metavar="LABEL=PATH",
        help="a source tree (repeat to compare); default this one",
    )


def trees(given: list[str], default: Path) -> list[tuple[str, Path]]:
    """``LABEL=PATH`` options as (label, resolved path); none given: ``("this", default)``."""
    pairs = [t.split("=", 1) for t in given] or [["this", str(default)]]
    return [(label, Path(path).resolve()) for label, path in pairs]


def compare_and_save(rows: list[dict[str, Any]], key: str, what: str, out: Path) -> None:
    """Print each row's change in ``key`` against the first row's, save the rows as JSON."""
    if len(rows) > 1:
        base = rows[0][key]
        for r in rows[1:]:
            print(f"{r['label']} vs {rows[0]['label']}: {r[key] / base - 1:+.1%} {what}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    print(f"saved {out}")
