"""Masked PPO in self-play on ``shengji_v0``: every seat is played by the same policy.

Each update plays ``envs`` deals to the end (one environment each, their forward passes
batched), gives each seat's last step of a deal its reward (signed levels, plus a small
share of attacker points as shaping if asked), computes advantages per seat with GAE
(gamma 1), and takes PPO steps (clipped ratio, value loss, entropy bonus) over minibatches.
Illegal indices never get probability: the logits of masked indices are -1e9.

    python -m shengji.ml.train --preset classic --init bc-classic.pt --minutes 50 \\
        --out ppo-classic.pt --eval-every 300000 --eval-deals 80 --curve ppo.json

>>> log = train(preset="one-deck", steps=150, envs=1, seed=1, hidden=16, out=None)
>>> log[-1]["steps"] >= 150, {"loss", "deals", "mean_reward"} <= set(log[-1])
(True, True)
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from shengji.env.aec import ShengjiEnv, agent_name
from shengji.ml.policy import PolicyNet, load, save


@dataclass
class Batch:
    """Steps of one update, in the order they were taken."""

    obs: list[np.ndarray[Any, Any]] = field(default_factory=list)
    mask: list[np.ndarray[Any, Any]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    reward: list[float] = field(default_factory=list)
    trajectories: list[list[int]] = field(default_factory=list)
    """Step indices of each (deal, seat), in order."""


def collect(
    net: PolicyNet, envs: list[ShengjiEnv], rng: random.Random, shaping: float
) -> tuple[Batch, list[float]]:
    """Play one deal in every environment with the current policy (sampling)."""
    batch = Batch()
    per_seat: list[dict[int, list[int]]] = []
    for env in envs:
        env.reset(seed=rng.getrandbits(32))
        per_seat.append({})
    live = list(range(len(envs)))
    rewards: list[float] = []
    while live:
        obs_list, mask_list = [], []
        for k in live:
            o = envs[k].observe(envs[k].agent_selection)
            obs_list.append(o["observation"])
            mask_list.append(o["action_mask"].astype(bool))
        obs = torch.from_numpy(np.stack(obs_list))
        mask = torch.from_numpy(np.stack(mask_list))
        with torch.no_grad():
            logits, value = net(obs, mask)
            logp_all = torch.log_softmax(logits, dim=-1)
            actions = torch.multinomial(logp_all.exp(), 1).squeeze(-1)
            logps = logp_all.gather(1, actions.unsqueeze(1)).squeeze(1)
        still = []
        for j, k in enumerate(live):
            env = envs[k]
            turn = env.turn
            assert turn is not None
            seat = turn.seat
            index = len(batch.action)
            batch.obs.append(obs_list[j])
            batch.mask.append(mask_list[j])
            batch.action.append(int(actions[j]))
            batch.logp.append(float(logps[j]))
            batch.value.append(float(value[j]))
            batch.reward.append(0.0)
            per_seat[k].setdefault(seat, []).append(index)
            env.step(int(actions[j]))
            if env.turn is None:  # the deal is over: each seat's last step gets its reward
                for s, steps in per_seat[k].items():
                    r = final_reward(env, s, shaping)
                    batch.reward[steps[-1]] += r
                    rewards.append(r)
                    batch.trajectories.append(steps)
            else:
                still.append(k)
        live = still
    return batch, rewards


def final_reward(env: ShengjiEnv, seat: int, shaping: float) -> float:
    """``seat``'s reward for the deal ``env`` just finished: signed levels, plus ``shaping``
    × the attackers' points / 100 (+ for the attackers, − for the dealer side)."""
    res = env.state.result
    assert res is not None
    r = float(env.infos[agent_name(seat)]["levels"])
    sign = -1.0 if seat in res.defenders else 1.0
    return r + shaping * sign * res.attacker_points / 100.0


