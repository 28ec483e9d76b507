"""Bots think off the event loop (a thread or a process pool) within a time budget.

A bot that is too slow, or fails, is replaced for that move by a random legal action
(or no declaration while dealing), so a table never stalls. In process mode the bot
object travels to the worker and back with its state (its random generator, say).

The budget is hard for the worker too: a bot with a ``deadline`` attribute (the search bot)
is given one (a ``time.monotonic()`` value, shared by every process on the machine) a little
before the budget ends and stops there, and a think that only starts after its deadline
(it waited behind others for a worker) returns at once. So no bot spec holds a worker past
its budget.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from shengji.bots.base import Bot
from shengji.bots.build import compiled
from shengji.core.actions import Action
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.views import view_for

log = logging.getLogger("shengji.server.bots")


DEADLINE_SHARE = 0.8
"""A cooperative bot is told to stop at this share of the budget (the rest is for handing
its move back before the runner gives up on it)."""


def think(
    bot: Bot, deal: DealState, seat: int, deadline: float | None = None
) -> tuple[Action | None, Bot]:
    """The bot's choice for ``seat`` (runs in a worker), and the bot as it is after; None at
    once when ``deadline`` (``time.monotonic()``) has passed before it starts."""
    if deadline is not None and time.monotonic() >= deadline:
        return None, bot
    legal = deal.legal_actions(seat)
    if not legal:
        return None, bot
    cooperative = deadline is not None and hasattr(bot, "deadline")
    if cooperative:
        bot.deadline = deadline  # type: ignore[attr-defined]
    try:
        return bot.choose(view_for(deal, seat), legal), bot
    finally:
        if cooperative:
            bot.deadline = None  # type: ignore[attr-defined]


def fallback(deal: DealState, seat: int, rng: random.Random) -> Action | None:
    """A quick legal action when a bot did not answer in time (None while dealing)."""
    if deal.phase is Phase.DEALING:
        return None
    legal = deal.legal_actions(seat)
    return legal.sample(rng) if legal else None


PROCESS_NEEDS_PURE = (
    "bot_mode=process needs the pure-Python build: a compiled state (make mypyc) cannot be "
    "sent to a worker process; use bot_mode=thread, or make mypyc-clean"
)
"""Why a process pool is refused with the compiled build: unpickling a compiled frozen
dataclass (the ``Ruleset`` in every state) goes through its frozen ``__setattr__``."""


class BotRunner:
    """Runs ``think`` in an executor with a budget."""

    def __init__(
        self,
        mode: str = "thread",
        workers: int = 2,
        budget_s: float = 2.0,
        is_compiled: bool | None = None,
    ) -> None:
        if mode == "process" and (compiled() if is_compiled is None else is_compiled):
            raise ValueError(PROCESS_NEEDS_PURE)
        self.mode = mode
        self.budget_s = budget_s
        self.executor: Executor = (
            ProcessPoolExecutor(workers)
            if mode == "process"
            else ThreadPoolExecutor(workers, thread_name_prefix="shengji-bot")
        )
        self.rng = random.Random()
        self.timeouts = 0

    async def choose(self, bot: Bot, deal: DealState, seat: int) -> tuple[Action | None, Bot]:
        """The bot's action (or the fallback), and the bot to keep using."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + self.budget_s * DEADLINE_SHARE
        fut = loop.run_in_executor(self.executor, think, bot, deal, seat, deadline)
        try:
            return await asyncio.wait_for(fut, self.budget_s)
        except TimeoutError:
            self.timeouts += 1
            log.warning("bot %s at seat %d over its %.1fs budget", bot.name, seat, self.budget_s)
        except Exception:
            log.exception("bot %s at seat %d failed", bot.name, seat)
        return fallback(deal, seat, self.rng), bot

    def close(self) -> None:
        """Stop the workers (running thinks are abandoned)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
