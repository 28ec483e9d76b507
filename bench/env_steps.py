"""Environment throughput: ``shengji_v0`` steps per second with random allowed actions.

Each step is one ``env.last()`` (the observation and its mask) plus one ``env.step``, as a
learner's loop does, through PettingZoo's order-enforcing wrapper; the steps that retire
finished agents are not counted. Prints figures and writes them as JSON; asserts nothing.

    .venv/bin/python bench/env_steps.py [--preset classic] [--seconds 10] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from shengji.env import shengji_v0


def run(preset: str, seconds: float, seed: int) -> dict[str, object]:
    """Play deals with random allowed actions for about ``seconds``; the figures."""
    env = shengji_v0.env(preset=preset)
    rng = random.Random(seed)
    steps = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + deals)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            del agent
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            steps += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return {
        "preset": preset,
        "deals": deals,
        "steps": steps,
        "seconds": round(elapsed, 2),
        "steps_per_second": round(steps / elapsed),
        "deals_per_second": round(deals / elapsed, 2),
        "steps_per_deal": round(steps / deals, 1),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "machine": platform.machine(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="bench/results/env_steps.json", help="JSON file to write")
    args = ap.parse_args(argv)
    figures = run(args.preset, args.seconds, args.seed)
    print(
        f"shengji_v0 {figures['preset']}: {figures['steps_per_second']} steps/s, "
        f"{figures['deals_per_second']} deals/s, {figures['steps_per_deal']} steps/deal "
        f"({figures['steps']} steps in {figures['seconds']} s, {figures['python']})"
    )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
