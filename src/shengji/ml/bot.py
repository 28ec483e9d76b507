"""The trained policy as a bot: ``--bots shengji.ml.bot:LearnedBot``.

It encodes its view as the environment does (``env/observation.py``), picks catalogue
indices greedily under the exact mask (``env/actions.py``) until an action is complete, and
returns that action. The checkpoint is ``$SHENGJI_CHECKPOINT``, else the one shipped in
``shengji/ml/checkpoints/`` for the preset.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import torch

from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.phases import Phase
from shengji.core.views import DealView
from shengji.env.actions import ActionCatalogue, NotNow, Turn
from shengji.env.observation import Layout
from shengji.ml.policy import PolicyNet, load

CHECKPOINTS = Path(__file__).parent / "checkpoints"


def default_checkpoint(preset: str = "classic") -> Path:
    """``$SHENGJI_CHECKPOINT``, else the shipped checkpoint for ``preset``."""
    env = os.environ.get("SHENGJI_CHECKPOINT")
    return Path(env) if env else CHECKPOINTS / f"ppo-{preset}.pt"


@cache
def _load(path: str) -> PolicyNet:
    torch.set_num_threads(1)  # a tiny net: threads only fight the arena's worker processes
    return load(path)[0]


class LearnedBot:
    """Greedy play of a trained ``PolicyNet`` (deterministic: the seed is not used)."""

    name = "learned"

    def __init__(self, seed: int | str | None = None, checkpoint: str | None = None) -> None:
        self.checkpoint = checkpoint
        self._layouts: dict[str, tuple[Layout, ActionCatalogue]] = {}

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        """Indices one by one (cards of a play, then ``finish``) until an action is made."""
        rs = view.ruleset
        path = self.checkpoint or str(default_checkpoint(rs.name))
        net = _load(path)
        if rs.name not in self._layouts:
            self._layouts[rs.name] = (Layout(rs), ActionCatalogue(rs))
        layout, catalogue = self._layouts[rs.name]
        if layout.size != net.obs_size or catalogue.size != net.actions:
            raise ValueError(f"checkpoint {path} was trained for another preset")
        turn = Turn(legal.state, legal.seat, catalogue, offer=view.phase is Phase.DEALING)
        while True:
            obs = torch.from_numpy(layout.encode(view, turn.picked)).unsqueeze(0)
            mask = torch.zeros(1, catalogue.size, dtype=torch.bool)
            mask[0, turn.allowed()] = True
            with torch.no_grad():
                logits, _ = net(obs, mask)
            done = turn.pick(int(logits.argmax()))
            if isinstance(done, NotNow):
                return None
            if done is not None:
                return done
