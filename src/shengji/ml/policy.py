"""The policy: a small MLP from the observation to masked action logits and a value.

>>> import torch
>>> net = PolicyNet(730, 68, hidden=16)
>>> logits, value = net(torch.zeros(2, 730), torch.ones(2, 68, dtype=torch.bool))
>>> tuple(logits.shape), tuple(value.shape)
((2, 68), (2,))
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

NEG = -1e9
"""Logit of a masked action."""


class PolicyNet(nn.Module):
    """Shared trunk, a policy head (one logit per catalogue index) and a value head."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.obs_size = obs_size
        self.actions = actions
        self.hidden = hidden
        self.trunk = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(masked logits, value)`` for a batch."""
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, NEG)
        return logits, self.v(h).squeeze(-1)

    def config(self) -> dict[str, Any]:
        """What ``load`` needs to rebuild the net."""
        return {"obs_size": self.obs_size, "actions": self.actions, "hidden": self.hidden}


def save(net: PolicyNet, path: str, meta: dict[str, Any]) -> None:
    """The weights, the net's shape and ``meta`` (preset, steps, ...) in one file."""
    torch.save({"config": net.config(), "state": net.state_dict(), "meta": meta}, path)


def load(path: str) -> tuple[PolicyNet, dict[str, Any]]:
    """A net saved by ``save`` (for inference) and its ``meta``."""
    data = torch.load(path, map_location="cpu", weights_only=True)
    net = PolicyNet(**data["config"])
    net.load_state_dict(data["state"])
    net.eval()
    return net, dict(data["meta"])
