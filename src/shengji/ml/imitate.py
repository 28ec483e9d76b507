"""Warm start by imitation: the policy learns the ``heuristic`` bot's picks, then self-play.

``demonstrations`` plays deals in ``shengji_v0`` with a ``HeuristicBot`` at every seat and
records, at every step, the observation, the mask, the index the teacher's action takes
there (``Turn.indices_for``) and the seat's final reward. ``explore`` is the share of
decisions where a random allowed action is played instead (its steps are not recorded), so
the student also sees states the teacher would not reach. ``pretrain`` fits the policy head
by cross-entropy on the masked logits and the value head to the final rewards; PPO in
self-play then starts from these weights (``train.py --init``).

    python -m shengji.ml.imitate --deals 16000 --jobs 2 --hidden 256 --epochs 8 \\
        --out bc-classic.pt --eval-deals 60 --curve imitation.json

>>> data = demonstrations("classic", deals=1, seed=3)
>>> int(data.action.shape[0]) == int(data.obs.shape[0]) > 100, data.obs.dtype.name
(True, 'float16')
>>> bool(data.mask[np.arange(len(data.action)), data.action].all())  # every label allowed
True
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from shengji.bots.heuristic import HeuristicBot
from shengji.core.actions import Pass
from shengji.core.views import view_for
from shengji.env.aec import ShengjiEnv, agent_name
from shengji.ml.policy import PolicyNet, save
from shengji.ml.train import evaluate_net, final_reward, write_log


@dataclass
class Demonstrations:
    """Recorded steps: observations (float16), masks (bool), the teacher's index and the
    acting seat's final reward (signed levels plus ``shaping`` × attacker points / 100)."""

    obs: npt.NDArray[np.float16]
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int16]
    ret: npt.NDArray[np.float32]
    deals: int

    @staticmethod
    def join(parts: list[Demonstrations]) -> Demonstrations:
        """One set from several (in order)."""
        return Demonstrations(
            np.concatenate([p.obs for p in parts]), np.concatenate([p.mask for p in parts]),
            np.concatenate([p.action for p in parts]), np.concatenate([p.ret for p in parts]),
            sum(p.deals for p in parts),
        )


def demonstrations(
    preset: str, deals: int, seed: int, explore: float = 0.0, shaping: float = 1.0
) -> Demonstrations:
    """``deals`` deals of heuristic play (``explore``: share of random decisions)."""
    env = ShengjiEnv(preset)
    rng = random.Random(seed)
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    acts: list[int] = []
    seats: list[int] = []
    ret: list[float] = []
    for _ in range(deals):
        env.reset(seed=rng.getrandbits(32))
        teachers = [HeuristicBot(rng.getrandbits(32)) for _ in range(env.ruleset.players)]
        first = len(acts)
        while env.turn is not None:
            turn = env.turn
            seat = turn.seat
            if explore and rng.random() < explore:
                env.apply_action(turn.legal.sample(rng) if not turn.offer else None)
                continue
            choice = teachers[seat].choose(view_for(env.state, seat), turn.legal)
            if choice is None and not turn.offer:
                choice = Pass(seat)
            for index in turn.indices_for(choice):
                o = env.observe(agent_name(seat))
                obs.append(o["observation"])
                masks.append(o["action_mask"])
                acts.append(index)
                seats.append(seat)
                env.step(index)
        final = [final_reward(env, s, shaping) for s in range(env.ruleset.players)]
        ret.extend(final[seats[i]] for i in range(first, len(acts)))
    return Demonstrations(
        np.asarray(obs, dtype=np.float16), np.asarray(masks, dtype=np.bool_),
        np.asarray(acts, dtype=np.int16), np.asarray(ret, dtype=np.float32), deals,
    )


def _chunk(args: tuple[str, int, int, float, float]) -> Demonstrations:
    return demonstrations(*args)


