"""The first hour (tests/web/first_hour.py) at phone and desktop size, in Chinese and
English: landing → Play now → a whole deal without touching the declare window → the
summary, which adds up → the next deal; 托管 never shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.server.helpers import live_server
from tests.web.first_hour import FirstHour, first_hour_settings


@pytest.fixture
def public_site(tmp_path: Path) -> Iterator[str]:
    """A server whose public rooms have the default clocks, fast-forwarded."""
    with live_server(first_hour_settings(str(tmp_path))) as base:
        yield base


@pytest.mark.parametrize(
    ("size", "lang"),
    [("phone", "zh-CN"), ("desktop", "en-US"), ("phone", "en-US"), ("desktop", "zh-CN")],
)
def test_the_first_hour_never_puts_a_silent_player_on_auto_play(
    browser: Browser, public_site: str, artifacts: Path, size: str, lang: str
) -> None:
    run = FirstHour(browser, public_site, size, lang, artifacts / "first-hour")
    try:
        run.landing_to_table()
        run.play_deal()
        assert run.passes_waited >= 1  # the window came to this seat and it said nothing
        run.window_untouched()
        run.summary()
        assert run.errors == []
    finally:
        run.close()
