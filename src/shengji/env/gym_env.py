"""A Gymnasium single-agent wrapper: one seat learns, bots (by name) play the other seats.

The observation and action spaces are those of ``shengji_v0`` (a dict with ``observation``
and ``action_mask``; ``Discrete`` catalogue indices); the mask is also in ``info`` and, as a
bool array, from ``action_masks()`` (what sb3-contrib's ``MaskablePPO`` calls). One episode
is one deal; the reward is the seat's (``rewards.py``), summed over the bots' moves between
two of its own. Registered for every preset as ``shengji/<Preset>-v0`` (``registration.py``).

The terminal mask: the observation that ends a deal allows exactly one index,
``TERMINAL_ACTION`` (0), never all zeros, so a masked policy can sample from it under a
vector environment's auto-reset (Gymnasium's default next-step mode feeds that sample to
the step that resets, which ignores it). Stepping after the end without ``reset()`` raises.

>>> env = SingleSeatEnv("one-deck", seat=0, bots="heuristic")
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     obs, reward, done, truncated, info = env.step(action)
>>> reward in (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
True
>>> env.action_masks().nonzero()[0].tolist() == [TERMINAL_ACTION]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np

from shengji.bots.base import Bot
from shengji.bots.registry import make_bot
from shengji.core.views import view_for
from shengji.env.aec import Obs, ShengjiEnv, agent_name

TERMINAL_ACTION: Final = 0
"""The one index the mask allows once the deal is over (a placeholder: it is never taken)."""


class SingleSeatEnv(gymnasium.Env[Obs, np.int64]):
    """Seat ``seat`` of a ``ShengjiEnv``; ``bots`` (one name, or one per seat with the
    learner's entry ignored; built-in, plug-in or `module:Class`) play the rest, each seeded
    from the deal."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(
        self,
        preset: str = "classic",
        options: dict[str, Any] | None = None,
        seat: int = 0,
        bots: str | Sequence[str] = "random",
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.game = ShengjiEnv(preset, options, render_mode, **kwargs)
        players = self.game.ruleset.players
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
        names = [bots] * players if isinstance(bots, str) else list(bots)
        if len(names) != players:
            raise ValueError(f"{players} bot names needed (one per seat), got {len(names)}")
        for name in names:
            make_bot(name, 0, allow_import=True)  # a bad name fails here, not at reset
        self.seat = seat
        self.agent = agent_name(seat)
        self.bot_names = names
        self.bots: list[Bot | None] = [None] * players
        self.render_mode = render_mode
        self._mask = np.zeros(self.game.catalogue.size, dtype=np.int8)
        self.observation_space = self.game.observation_space(self.agent)
        self.action_space = self.game.action_space(self.agent)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new deal; the bots play until the learner's first decision."""
        super().reset(seed=seed)
        self.game.reset(seed=seed, options=options)
        deal_seed = self.game.state.seed
        self.bots = [
            None if s == self.seat else make_bot(name, f"{deal_seed}.{s}", allow_import=True)
            for s, name in enumerate(self.bot_names)
        ]
        reward = self._play_bots()
        obs = self._observe()
        return obs, self._info(obs, reward)

    def step(self, action: int | np.integer[Any]) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Take catalogue index ``action``; the bots move until the learner's next decision."""
        game = self.game
        if game.agent_selection != self.agent or game.terminations[self.agent]:
            raise RuntimeError("the deal is over: call reset()")
        game.step(int(action))
        reward = game.rewards[self.agent] + self._play_bots()
        obs = self._observe()
        done = game.terminations[self.agent]
        return obs, float(reward), done, False, self._info(obs, reward)

    def _observe(self) -> Obs:
        """The learner's observation; once the deal is over its mask allows only
        ``TERMINAL_ACTION``."""
        obs = self.game.observe(self.agent)
        if self.game.terminations.get(self.agent, False):
            obs["action_mask"][TERMINAL_ACTION] = 1
        self._mask = obs["action_mask"]
        return obs

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal catalogue indices of the learner's decision now, as bools (the mask
        of the last observation; at the end of a deal only ``TERMINAL_ACTION``)."""
        return self._mask.astype(bool)

    def _play_bots(self) -> float:
        """Let the bots act until the learner acts or the deal ends; the learner's reward."""
        game = self.game
        total = 0.0
        while game.turn is not None and game.turn.seat != self.seat:
            turn = game.turn
            bot = self.bots[turn.seat]
            assert bot is not None
            action = bot.choose(view_for(game.state, turn.seat), turn.legal)
            if action is None and not turn.offer:
                raise RuntimeError(f"bot {bot.name} at seat {turn.seat} returned no action")
            game.apply_action(action)
            total += game.rewards[self.agent]
        return total

    def _info(self, obs: Obs, reward: float) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if self.game.state.result is not None:
            info["result"] = self.game.state.result
        return info

    def render(self) -> str | None:
        """The table in card notation (``render_mode="ansi"``)."""
        return self.game.render()
