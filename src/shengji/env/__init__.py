"""Reinforcement-learning environments (optional extra ``env``: pettingzoo, gymnasium, numpy).

``from shengji.env import shengji_v0; env = shengji_v0.env(preset="classic")`` is the
PettingZoo AEC environment of one deal; ``shengji.env.gym_env.SingleSeatEnv`` is the
Gymnasium wrapper for one seat against named bots. ``shengji.env.actions`` (the action
catalogue) needs only the core. See docs/research.md.
"""
