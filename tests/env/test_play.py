"""The environment plays the game the engine plays: rewards, bots, the Gymnasium wrapper,
rendering."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

from shengji.bots.driver import play_match
from shengji.bots.registry import make_bot
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.core.views import view_for
from shengji.env import shengji_v0
from shengji.env.aec import ShengjiEnv, agent_name
from shengji.env.gym_env import SingleSeatEnv
from shengji.env.rewards import signed_levels

ALL = sorted(PRESETS)


def _bots_play(env: ShengjiEnv, names: list[str], seed: str) -> None:
    """Seat ``k`` played by bot ``names[k]`` seeded ``"<seed>.<k>"``, through the env."""
    bots = [make_bot(n, f"{seed}.{k}") for k, n in enumerate(names)]
    while env.turn is not None:
        turn = env.turn
        env.apply_action(bots[turn.seat].choose(view_for(env.state, turn.seat), turn.legal))


@pytest.mark.parametrize("name", ALL)
def test_bots_through_the_env_play_the_drivers_deal(name: str) -> None:
    """The env asks the same questions in the same order as ``bots/driver.py``: the same bots
    with the same seeds play the same deal, action for action, to the same result."""
    rs = PRESETS[name]
    names = ["heuristic", "random"] * 3
    names = names[: rs.players]
    dealer = None if rs.partnership == "bidding" else 1
    match = MatchState.new(rs, "eq", dealer)
    env = ShengjiEnv(name)
    env.reset(options={"deal_seed": match.deal.seed, "dealer": dealer})
    _bots_play(env, names, "b")
    bots = [make_bot(n, f"b.{k}") for k, n in enumerate(names)]
    state, _record = play_match(rs, bots, "eq", deals=1, first_dealer=dealer)
    assert env.state.result == state.history[0].result


@pytest.mark.parametrize("name", ALL)
def test_levels_reward_is_the_signed_level_change(name: str) -> None:
    env = shengji_v0.env(preset=name)
    env.reset(seed=11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
    res = env.unwrapped.state.result
    want = signed_levels(res.change, res.defenders, len(totals))
    assert [totals[agent_name(s)] for s in range(len(totals))] == want
    assert any(want) or res.change.attackers_take_over
    if PRESETS[name].partnership == "fixed":
        assert sum(want) == 0


def test_signed_levels_read_like_the_table() -> None:
    from shengji.core.scoring import level_change

    rs = PRESETS["classic"]
    # Attackers with 0 points: the dealer side (seats 0 and 2) goes up 3.
    assert signed_levels(level_change(0, rs), (0, 2), 4) == [3, -3, 3, -3]
    # 80 points: the attackers take over without a level.
    assert signed_levels(level_change(80, rs), (0, 2), 4) == [0, 0, 0, 0]
    # 160 points: they take over and go up 2.
    assert signed_levels(level_change(160, rs), (0, 2), 4) == [-2, 2, -2, 2]


def test_points_reward_sums_to_the_attackers_points() -> None:
    env = ShengjiEnv("classic", reward="points", dealer=0)
    env.reset(seed=5)
    totals = [0.0] * 4
    rng = random.Random(1)
    while env.turn is not None:
        env.step(rng.choice(env.turn.allowed()))
        for s in range(4):
            totals[s] += env.rewards[agent_name(s)]
    res = env.state.result
    assert res is not None
    assert totals[1] == pytest.approx(res.attacker_points / 100)
    assert totals[0] == pytest.approx(-res.attacker_points / 100)
    # the signed levels are still in the infos
    want = signed_levels(res.change, res.defenders, 4)
    assert [env.infos[agent_name(s)]["levels"] for s in range(4)] == want


@pytest.mark.parametrize("name", ["classic", "three-player", "five-player"])
def test_gymnasium_wrapper_plays_a_deal(name: str) -> None:
    # (gymnasium's check_env steps with unmasked random actions, which a masked env refuses)
    env = SingleSeatEnv(name, seat=1, bots="heuristic")
    obs, info = env.reset(seed=2)
    again, _ = SingleSeatEnv(name, seat=1, bots="heuristic").reset(seed=2)
    assert np.array_equal(obs["observation"], again["observation"])
    assert env.observation_space.contains(obs)
    done, total, steps = False, 0.0, 0
    rng = random.Random(2)
    while not done:
        action = rng.choice(info["action_mask"].nonzero()[0].tolist())
        obs, reward, done, _trunc, info = env.step(action)
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
    res = info["result"]
    assert total == signed_levels(res.change, res.defenders, PRESETS[name].players)[1]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gymnasium_wrapper_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="seat"):
        SingleSeatEnv("classic", seat=4)
    with pytest.raises(ValueError, match="unknown bot"):
        SingleSeatEnv("classic", bots="nobody")
    with pytest.raises(ValueError, match="4 bot names"):
        SingleSeatEnv("classic", bots=["random", "random"])


def test_an_index_outside_the_mask_is_refused_and_changes_nothing() -> None:
    env = ShengjiEnv("classic")
    env.reset(seed=1)
    turn = env.turn
    assert turn is not None
    bad = next(i for i in range(env.catalogue.size) if i not in turn.allowed())
    before = env.observe(env.agent_selection)["observation"].copy()
    with pytest.raises(ValueError, match="not allowed now"):
        env.step(bad)
    assert (env.observe(env.agent_selection)["observation"] == before).all()


def test_render_ansi_shows_the_table_in_card_notation() -> None:
    env = shengji_v0.env(preset="classic", render_mode="ansi", dealer=0)
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("deal: classic, level 2, dealer S0")
    assert "S0 (dealer side):" in text and "kitty (8): ?" in text
    for _agent in env.agent_iter():
        obs, _r, terminated, _t, _i = env.last()
        env.step(None if terminated else int(obs["action_mask"].nonzero()[0][0]))
    assert "result: attackers" in env.render()
