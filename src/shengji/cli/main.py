"""The ``shengji`` command: ``judge`` and ``demo`` (more subcommands join as they land)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _judge(_args: argparse.Namespace) -> int:
    from shengji.judge.oracle import run

    return run(sys.stdin, sys.stdout)


def _demo(_args: argparse.Namespace) -> int:
    from shengji.cli.demo import demo

    return demo(sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="shengji", description="Shengji / Tractor (升级 · 拖拉机)"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("judge", help="JSON-lines rules oracle on stdin/stdout")
    p.set_defaults(func=_judge)
    p = sub.add_parser("demo", help="show the rules engine at work on a few examples")
    p.set_defaults(func=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` console script."""
    args = build_parser().parse_args(argv)
    result: int = args.func(args)
    return result
