"""Instructions per game action of a room's whole send path, counted by valgrind: a figure
that a shared, noisy machine does not move, for comparing small changes.

``bench/send_path.py --deflate off`` (one room, 4 seats + 1 spectator, seeded random plays,
writes answered in memory; ``--protocol`` 3, deltas as the browser gets them, the default,
or 2, whole views) runs under ``valgrind --tool=cachegrind --cache-sim=no`` twice per
source tree, for 1 and for 3 deals; the difference in instructions over the difference
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
import sys
import tempfile
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.valgrind_ir import add_trees, compare_and_save, instructions, need_valgrind, trees

HERE = Path(__file__).resolve().parent


def count(tree: Path, deals: int, protocol: int = 3) -> tuple[int, dict[str, Any]]:
    """Instructions of one ``send_path`` run on ``tree`` and that run's figures."""
    with tempfile.TemporaryDirectory(prefix="room_ir_") as tmp:
        out = Path(tmp) / "r.json"
        ir, _ = instructions(tree, [
            str(HERE / "send_path.py"), "--deals", str(deals), "--repeat", "1",
            "--deflate", "off", "--no-sizes", "--label", "ir", "--out", str(out),
            "--protocol", str(protocol),
        ])
        run = json.loads(out.read_text())["ir"]["results"][0]
        return ir, run


def measure(label: str, tree: Path, protocol: int = 3) -> dict[str, Any]:
    """Instructions per logged action and per play on ``tree`` (deals 2 and 3)."""
    ir1, r1 = count(tree, 1, protocol)
    ir3, r3 = count(tree, 3, protocol)
    actions = r3["actions"] - r1["actions"]
    plays = r3["plays"] - r1["plays"]
    row = {
        "label": label,
        "tree": str(tree),
        "protocol": protocol,
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
    add_trees(ap, "--server")
    ap.add_argument("--out", default="bench/results/room_ir.json")
    ap.add_argument("--protocol", type=int, choices=(2, 3), default=3,
                    help="the clients' protocol: 3 deltas (as the browser), 2 whole views")
    args = ap.parse_args()
    need_valgrind("room_ir")
    rows = [
        measure(label, tree, args.protocol) for label, tree in trees(args.server, HERE.parent)
    ]
    compare_and_save(rows, "instructions_per_action", "instructions per action", Path(args.out))


if __name__ == "__main__":
    main()
