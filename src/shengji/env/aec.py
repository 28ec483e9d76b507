"""The PettingZoo AEC environment: one deal of any preset, seats as agents.

An episode is one deal. The cards are dealt by the environment; a seat is asked to act when
it has a decision: a declaration offered while dealing (just dealt a level card or a joker,
as ``bots/driver.py`` asks), the declaration window, the auction, naming trump, the burial,
反底, the friend call and every lead and follow. Observations come from
``view_for(state, seat)`` only (``observation.py``); actions are indices of the
``ActionCatalogue`` (``actions.py``), cards picked one by one. Rewards: ``rewards.py``.

>>> e = ShengjiEnv("one-deck")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].dtype.name, e.agent_selection in e.agents
((730,), 'int8', True)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from shengji.core.actions import SYSTEM, Action, Deal
from shengji.core.cards import parse_rank
from shengji.core.events import CardDealt
from shengji.core.phases import Phase
from shengji.core.ruleset import Ruleset
from shengji.core.ruleset import preset as preset_ruleset
from shengji.core.state import DealState
from shengji.core.views import view_for
from shengji.env.actions import ActionCatalogue, NotNow, Turn
from shengji.env.observation import Layout
from shengji.env.render import render_ansi
from shengji.env.rewards import point_rewards, signed_levels

Obs = dict[str, npt.NDArray[Any]]
REWARDS = ("levels", "points")


def agent_name(seat: int) -> str:
    """The agent of a seat: ``seat_0``, ``seat_1``, ..."""
    return f"seat_{seat}"


class ShengjiEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal of Shengji as a PettingZoo AEC environment (``shengji_v0``).

    ``preset`` and ``options`` choose the ruleset (``core/ruleset.py``); ``level`` is the
    deal's rank (``"2"`` .. ``"A"``, or ``"random"``); ``dealer`` a seat, ``"random"`` (drawn
    from the seed) or None (the first deal of a match: the declarer becomes dealer; 竞标
    presets always decide the dealer by auction); ``reward`` is ``"levels"`` or
    ``"points"`` (``rewards.py``).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "shengji_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "classic",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        reward: str = "levels",
        level: str | int = "2",
        dealer: int | str | None = "random",
        ruleset: Ruleset | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = ruleset if ruleset is not None else preset_ruleset(preset, options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {list(REWARDS)}, not {reward!r}")
        level, dealer = self._checked(level, dealer)
        rs = self.ruleset
        self.render_mode = render_mode
        self.reward_mode = reward
        self.level_option = level
        self.dealer_option = dealer
        self.catalogue = ActionCatalogue(rs)
        self.layout = Layout(rs)
        self.possible_agents = [agent_name(s) for s in range(rs.players)]
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.layout.low, self.layout.high, dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(
                    0, 1, shape=(self.catalogue.size,), dtype=np.int8
                ),
            }
        )
        self.observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space)
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.catalogue.size) for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: DealState = DealState.new(rs, seed=0, level=rs.level_sequence[0], dealer=0)
        self.turn: Turn | None = None
        self.agents: list[str] = []

    def _checked(
        self, level: str | int, dealer: int | str | None
    ) -> tuple[int | str, int | str | None]:
        """``level`` as a rank index (or "random") and ``dealer``, checked."""
        rs = self.ruleset
        if isinstance(level, str) and level != "random":
            level = parse_rank(level)  # a NotationError is a ValueError
        if isinstance(level, int) and level not in rs.level_sequence:
            raise ValueError(f"level {level} is not in the preset's level sequence")
        if isinstance(dealer, str) and dealer != "random":
            raise ValueError(f"dealer must be a seat, 'random' or None, not {dealer!r}")
        if isinstance(dealer, int) and not 0 <= dealer < rs.players:
            raise ValueError(f"dealer must be a seat 0..{rs.players - 1}, not {dealer}")
        return level, dealer

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(catalogue.size)``."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal. ``seed`` reseeds the environment's generator (deal, dealer, level).

        ``options`` may set this deal's ``deal_seed`` (any int or str, as
        ``DealState.new`` takes it), ``dealer`` and ``level`` (as the constructor's).
        """
        if seed is not None:
            self._rng = random.Random(seed)
        rs = self.ruleset
        opts = dict(options or {})
        deal_seed: int | str = opts.pop("deal_seed", None) or self._rng.getrandbits(64)
        level, dealer = self._checked(
            opts.pop("level", self.level_option), opts.pop("dealer", self.dealer_option)
        )
        if opts:
            gymnasium.logger.warn(f"reset options {sorted(opts)} are not known; ignored")
        if dealer == "random":
            dealer = self._rng.randrange(rs.players)
        if level == "random":
            level = self._rng.choice(rs.level_sequence)
        assert isinstance(level, int) and (dealer is None or isinstance(dealer, int))
        self.state = DealState.new(rs, deal_seed, level, dealer)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.turn = None
        self._advance()

    def _advance(self) -> None:
        """Deal cards until a seat has a decision (or the deal is over)."""
        st = self.state
        while True:
            if st.phase is Phase.DONE:
                self.turn = None
                self._finish()
                return
            actor = st.to_act
            if actor == SYSTEM:
                dealt = st.apply_in_place(Deal())[0]
                assert isinstance(dealt, CardDealt)
                if dealt.card < 52 and dealt.card % 13 != st.level:
                    continue  # only a level card or a joker opens a declaration
                legal = st.legal_actions(dealt.seat)
                if not legal:
                    continue
                self.turn = Turn(st, dealt.seat, self.catalogue, offer=True)
            else:
                assert actor is not None
                self.turn = Turn(st, actor, self.catalogue)
            self.agent_selection = agent_name(self.turn.seat)
            return

    def _finish(self) -> None:
        res = self.state.result
        assert res is not None
        p = self.ruleset.players
        levels = signed_levels(res.change, res.defenders, p)
        for seat in range(p):
            a = agent_name(seat)
            if self.reward_mode == "levels":
                self.rewards[a] = self.rewards.get(a, 0.0) + levels[seat]
            self.terminations[a] = True
            self.infos[a] = {"result": res, "levels": levels[seat]}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Take catalogue index ``action`` for ``agent_selection`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        turn = self.turn
        assert turn is not None
        if action is None:
            raise ValueError(f"{agent} must act: pass an index allowed by the action mask")
        choice = turn.pick(int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if choice is None:
            self._accumulate_rewards()
            return
        if isinstance(choice, NotNow):
            self._advance()
        else:
            self._apply(choice)
        self._accumulate_rewards()

    def apply_action(self, action: Action | None) -> None:
        """Take a whole core action for ``agent_selection`` (None: decline a declaration
        offered while dealing): the indices ``turn.indices_for(action)``, one after another.
        For bots and wrappers that choose whole actions."""
        turn = self.turn
        assert turn is not None
        if action is not None and action.seat != turn.seat:
            raise ValueError(f"{action} is not seat {turn.seat}'s action")
        if action is not None and action not in turn.legal:
            raise ValueError(f"{action} is not legal now")
        for index in turn.indices_for(action):
            self.step(index)

    def _apply(self, action: Action) -> None:
        st = self.state
        before = st.attacker_points
        st.apply_in_place(action)
        if self.reward_mode == "points" and st.attacker_points != before:
            values = point_rewards(st.attacker_points - before, st.defenders, st.players)
            for seat, r in enumerate(values):
                self.rewards[agent_name(seat)] += r
        self._advance()

    # ------------------------------------------------------------------ observing

    def observe(self, agent: str) -> Obs:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` for ``agent``."""
        seat = int(agent.rsplit("_", 1)[1])
        turn = self.turn
        mine = turn is not None and turn.seat == seat
        picked = turn.picked if turn is not None and mine else ()
        obs = self.layout.encode(view_for(self.state, seat), picked)
        mask = np.zeros(self.catalogue.size, dtype=np.int8)
        if mine and turn is not None and not self.terminations.get(agent, False):
            mask[turn.allowed()] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        """``render_mode="ansi"``: the table in card notation (every hand: for people)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use 'ansi'")
            return None
        return render_ansi(self.state, self.turn)

    def close(self) -> None:
        """Nothing to release."""


def _copy_space(space: gymnasium.spaces.Dict) -> gymnasium.spaces.Dict:
    obs = space["observation"]
    mask = space["action_mask"]
    assert isinstance(obs, gymnasium.spaces.Box) and isinstance(mask, gymnasium.spaces.Box)
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(obs.low, obs.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=mask.shape, dtype=np.int8),
        }
    )
