"""Bots think off the event loop within a budget; a slow bot is replaced for that move."""

from __future__ import annotations

import asyncio
import time

import pytest

from shengji.bots.build import compiled
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Deal
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView
from shengji.server.live.bots_runner import BotRunner, think


class SlowBot:
    name = "slow"

    def choose(self, view: DealView, legal: LegalActions) -> None:
        time.sleep(5.0)


def _window() -> DealState:
    m = MatchState.new(PRESETS["classic"], 3)
    while m.deal.phase.value == "dealing":
        m, _ = m.apply(Deal())
    return m.deal


def test_a_slow_bot_gets_a_legal_fallback_within_the_budget() -> None:
    deal = _window()
    seat = deal.to_act
    assert seat is not None and seat >= 0
    # a budget a busy machine still starts a worker within (a think that starts past its
    # deadline gives up at once, and that is another test's case)
    runner = BotRunner("thread", 2, budget_s=1.0)

    async def go() -> None:
        start = time.monotonic()
        action, _bot = await runner.choose(SlowBot(), deal, seat)
        assert time.monotonic() - start < 4.0  # long before the bot's own answer
        assert action is not None and deal.is_legal(action)
        assert runner.timeouts == 1

    asyncio.run(go())
    runner.close()


@pytest.mark.skipif(compiled(), reason="the compiled build refuses a process pool")
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


def _playing(preset: str = "classic") -> DealState:
    """A deal in its playing phase (random bots declared and buried)."""
    from shengji.bots.driver import play_match

    seen: list[DealState] = []

    def keep(_a: object, state: MatchState, _e: object) -> None:
        if not seen and state.deal.phase is Phase.PLAYING:
            seen.append(state.deal)

    play_match(PRESETS[preset], [RandomBot(i) for i in range(4)], 5, deals=1, on_action=keep)
    return seen[0]


def test_a_search_bot_with_an_endless_budget_frees_its_worker_at_the_budget() -> None:
    """`search:1e12` is refused by name now, but a bot object with a budget that never ends
    (here a billion worlds) still returns by the runner's deadline and frees the worker."""
    from shengji.bots.search import SearchBot

    deal = _playing()
    seat = deal.to_act
    assert seat is not None and seat >= 0
    runner = BotRunner("thread", 1, budget_s=1.0)  # one worker: a held one would show

    async def go() -> None:
        start = time.monotonic()
        action, _ = await runner.choose(SearchBot(1, samples=10**9), deal, seat)
        first = time.monotonic() - start
        assert action is not None and deal.is_legal(action)
        assert first < 5.0  # by its budget, give or take a busy machine: not never
        timeouts = runner.timeouts
        action, _ = await runner.choose(RandomBot(2), deal, seat)  # the worker is free:
        assert runner.timeouts == timeouts  # the answer is the bot's, within its budget
        assert action is not None and deal.is_legal(action)

    asyncio.run(go())
    runner.close()


def test_a_think_that_starts_after_its_deadline_returns_at_once() -> None:
    deal = _playing()
    seat = deal.to_act
    assert seat is not None
    action, _ = think(SlowBot(), deal, seat, deadline=time.monotonic() - 1)
    assert action is None  # the runner has given up on it already: no work is done


def test_the_deadline_is_lifted_after_the_think() -> None:
    from shengji.bots.search import SearchBot

    deal = _playing()
    seat = deal.to_act
    assert seat is not None
    bot = SearchBot(1, samples=2, rollout="random")
    action, after = think(bot, deal, seat, deadline=time.monotonic() + 5)
    assert action is not None and deal.is_legal(action)
    assert isinstance(after, SearchBot) and after.deadline is None


def test_a_process_pool_is_refused_with_the_compiled_build() -> None:
    with pytest.raises(ValueError, match="bot_mode=process needs the pure-Python build"):
        BotRunner("process", 1, is_compiled=True)
    BotRunner("thread", 1, is_compiled=True).close()  # threads share the states: fine