def advantages(batch: Batch, lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE (gamma 1) along each seat's own steps; returns (advantages, returns)."""
    n = len(batch.action)
    adv = np.zeros(n, dtype=np.float32)
    for steps in batch.trajectories:
        gae = 0.0
        next_value = 0.0
        for i in reversed(steps):
            delta = batch.reward[i] + next_value - batch.value[i]
            gae = delta + lam * gae
            adv[i] = gae
            next_value = batch.value[i]
    ret = adv + np.array(batch.value, dtype=np.float32)
    return torch.from_numpy(adv), torch.from_numpy(ret)


def train(
    preset: str = "classic",
    steps: int = 100_000,
    envs: int = 16,
    seed: int = 0,
    hidden: int = 128,
    lr: float = 3e-4,
    epochs: int = 4,
    minibatch: int = 512,
    clip: float = 0.2,
    entropy: float = 0.01,
    lam: float = 0.95,
    shaping: float = 0.0,
    out: str | None = None,
    eval_every: int = 0,
    eval_deals: int = 50,
    log_every: float = 10.0,
    init: str | None = None,
    seconds: float = 0.0,
    curve: str | None = None,
    eval_against: tuple[str, ...] = ("random",),
    kl: float = 0.0,
) -> list[dict[str, Any]]:
    """Train for about ``steps`` environment steps (or ``seconds``, if given, whichever
    ends first); the log (one entry per update, and the duplicate evaluations against
    ``random``, and each other bot of ``eval_against``, every ``eval_every`` steps).
    ``init``: start from this checkpoint (e.g. the imitation warm start, ``imitate.py``)
    instead of random weights, evaluated first; ``curve``: the log is written there (JSON)
    at every evaluation and at the end. ``kl``: weight of a penalty on the KL divergence
    from the ``init`` policy (kept frozen), so self-play cannot drift far from the warm
    start where the reward does not ask it to."""
    if kl and not init:
        raise ValueError("a KL penalty needs an --init policy to stay near")
    torch.manual_seed(seed)
    rng = random.Random(seed)
    pool = [ShengjiEnv(preset) for _ in range(envs)]
    meta: dict[str, Any] = {}
    if init:
        net, meta = load(init)
        net.train()
        if net.obs_size != pool[0].layout.size or net.actions != pool[0].catalogue.size:
            raise ValueError(f"checkpoint {init} was trained for another preset")
    else:
        net = PolicyNet(pool[0].layout.size, pool[0].catalogue.size, hidden)
    reference = copy.deepcopy(net).eval() if kl else None  # the warm start, frozen
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    log: list[dict[str, Any]] = []
    done_steps = deals = 0
    next_eval = eval_every
    start = last_print = time.perf_counter()
    base = {k: meta[k] for k in ("imitation_deals",) if k in meta}
    if init and eval_every:
        log.append(_evaluated({"steps": 0, "deals": 0, "seconds": 0.0}, net, preset,
                              eval_against, eval_deals, seed))
    while done_steps < steps and not (seconds and time.perf_counter() - start >= seconds):
        batch, rewards = collect(net, pool, rng, shaping)
        n = len(batch.action)
        done_steps += n
        deals += len(pool)
        adv, ret = advantages(batch, lam)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        obs = torch.from_numpy(np.stack(batch.obs))
        mask = torch.from_numpy(np.stack(batch.mask))
        act = torch.tensor(batch.action)
        old = torch.tensor(batch.logp)
        losses = []
        for _ in range(epochs):
            order = torch.randperm(n)
            for lo in range(0, n, minibatch):
                idx = order[lo : lo + minibatch]
                logits, value = net(obs[idx], mask[idx])
                logp_all = torch.log_softmax(logits, dim=-1)
                logp = logp_all.gather(1, act[idx].unsqueeze(1)).squeeze(1)
                ratio = torch.exp(logp - old[idx])
                a = adv[idx]
                policy_loss = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
                value_loss = (value - ret[idx]).pow(2).mean()
                ent = -(logp_all.exp() * logp_all).sum(-1).mean()
                loss = policy_loss + 0.5 * value_loss - entropy * ent
                if reference is not None:
                    with torch.no_grad():
                        ref_logp = torch.log_softmax(reference(obs[idx], mask[idx])[0], dim=-1)
                    # masked indices: probability 0 on both sides, so they add nothing
                    div = (logp_all.exp() * (logp_all - ref_logp)).sum(-1).mean()
                    loss = loss + kl * div
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
                losses.append(float(loss.detach()))
        entry: dict[str, Any] = {
            "steps": done_steps, "deals": deals, "loss": sum(losses) / len(losses),
            "mean_reward": sum(rewards) / len(rewards),
            "seconds": round(time.perf_counter() - start, 1),
        }
        if eval_every and done_steps >= next_eval:
            next_eval += eval_every
            _evaluated(entry, net, preset, eval_against, eval_deals, seed)
            if out:
                save(net, out, {"preset": preset, "steps": done_steps, "deals": deals, **base})
        log.append(entry)
        if curve and "vs_random" in entry:
            write_log(curve, log)
        now = time.perf_counter()
        if log_every and (now - last_print >= log_every or "vs_random" in entry):
            last_print = now
            print(json.dumps(entry), file=sys.stderr, flush=True)
    if out:
        save(net, out, {"preset": preset, "steps": done_steps, "deals": deals, **base})
    if curve:
        write_log(curve, log)
    return log


def _evaluated(
    entry: dict[str, Any], net: PolicyNet, preset: str, against: tuple[str, ...],
    deals: int, seed: int,
) -> dict[str, Any]:
    """``entry`` with ``vs_<bot>`` figures for ``random`` and each bot of ``against``."""
    for bot in dict.fromkeys(("random", *against)):
        entry[f"vs_{bot}"] = evaluate_net(net, preset, bot, deals, seed)
    return entry


def write_log(path: str, log: list[dict[str, Any]]) -> None:
    """A training log as JSON (``--curve``), read by ``curve.py``."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(log, f, indent=1)


def evaluate_net(
    net: PolicyNet, preset: str, against: str, deals: int, seed: int
) -> dict[str, Any]:
    """Duplicate deals of the (greedy) net against ``against``: the report's key figures."""
    import os
    import tempfile

    from shengji.bots.duplicate import run_duplicate
    from shengji.core.ruleset import preset as ruleset_of
    from shengji.ml import bot as bot_module

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "eval.pt")
        save(net, path, {"preset": preset})
        bot_module._load.cache_clear()
        old = os.environ.get("SHENGJI_CHECKPOINT")
        os.environ["SHENGJI_CHECKPOINT"] = path
        try:
            report = run_duplicate(
                ruleset_of(preset), "shengji.ml.bot:LearnedBot", against, deals,
                seed=f"eval{seed}", allow_import=True,
            ).to_dict()
        finally:
            if old is None:
                del os.environ["SHENGJI_CHECKPOINT"]
            else:
                os.environ["SHENGJI_CHECKPOINT"] = old
            bot_module._load.cache_clear()
    return {k: report[k] for k in ("level_rate", "signed_levels_per_deal", "deal_win_rate")}


