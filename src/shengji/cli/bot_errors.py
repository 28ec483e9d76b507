"""How ``shengji arena`` and ``shengji ladder`` report a bot that broke the protocol: one
line naming the bot, its seat and what it did, and with ``--traceback`` the bot's own
exception as Python prints it.
"""

from __future__ import annotations

import argparse

from shengji.bots.fault import BotFault


def add_traceback(p: argparse.ArgumentParser) -> None:
    """``--traceback``: a bot's exception as Python prints it (arena, ladder)."""
    p.add_argument(
        "--traceback",
        action="store_true",
        help="when a bot raises, print its exception and where it was raised (the traceback)",
    )


def bot_error_text(command: str, e: BotFault, traceback: bool) -> str:
    """What ``shengji <command>`` prints when a bot broke the protocol: one line and a hint,
    and with ``traceback`` the bot's own exception as Python prints it.

    >>> e = BotFault("b", 1, "raised KeyError: 3", None, 0, "Traceback ...\\nKeyError: 3\\n")
    >>> print(bot_error_text("arena", e, False), end="")
    shengji arena: error: bot 'b' at seat 1 raised KeyError: 3 (deal 1)
      (--forfeit-illegal counts such a deal as a forfeit and goes on; --traceback shows where)
    >>> print(bot_error_text("arena", e, True), end="")
    Traceback ...
    KeyError: 3
    <BLANKLINE>
    shengji arena: error: bot 'b' at seat 1 raised KeyError: 3 (deal 1)
    """
    if traceback and e.trace:
        return f"{e.trace.rstrip()}\n\nshengji {command}: error: {e}\n"
    hint = "; --traceback shows where" if e.trace else ""
    return (
        f"shengji {command}: error: {e}\n"
        f"  (--forfeit-illegal counts such a deal as a forfeit and goes on{hint})\n"
    )
