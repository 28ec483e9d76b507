"""Masked PPO on a registered shengji environment, CleanRL-style, in one file (torch, CPU).

    pip install 'shengji[ml]'    # torch, gymnasium, numpy (docs/research.md: the CPU build)
    python docs/examples/masked_ppo.py --env shengji/OneDeck-v0 --steps 200000

One seat learns against ``random`` bots (``gymnasium.make`` keywords: ``bots="heuristic"``).
Illegal indices never get probability: their logits are set to -1e9 before sampling, from
the mask each observation carries (``action_masks()`` on each environment is the same mask,
for libraries such as sb3-contrib's MaskablePPO). The mask at the end of a deal allows one
placeholder index, so sampling never fails under the vector environment's auto-reset.
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium
import numpy as np
import torch
from torch import nn

import shengji.env  # noqa: F401  (registers shengji/<Preset>-v0)


class Agent(nn.Module):
    """A policy head and a value head over the flat observation."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.v(h).squeeze(-1)


def train(env_id: str, steps: int, envs: int = 4, rollout: int = 128, seed: int = 0,
          lr: float = 3e-4, epochs: int = 4, clip: float = 0.2) -> list[dict[str, Any]]:
    """Run PPO for ``steps`` environment steps; one log line per update."""
    torch.manual_seed(seed)
    vec = gymnasium.make_vec(env_id, num_envs=envs, vectorization_mode="sync")
    obs_space = vec.single_observation_space["observation"]
    agent = Agent(obs_space.shape[0], int(vec.single_action_space.n))
    opt = torch.optim.Adam(agent.parameters(), lr=lr)
    obs, _ = vec.reset(seed=seed)
    log: list[dict[str, Any]] = []
    done_before = np.zeros(envs, dtype=bool)  # next-step auto-reset: this step only resets
    for update in range(max(1, steps // (envs * rollout))):
        buf: dict[str, list[torch.Tensor]] = {k: [] for k in ("o", "m", "a", "lp", "r", "v",
                                                              "live", "done")}
        returns_seen: list[float] = []
        for _ in range(rollout):
            o = torch.as_tensor(obs["observation"])
            m = torch.as_tensor(obs["action_mask"].astype(bool))
            with torch.no_grad():
                a, lp, _, v = agent.act(o, m)
            obs, r, term, trunc, _ = vec.step(a.numpy())
            live = ~done_before  # after a deal's end this step only resets: not a decision
            done_before = term | trunc
            returns_seen += [float(x) for x in r[done_before]]
            step = (o, m, a, lp, torch.as_tensor(r, dtype=torch.float32), v,
                    torch.as_tensor(live, dtype=torch.float32),
                    torch.as_tensor(done_before, dtype=torch.float32))
            for k, x in zip(buf, step, strict=True):
                buf[k].append(x)
        o, m, a, lp, r, v, live, done = (torch.stack(buf[k]) for k in buf)
        # gamma 1 within a deal: a decision's return is the reward still to come in its deal;
        # a deal still going at the end of the rollout is valued by the critic
        with torch.no_grad():
            running = agent.act(torch.as_tensor(obs["observation"]),
                                torch.as_tensor(obs["action_mask"].astype(bool)))[3]
        ret = torch.zeros_like(r)
        for t in reversed(range(rollout)):
            running = r[t] + running * (1 - done[t])
            ret[t] = running
        adv = (ret - v) * live
        for _ in range(epochs):
            _, new_lp, ent, new_v = agent.act(o.flatten(0, 1), m.flatten(0, 1), a.flatten())
            ratio = (new_lp - lp.flatten()).exp()
            flat_adv, flat_live = adv.flatten(), live.flatten()
            pg = -torch.min(ratio * flat_adv, ratio.clamp(1 - clip, 1 + clip) * flat_adv)
            loss = ((pg + 0.5 * (new_v - ret.flatten()) ** 2 - 0.01 * ent) * flat_live).sum()
            loss = loss / flat_live.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            opt.step()
        log.append({"update": update, "steps": (update + 1) * envs * rollout,
                    "deals": len(returns_seen), "loss": loss.item(),
                    "mean_reward": float(np.mean(returns_seen)) if returns_seen else None})
        print(log[-1], flush=True)
    vec.close()
    return log


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--env", default="shengji/OneDeck-v0")
    p.add_argument("--steps", type=int, default=200_000)
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--rollout", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    train(args.env, args.steps, args.envs, args.rollout, args.seed)


if __name__ == "__main__":
    main()
