"""Doctests of the optional parts run only where their extras are installed (``env``:
pettingzoo/gymnasium/numpy; ``ml``: torch). ``make test`` installs both through ``dev``."""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore_glob += ["src/shengji/env/*.py", "src/shengji/ml/*.py"]
elif importlib.util.find_spec("torch") is None:
    collect_ignore_glob += ["src/shengji/ml/*.py"]