def collect(
    preset: str, deals: int, seed: int, jobs: int = 1, explore: float = 0.0,
    shaping: float = 1.0, chunk: int = 200,
) -> Demonstrations:
    """``demonstrations`` in chunks of ``chunk`` deals over ``jobs`` processes."""
    tasks = [(preset, min(chunk, deals - lo), seed * 1_000_003 + k, explore, shaping)
             for k, lo in enumerate(range(0, deals, chunk))]
    if jobs <= 1:
        return Demonstrations.join([_chunk(t) for t in tasks])
    with ProcessPoolExecutor(jobs) as pool:
        return Demonstrations.join(list(pool.map(_chunk, tasks)))


def pretrain(
    net: PolicyNet, data: Demonstrations, epochs: int = 3, lr: float = 1e-3,
    batch: int = 1024, value_weight: float = 0.25, seed: int = 0,
    on_epoch: Callable[[dict[str, float]], None] | None = None,
) -> list[dict[str, float]]:
    """Fit ``net`` to the demonstrations; one log entry per epoch (loss, pick accuracy).
    ``on_epoch(entry)`` is called after each epoch (evaluations, checkpoints)."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    n = len(data.action)
    obs = torch.from_numpy(data.obs)
    mask = torch.from_numpy(data.mask)
    act = torch.from_numpy(data.action.astype(np.int64))
    ret = torch.from_numpy(data.ret)
    steps = epochs * ((n + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1))
    log: list[dict[str, float]] = []
    net.train()
    for epoch in range(epochs):
        order = torch.randperm(n, generator=gen)
        total = correct = 0.0
        for lo in range(0, n, batch):
            idx = order[lo : lo + batch]
            logits, value = net(obs[idx].float(), mask[idx])
            pick = torch.nn.functional.cross_entropy(logits, act[idx])
            loss = pick + value_weight * (value - ret[idx]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            correct += float((logits.argmax(-1) == act[idx]).sum())
        entry = {"epoch": epoch + 1, "loss": total / n, "accuracy": correct / n}
        log.append(entry)
        if on_epoch is not None:
            on_epoch(entry)
    net.eval()
    return log


def main(argv: list[str] | None = None) -> int:
    """``python -m shengji.ml.imitate``."""
    ap = argparse.ArgumentParser(description="Pretrain a policy on the heuristic's play.")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=2000, help="deals of heuristic play")
    ap.add_argument("--explore", type=float, default=0.1,
                    help="share of decisions played at random (not recorded)")
    ap.add_argument("--shaping", type=float, default=1.0,
                    help="value target: signed levels + this × attacker points / 100")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--out", required=True, help="checkpoint file")
    ap.add_argument("--eval-deals", type=int, default=0,
                    help="duplicate pairs against random after each epoch (0: none)")
    ap.add_argument("--curve", default=None, help="write the log (JSON) here")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.perf_counter()
    data = collect(args.preset, args.deals, args.seed, args.jobs, args.explore, args.shaping)
    made = time.perf_counter() - start
    print(json.dumps({"deals": data.deals, "steps": len(data.action),
                      "seconds": round(made, 1)}), file=sys.stderr, flush=True)
    net = PolicyNet(data.obs.shape[1], data.mask.shape[1], args.hidden)
    meta = {"preset": args.preset, "imitation_deals": data.deals}
    log: list[dict[str, Any]] = [{"phase": "demonstrations", "deals": data.deals,
                                  "steps": len(data.action), "seconds": round(made, 1)}]

    def on_epoch(fit: dict[str, float]) -> None:
        entry: dict[str, Any] = {"phase": "imitation", **fit,
                                 "seconds": round(time.perf_counter() - start, 1)}
        if args.eval_deals:
            entry["vs_random"] = evaluate_net(net, args.preset, "random", args.eval_deals,
                                              args.seed)
        save(net, args.out, meta)
        log.append(entry)
        print(json.dumps(entry), file=sys.stderr, flush=True)
        if args.curve:
            write_log(args.curve, log)

    pretrain(net, data, args.epochs, args.lr, seed=args.seed, on_epoch=on_epoch)
    save(net, args.out, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
