"""Bot names are checked where they enter (the registry, so the arena, play and the server
all refuse them): budgets are finite and bounded."""

from __future__ import annotations

import io

import pytest

from shengji.bots.registry import (
    MAX_THINK_MS,
    MAX_WORLDS,
    BotSpec,
    make_bot,
    parse_bot_spec,
    with_think_ms,
)
from shengji.bots.search import SearchBot
from shengji.cli.main import build_parser


@pytest.mark.parametrize(
    "name",
    [
        "search:inf",
        "search:-inf",
        "search:nan",
        "search:1e12",
        "search:1e400",
        "search:60001",
        "search:0",
        "search:-5",
        "search:1000000000000w",
        f"search:{MAX_WORLDS + 1}w",
        "search:0w",
        "search:1e3w",
        "search:1e3",  # ASCII digits only: no exponent, no underscore, no other digits
        "search:1_000",
        "search:１０００",
        "search:٣٠٠",
        "search:１６w",
        "search:+5",
        "search: 5",
        "search:" + "9" * 5000,
        "search:10:minimax",
        "heuristic:5",
        "x" * 100,
        "nobody",
    ],
)
def test_unbounded_or_unknown_specs_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        parse_bot_spec(name)
    with pytest.raises(ValueError):
        make_bot(name, 1)


@pytest.mark.parametrize(
    ("name", "spec"),
    [
        ("search", BotSpec("search")),
        ("Search:1000", BotSpec("search", 1000.0)),
        (f"search:{MAX_THINK_MS:g}", BotSpec("search", MAX_THINK_MS)),
        ("search:16w:random", BotSpec("search", None, 16, "random", chains=False)),
        ("search:16w:plain", BotSpec("search", None, 16, "heuristic", chains=False)),
        (" random ", BotSpec("random")),
    ],
)
def test_bounded_specs_are_accepted(name: str, spec: BotSpec) -> None:
    assert parse_bot_spec(name) == spec


def test_a_search_spec_makes_the_bot_it_names() -> None:
    bot = make_bot("search:250:random", 3)
    assert isinstance(bot, SearchBot) and bot.think_ms == 250 and bot.samples is None


@pytest.mark.parametrize("think", [float("inf"), float("nan"), 1e12, 0])
def test_think_ms_flag_is_bounded_too(think: float) -> None:
    with pytest.raises(ValueError, match="--think-ms"):
        with_think_ms(["search"], think)


def test_the_arena_refuses_an_endless_search_bot_in_one_line() -> None:
    args = build_parser().parse_args(["arena", "--bots", "search:inf,random,random,random"])
    out, err = io.StringIO(), io.StringIO()
    assert args.func.__name__ == "_arena"
    from shengji.cli.arena import arena

    assert arena(args, out, err) == 2
    assert "search think time" in err.getvalue() and out.getvalue() == ""