def main(argv: list[str] | None = None) -> int:
    """``python -m shengji.ml.train``."""
    ap = argparse.ArgumentParser(description="Masked PPO self-play on shengji_v0.")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--steps", type=int, default=100_000, help="environment steps")
    ap.add_argument("--envs", type=int, default=16, help="deals per update")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--shaping", type=float, default=0.0,
                    help="add this × attacker points / 100 (signed by side) to the reward")
    ap.add_argument("--out", default=None, help="checkpoint file")
    ap.add_argument("--eval-every", type=int, default=0, help="steps between evaluations")
    ap.add_argument("--eval-deals", type=int, default=50, help="duplicate pairs per evaluation")
    ap.add_argument("--curve", default=None, help="write the training log (JSON) here")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    ap.add_argument("--kl", type=float, default=0.0,
                    help="weight of the KL penalty towards the --init policy")
    ap.add_argument("--init", default=None,
                    help="start from this checkpoint (the imitation warm start)")
    ap.add_argument("--eval-against", default="random",
                    help="bots to evaluate against (random always)")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="stop after this many minutes (0: run --steps)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    train(
        args.preset, args.steps, args.envs, args.seed, args.hidden, args.lr,
        entropy=args.entropy, shaping=args.shaping, out=args.out,
        eval_every=args.eval_every, eval_deals=args.eval_deals, init=args.init,
        seconds=args.minutes * 60, curve=args.curve,
        eval_against=tuple(b.strip() for b in args.eval_against.split(",")),
        kl=args.kl,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
