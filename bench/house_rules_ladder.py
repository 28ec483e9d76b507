"""Bots under house rules: the ladder (random vs heuristic, duplicate deals) for two rule
sets no preset plays (``bench/rules/*.json``, the create-room form's rules files), with the
heuristic bot's level rate against random for each. Prints the figures and writes them as
JSON; asserts nothing.

    PYTHONPATH=src .venv/bin/python bench/house_rules_ladder.py --deals 200 \\
        --out bench/results/house_rules_ladder.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from shengji.cli.main import main as shengji

RULES = sorted((Path(__file__).parent / "rules").glob("*.json"))


def ladder_figures(rules: Path, deals: int, seed: str) -> dict[str, Any]:
    """One ladder under ``rules``: the heuristic bot's level rate and deal win rate against
    random, with their 95% intervals."""
    with tempfile.TemporaryDirectory() as out:
        code = shengji(["ladder", "--rules", str(rules), "--bots", "random,heuristic",
                        "--deals", str(deals), "--seed", seed, "--out-dir", out])
        if code:
            raise SystemExit(code)
        data = json.loads((Path(out) / "ladder.json").read_text(encoding="utf-8"))
    (pair,) = data["report"]["matchups"]  # random (A) vs heuristic (B)
    rate = pair["level_rate"]
    return {
        "rules": json.loads(rules.read_text(encoding="utf-8")),
        "deal_pairs": pair["pairs"],
        "heuristic_level_rate": round(1 - rate["mean"], 4),
        "heuristic_level_rate_ci": [round(1 - rate["hi"], 4), round(1 - rate["lo"], 4)],
        "heuristic_deal_win_rate": round(1 - pair["deal_win_rate"]["mean"], 4),
        "heuristic_signed_levels_per_deal": -pair["signed_levels_per_deal"]["mean"],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", default="45")
    p.add_argument("--out", default="bench/results/house_rules_ladder.json")
    args = p.parse_args()
    out = {r.stem: ladder_figures(r, args.deals, args.seed) for r in RULES}
    for name, f in out.items():
        print(f"{name}: heuristic level rate vs random {f['heuristic_level_rate']:.3f} "
              f"(95% {f['heuristic_level_rate_ci'][0]:.3f}..{f['heuristic_level_rate_ci'][1]:.3f}),"
              f" {f['deal_pairs']} duplicate deal pairs")
    Path(args.out).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
