"""One place names a seat: a player by name, a bot by its level and seat number."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shengji.core.seat_names import BOT_LEVELS, display_name, record_name, team_display_name


def test_bots_of_one_level_read_as_different_players() -> None:
    names = [display_name(i, "normal", "normal", "zh") for i in range(1, 4)]
    assert names == ["普通·2号", "普通·3号", "普通·4号"]
    assert display_name(1, "normal", "normal") == "Normal (seat 2)"


def test_a_player_is_shown_by_name_and_an_empty_seat_by_number() -> None:
    assert display_name(0, "Alice", None, "zh") == "Alice"
    assert display_name(2, None, None, "zh") == "3号位"


def test_a_record_keeps_bots_as_specs() -> None:
    players = ["Tabby", "normal", "search:300", "my-plugin"]
    shown = [record_name(players, s) for s in range(4)]
    assert shown == ["Tabby", "Normal (seat 2)", "Search (seat 3)", "my-plugin"]
    assert record_name(players, 9) == "Seat 10"


def test_every_level_has_both_languages() -> None:
    for en, zh in BOT_LEVELS.values():
        assert en.isascii() and not zh.isascii()


def test_teams_are_singular_subjects() -> None:
    assert team_display_name(1) == "Team 2" and team_display_name(0, "zh", mine=True) == "我方"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat names in 'fr'"):
        display_name(0, "Alice", None, "fr")


def _imported_by(module: str, watch: tuple[str, ...]) -> list[str]:
    """The ``watch`` modules a fresh interpreter has loaded after importing ``module``."""
    code = (
        f"import sys, {module};"
        f"print(' '.join(m for m in {watch!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_the_names_need_nothing_of_the_server() -> None:
    """The display names are pure: no server package, not even its wire library."""
    assert _imported_by("shengji.core.seat_names", ("shengji.server", "msgspec")) == []


def test_the_terminal_game_needs_no_web_server() -> None:
    """``shengji play`` loads no web framework, server or database library."""
    web = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "redis")
    assert _imported_by("shengji.cli.play", web) == []
