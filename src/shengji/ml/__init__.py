"""A learned bot, to show the environment works (optional extra ``ml``: torch, CPU).

``python -m shengji.ml.imitate`` warm-starts a policy by imitating the ``heuristic`` bot;
``python -m shengji.ml.train`` trains a masked PPO policy in self-play on ``shengji_v0``
(from that warm start with ``--init``);
``python -m shengji.ml.evaluate`` plays it against ``random`` and ``heuristic`` by duplicate
deals; ``shengji.ml.bot:LearnedBot`` is the policy as a bot for the arena. See
docs/research.md, "A trained agent".
"""
