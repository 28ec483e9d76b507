"""Player levels (新手 / 普通 / 高手) name bots and budgets; the omniscient ``cheat`` is for the
arena's ladder only: every table entry point refuses it (issue 17)."""

from __future__ import annotations

import io

import pytest

from shengji.bots.beginner import BeginnerBot
from shengji.bots.cheat import CheatBot
from shengji.bots.driver import play_match
from shengji.bots.duplicate import play_pair
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.registry import LEVELS, BotSpec, bot_factory, bot_names, make_bot, parse_bot_spec
from shengji.bots.search import SearchBot
from shengji.cli.main import build_parser
from shengji.core.actions import Action
from shengji.core.legal import LegalActions
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import DealView
from shengji.server.table.validate import server_bot


def test_levels_name_bots_and_budgets() -> None:
    assert parse_bot_spec("beginner") == BotSpec("beginner")
    assert parse_bot_spec("normal") == BotSpec("heuristic")
    assert parse_bot_spec("Expert") == BotSpec("search", 300.0)
    assert isinstance(make_bot("beginner", 1), BeginnerBot)
    assert type(make_bot("normal", 1)) is HeuristicBot
    expert = make_bot("expert", 1)
    assert isinstance(expert, SearchBot) and expert.think_ms == 300
    assert set(LEVELS) <= set(bot_names())


def test_the_server_offers_levels_and_refuses_cheat() -> None:
    assert "cheat" not in bot_names()
    assert server_bot("expert", 2.0) == "expert"
    with pytest.raises(ValueError, match="arena only"):
        server_bot("cheat", 2.0)
    with pytest.raises(ValueError, match="arena only"):
        parse_bot_spec(" Cheat ")
    with pytest.raises(ValueError, match="no parameters"):
        bot_factory("cheat:5")


def test_shengji_play_refuses_cheat() -> None:
    from shengji.cli.play import play_command

    args = build_parser().parse_args(["play", "--bots", "cheat"])
    err = io.StringIO()
    assert play_command(args, io.StringIO(), io.StringIO(), err) == 2
    assert "arena only" in err.getvalue()


def test_the_arena_makes_cheat_and_it_sees_the_deal() -> None:
    bot = bot_factory("cheat")(1)
    assert isinstance(bot, CheatBot)
    seen: list[DealState] = []

    class Spy:  # wraps (a compiled CheatBot cannot be patched or subclassed)
        name = "cheat"

        def peek(self, deal: DealState) -> None:
            seen.append(deal)
            bot.peek(deal)

        def choose(self, view: DealView, legal: LegalActions) -> Action | None:
            return bot.choose(view, legal)

    others = [HeuristicBot(k) for k in range(4)]
    state, _ = play_match(PRESETS["one-deck"], [Spy(), others[1], others[2], others[3]],
                          seed=4, deals=1)
    assert len(state.history) == 1 and seen


def test_cheat_plays_a_legal_duplicate_pair() -> None:
    r = play_pair(PRESETS["classic"], "cheat", "heuristic", "t.0")
    assert r.failed_a == 0 and r.times_a


def test_beginner_plays_legally_and_is_not_the_heuristic() -> None:
    rs = PRESETS["classic"]
    _, a = play_match(rs, [BeginnerBot(k) for k in range(4)], seed=3, deals=1)
    _, b = play_match(rs, [HeuristicBot(k) for k in range(4)], seed=3, deals=1)
    assert a.actions != b.actions
