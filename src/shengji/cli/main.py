"""The ``shengji`` command: ``judge``, ``demo``, ``arena``, ``ladder``, ``replay``, ``play``,
``serve``, ``rooms`` and ``db`` (server admin); ``shengji --version``. The server commands
need the ``server`` extra (cli/extras.py).

>>> build_parser().parse_args(["replay", "game.json", "--lang", "zh"]).lang
'zh'
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, cast

from shengji import __version__
from shengji.cli.bot_errors import add_traceback
from shengji.cli.executor_flags import add_executor
from shengji.cli.rules_arg import add_rules_arg


def _judge(_args: argparse.Namespace) -> int:
    from shengji.judge.oracle import run

    return run(sys.stdin, sys.stdout)


def _demo(_args: argparse.Namespace) -> int:
    from shengji.cli.demo import demo

    return demo(sys.stdout)


def _arena(args: argparse.Namespace) -> int:
    from shengji.cli.arena import arena
    from shengji.cli.runner import sigterm_as_ctrl_c

    with sigterm_as_ctrl_c():
        return arena(args, sys.stdout, sys.stderr)


def _ladder(args: argparse.Namespace) -> int:
    from shengji.cli.ladder import ladder
    from shengji.cli.runner import sigterm_as_ctrl_c

    with sigterm_as_ctrl_c():
        return ladder(args, sys.stdout, sys.stderr)


def _play(args: argparse.Namespace) -> int:
    from shengji.cli.play import play_command

    return play_command(args, sys.stdin, sys.stdout, sys.stderr)


def _replay(args: argparse.Namespace) -> int:
    from shengji.cli.replay import replay_command

    return replay_command(args, sys.stdout, sys.stderr)


def _without_server(command: str) -> bool:
    """True (and one line on stderr) when the server's packages are not installed."""
    from shengji.cli.extras import server_missing_line

    line = server_missing_line(command)
    if line is not None:
        print(line, file=sys.stderr)
    return line is not None


def _serve(args: argparse.Namespace) -> int:
    if _without_server("serve"):
        return 1
    from shengji.cli.serve import serve

    return serve(args)


def _rooms(args: argparse.Namespace) -> int:
    if _without_server("rooms"):
        return 1
    from shengji.cli.rooms_admin import rooms_command

    return rooms_command(args, sys.stdout, sys.stderr)


def _add_arena(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "arena",
        help="bots play many deals or matches; print statistics",
        description="Bots play --deals deals (one match after another) or --matches whole "
        "matches; prints wins, level changes, points, kitty captures and speed.",
    )
    p.add_argument("--preset", default="classic", help="ruleset preset (default classic)")
    p.add_argument(
        "--bots",
        default="random,random,random,random",
        help="one bot per seat, comma-separated; seats 0+2 play 1+3 (default 4x random); "
        "two names A,B on a fixed-partner preset are A,B,A,B. "
        "A name is built in (random, heuristic, search[:ms]), an installed plug-in "
        "(entry point group shengji.bots) or package.module:Class",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals to play (default 100); with --matches, the most deals per match",
    )
    p.add_argument("--matches", type=int, default=None, help="play this many whole matches")
    p.add_argument("--seed", default="0", help="every match and bot seed derives from it")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--record", metavar="DIR", help="write one record per match: DIR/match-<n>.json")
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate deals: each of --deals seeded deals is played twice with the teams "
        "swapped; --bots A,B (or four names, seats 0+2 = A); figures with 95%% intervals",
    )
    p.add_argument("--jobs", type=int, default=1, help="parallel processes (with --duplicate)")
    p.add_argument(
        "--think-ms",
        type=float,
        default=None,
        help="time budget per decision of every plain `search` bot (default 1000)",
    )
    p.add_argument("--options", metavar="JSON", help="ruleset options over the preset (object)")
    add_rules_arg(p)
    _add_long_run(p)
    p.add_argument(
        "--forfeit-illegal",
        action="store_true",
        help="a bot that plays an illegal action (or fails to answer) forfeits: its deal is "
        "cut short, left out of the figures and listed; without it the run stops naming the bot",
    )
    add_traceback(p)
    p.set_defaults(func=_arena)


