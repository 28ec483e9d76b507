"""A bot that broke the protocol (kept out of the compiled build: mypyc cannot compile a
subclass of a built-in exception)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shengji.core.match import MatchState


class BotFault(RuntimeError):
    """A bot broke the protocol: an illegal action, no action, something not an action, or
    an exception of its own. Names the bot and its seat; ``match`` is the match as it stood
    (its finished deals count), ``deal_no`` the deal that was cut short.

    >>> str(BotFault("mybot", 2, "returned no action", None, 0))
    "bot 'mybot' at seat 2 returned no action (deal 1)"
    >>> import pickle
    >>> fault = BotFault("b", 1, "raised KeyError: 3", None, 0, "Traceback ...")
    >>> pickle.loads(pickle.dumps(fault)).trace
    'Traceback ...'
    """

    def __init__(
        self, bot: str, seat: int, problem: str, match: MatchState | None, deal_no: int,
        trace: str = "",
    ) -> None:
        super().__init__(f"bot {bot!r} at seat {seat} {problem} (deal {deal_no + 1})")
        self.bot = bot
        self.seat = seat
        self.problem = problem
        self.match = match
        self.deal_no = deal_no
        self.trace = trace
        """The bot's own exception as Python prints it (``--traceback``), when it raised one;
        kept as text so that it crosses from a worker process."""

    def __reduce__(self) -> tuple[type[BotFault], tuple[str, int, str, None, int, str]]:
        """Picklable (from worker processes), without the match."""
        return (BotFault, (self.bot, self.seat, self.problem, None, self.deal_no, self.trace))
