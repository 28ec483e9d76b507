"""A room's jobs off its own task: writes to the store, bots and hints in the bot pool,
deleting old chat lines. Each job posts its answer to the room's inbox as a command; one
that raises anything but a storage fault posts ``Crash``, which fails the room (a bug is
never retried in a loop).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from shengji.bots.base import Bot
from shengji.bots.registry import make_bot
from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.writes import carry_out, log_rows_of
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import fault_reason, is_storage_fault
from shengji.server.table.commands import (
    BotDeclared,
    BotMoved,
    Command,
    HintReady,
    WriteFailed,
    Written,
)
from shengji.server.table.effects import AskBot, AskHint, LogRecords, Write

log = logging.getLogger("shengji.server.rooms")


class Crash:
    """A job raised something that is not a storage fault: a bug, which fails the room."""

    def __init__(self, exc: BaseException, what: str) -> None:
        self.exc = exc
        self.what = what


class Jobs:
    """The jobs of the room ``rid`` (``code``); answers go to ``post``."""

    def __init__(
        self,
        rid: int,
        code: str,
        store: Store,
        bots: BotRunner,
        bot_delay_s: float,
        post: Callable[[Command | Crash], None],
    ) -> None:
        self.rid = rid
        self.code = code
        self.store = store
        self.bots = bots
        self.bot_delay_s = bot_delay_s
        self.post = post
        self.tasks: set[asyncio.Task[None]] = set()
        self._bots: dict[tuple[int, int, str], Bot] = {}

    def spawn(self, coro: Coroutine[Any, Any, None], what: str) -> None:
        """Run ``coro`` as a task of the room (cancelled with it)."""
        t = asyncio.create_task(self._guarded(coro, what))
        self.tasks.add(t)
        t.add_done_callback(self.tasks.discard)

    def cancel(self) -> None:
        """Cancel every job in flight."""
        for t in list(self.tasks):
            t.cancel()

    async def _guarded(self, coro: Coroutine[Any, Any, None], what: str) -> None:
        try:
            await coro
        except Exception as exc:
            self.post(Crash(exc, what))

    def start_write(self, w: Write) -> None:
        """Start a write. Log rows (the hot path: every action, chat line, seat change) go
        straight to the store's group commit with a callback, no task of their own; the
        answer comes back to the inbox when they are durable. A retry (which first looks
        whether the failed attempt was committed after all), a finished match and a deal's
        stakes run as a job."""
        req = w.request
        if w.retry or not isinstance(req, LogRecords):
            self.spawn(self.write(w), "write")
            return
        rows, state = log_rows_of(req)
        ticket, post = w.ticket, self.post

        def done(exc: BaseException | None) -> None:
            if exc is None:
                post(Written(ticket))
            elif is_storage_fault(exc):
                post(WriteFailed(ticket, fault_reason(exc)))
            else:  # a bug or a refused row, not the database being away
                post(Crash(exc, "write"))

        self.store.log.submit(self.rid, rows, state, done)

    async def write(self, w: Write) -> None:
        """Do a write; a storage fault is answered ``WriteFailed`` (the table retries)."""
        try:
            answer = await carry_out(self.store, self.rid, w)
        except Exception as exc:
            if not is_storage_fault(exc):
                raise  # a bug or a refused row, not the database being away
            answer = WriteFailed(w.ticket, fault_reason(exc))
        self.post(answer)

    def _bot(self, match_no: int, seat: int, name: str, seed: str) -> Bot:
        key = (match_no, seat, name)
        bot = self._bots.get(key)
        if bot is None:
            self._bots = {k: b for k, b in self._bots.items() if k[0] == match_no}
            bot = self._bots[key] = make_bot(name, seed)
        return bot

    async def ask_bot(self, a: AskBot) -> None:
        """A bot's choice, shown no sooner than ``bot_delay_s`` (times the room's bot pace)
        after it was asked."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        bot = self._bot(a.match_no, a.seat, a.bot, a.seed)
        action, bot = await self.bots.choose(bot, a.match.deal, a.seat)
        self._bots[(a.match_no, a.seat, a.bot)] = bot
        if a.purpose == "declare":
            self.post(BotDeclared(a.seat, a.match_no, action))
            return
        wait = self.bot_delay_s * a.delay_factor - (loop.time() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        self.post(BotMoved(a.seat, a.version, action))

    async def ask_hint(self, h: AskHint) -> None:
        """A hint bot's suggestion."""
        adviser = make_bot(h.bot, h.seed)
        action, _ = await self.bots.choose(adviser, h.match.deal, h.seat)
        self.post(HintReady(h.conn, action))

    async def trim_chat(self, before_seq: int) -> None:
        """Delete the chat lines the room no longer keeps from the database too."""
        try:
            await self.store.rooms.trim_chat(self.rid, before_seq)
        except Exception:
            log.warning("room %s: could not delete old chat lines", self.code[:6], exc_info=True)