def _add_long_run(p: argparse.ArgumentParser) -> None:
    add_executor(p)
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write finished work and the report to FILE as the run goes; the same command "
        "with the same FILE resumes where it stopped (Ctrl-C stops cleanly)",
    )
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="print a recorded game trick by trick",
        description="Replay a game record (JSON) and print every deal trick by trick; "
        "exits 1 if the record's result disagrees with the replay.",
    )
    p.add_argument("file", help="a record written by `shengji arena --record` (or '-' for stdin)")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="output language")
    p.add_argument("--deal", type=int, default=None, metavar="K", help="print only deal K (1..)")
    p.set_defaults(func=_replay)


def _protocol_schema(_args: argparse.Namespace) -> int:
    from shengji.server.wire.schema import schema_text

    print(schema_text())
    return 0


class _CommandParser(argparse.ArgumentParser):
    """A subcommand's parser. With ``one_line`` (``shengji serve``) a usage error (a flag it
    does not know, a flag without its value) is one line and exit status 2, as every other
    start-up failure of the server (cli/startup_errors.py); other commands print their
    usage first, as argparse does."""

    one_line = False

    def error(self, message: str) -> NoReturn:
        if not self.one_line:
            super().error(message)
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="shengji", description="Shengji / Tractor (升级 · 拖拉机)"
    )
    parser.add_argument("--version", action="version", version=f"shengji {__version__}")
    sub = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser),
    )
    p = sub.add_parser("judge", help="JSON-lines rules oracle on stdin/stdout")
    p.set_defaults(func=_judge)
    p = sub.add_parser("demo", help="show the rules engine at work on a few examples")
    p.set_defaults(func=_demo)
    p = sub.add_parser(
        "protocol-schema",
        help="print the server protocol's JSON Schema (generated from its messages)",
    )
    p.set_defaults(func=_protocol_schema)
    _add_arena(sub)
    _add_ladder(sub)
    _add_replay(sub)
    _add_serve(sub)
    _add_play(sub)
    _add_rooms(sub)
    _add_db(sub)
    return parser


def _add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play deals yourself in the terminal against bots",
        description="You take one seat; bots take the others. Type cards in notation.",
    )
    p.add_argument("--preset", default="classic", help="ruleset preset (default classic)")
    p.add_argument("--options", default=None, help="ruleset overrides as a JSON object")
    add_rules_arg(p)
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--bots", default="normal",
                   help="bot for the other seats (default normal 普通); a level: beginner (新手), "
                   "normal (普通), expert (高手); or a bot: random, heuristic, search[:ms]")
    p.add_argument("--deals", type=int, default=1, help="deals to play (default 1)")
    p.add_argument("--seed", default="1", help="shuffle seed")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="narration language")
    p.add_argument(
        "--think-ms",
        type=float,
        default=None,
        help="time budget per decision of a `search` bot (default 1000)",
    )
    p.set_defaults(func=_play)


def _db(args: argparse.Namespace) -> int:
    if _without_server("db"):
        return 1
    from shengji.cli.db import db_command

    return db_command(args, sys.stdout, sys.stderr)


def _add_db(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from shengji.cli.db import add_db

    add_db(sub).set_defaults(func=_db)


def _add_ladder(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from shengji.cli.ladder import add_ladder

    add_ladder(sub)
    sub.choices["ladder"].set_defaults(func=_ladder)


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from shengji.cli.serve import add_serve

    p = add_serve(sub)
    p.set_defaults(func=_serve, usage_errors=p)
    if isinstance(p, _CommandParser):
        p.one_line = True


def _add_rooms(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from shengji.cli.rooms_admin import add_rooms

    add_rooms(sub).set_defaults(func=_rooms)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``shengji`` console script."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # reported by the subcommand's parser where it has its own way (serve)
        owner: argparse.ArgumentParser = getattr(args, "usage_errors", parser)
        owner.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        result: int = args.func(args)
    except BrokenPipeError:  # `shengji protocol-schema | head`: the reader has had enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
        return 141  # as a shell reports a pipe's writer killed by SIGPIPE (128 + 13)
    return result
