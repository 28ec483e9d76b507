"""Bots think off the event loop within a budget; a slow bot is replaced for that move."""

from __future__ import annotations

import asyncio
import time

from shengji.bots.random import RandomBot
from shengji.core.actions import Deal
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView
from shengji.server.bots_runner import BotRunner


class SlowBot:
    name = "slow"

    def choose(self, view: DealView, legal: LegalActions) -> None:
        time.sleep(1.0)


def _window() -> DealState:
    m = MatchState.new(PRESETS["classic"], 3)
    while m.deal.phase.value == "dealing":
        m, _ = m.apply(Deal())
    return m.deal


def test_a_slow_bot_gets_a_legal_fallback_within_the_budget() -> None:
    deal = _window()
    seat = deal.to_act
    assert seat is not None and seat >= 0
    runner = BotRunner("thread", 2, budget_s=0.05)

    async def go() -> None:
        start = time.monotonic()
        action, _bot = await runner.choose(SlowBot(), deal, seat)
        assert time.monotonic() - start < 0.5
        assert action is not None and deal.is_legal(action)
        assert runner.timeouts == 1

    asyncio.run(go())
    runner.close()


def test_process_pool_bots_keep_their_state() -> None:
    deal = _window()
    seat = deal.to_act
    assert seat is not None
    runner = BotRunner("process", 1, budget_s=30)

    async def go() -> None:
        bot = RandomBot(1)
        action, bot2 = await runner.choose(bot, deal, seat)
        assert action is not None and deal.is_legal(action)
        assert isinstance(bot2, RandomBot) and bot2.rng.getstate() != bot.rng.getstate()

    asyncio.run(go())
    runner.close()
