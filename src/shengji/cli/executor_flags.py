"""The flags that say where deal pairs run, shared by ``shengji arena --duplicate`` and
``shengji ladder``: ``--executor local|ray`` and ``--address``.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_executor(p)
>>> p.parse_args(["--executor", "ray"]).executor
'ray'
"""

from __future__ import annotations

import argparse


def add_executor(p: argparse.ArgumentParser) -> None:
    """``--executor local|ray`` and ``--address`` (arena --duplicate, ladder)."""
    p.add_argument(
        "--executor",
        choices=("local", "ray"),
        default="local",
        help="where deal pairs run: local processes (--jobs, default) or a Ray cluster "
        "(pip install 'shengji[distributed]'); the same seeds and report either way",
    )
    p.add_argument(
        "--address",
        default=None,
        help="with --executor ray: the cluster ('auto', 'ray://host:10001'); default: a local "
        "Ray instance",
    )
