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


def test_the_terminal_game_needs_no_server() -> None:
    """``shengji play`` and the names it shows import nothing of the server extra."""
    code = (
        "import sys, shengji.cli.play, shengji.core.seat_names;"
        "bad = [m for m in ('fastapi', 'uvicorn', 'sqlalchemy', 'shengji.server')"
        " if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
