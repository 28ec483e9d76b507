"""Instructions per game action of a room's whole send path, counted by valgrind: a figure
that a shared, noisy machine does not move, for comparing small changes.

``bench/send_path.py --deflate off`` (one room, 4 seats + 1 spectator, seeded random plays,
writes answered in memory) runs under ``valgrind --tool=cachegrind --cache-sim=no`` twice
per source tree, for 1 and for 3 deals; the difference in instructions over the difference
in logged actions (and plays) is what deals 2 and 3 cost, without start-up and imports. The
runs are deterministic (fixed seeds, ``PYTHONHASHSEED=0``), so before and after differ only
by the code. Timing figures stay with ``send_path.py`` and ``server_load.py``; this one
says which of two trees does less work, to well under 1 %.

    python bench/room_ir.py --server before=/work/wt-before --server after=.

Needs valgrind (Debian: ``apt-get install valgrind``); about a minute per tree.
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

HERE = Path(__file__).resolve().parent
IREFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def count(tree: Path, deals: int) -> tuple[int, dict[str, Any]]:
    """Instructions of one ``send_path`` run on ``tree`` and that run's figures."""
    with tempfile.TemporaryDirectory(prefix="room_ir_") as tmp:
        out = Path(tmp) / "r.json"
        env = dict(os.environ, PYTHONPATH=f"{tree / 'src'}:{tree}", PYTHONHASHSEED="0")
        cmd = [
            "valgrind", "--tool=cachegrind", "--cache-sim=no",
            f"--cachegrind-out-file={Path(tmp) / 'cg.out'}",
            sys.executable, str(HERE / "send_path.py"), "--deals", str(deals),
            "--repeat", "1", "--deflate", "off", "--no-sizes", "--label", "ir", "--out", str(out),
        ]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        m = IREFS.search(done.stderr)
        if m is None:
            raise RuntimeError(f"valgrind printed no instruction count:\n{done.stderr[-2000:]}")
        run = json.loads(out.read_text())["ir"]["results"][0]
        return int(m.group(1).replace(",", "")), run


def measure(label: str, tree: Path) -> dict[str, Any]:
    """Instructions per logged action and per play on ``tree`` (deals 2 and 3)."""
    ir1, r1 = count(tree, 1)
    ir3, r3 = count(tree, 3)
    actions = r3["actions"] - r1["actions"]
    plays = r3["plays"] - r1["plays"]
    row = {
        "label": label,
        "tree": str(tree),
        "actions": actions,
        "plays": plays,
        "instructions": ir3 - ir1,
        "instructions_per_action": round((ir3 - ir1) / max(1, actions)),
        "instructions_per_play": round((ir3 - ir1) / max(1, plays)),
    }
    print(
        f"{label:>10}: {row['instructions_per_action'] / 1e6:7.3f} M instructions per logged "
        f"action, {row['instructions_per_play'] / 1e6:7.3f} M per play "
        f"({actions} actions, {plays} plays in deals 2-3)",
        flush=True,
    )
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--server", action="append", default=[], metavar="LABEL=PATH",
        help="a source tree (repeat to compare); default this one",
    )
    ap.add_argument("--out", default="bench/results/room_ir.json")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("room_ir: valgrind is not installed (Debian: apt-get install valgrind)")
    trees = [s.split("=", 1) for s in args.server] or [["this", str(HERE.parent)]]
    rows = [measure(label, Path(path).resolve()) for label, path in trees]
    if len(rows) > 1:
        base = rows[0]["instructions_per_action"]
        for r in rows[1:]:
            change = r["instructions_per_action"] / base - 1
            print(f"{r['label']} vs {rows[0]['label']}: {change:+.1%} instructions per action")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows}, indent=2) + "\n")
    print(f"saved {out}")


if __name__ == "__main__":
    main()
