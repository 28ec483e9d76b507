"""Fixtures: a live server with test settings (pacing 0, bots without delay)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.helpers import fast_settings, live_server


@pytest.fixture
def server(tmp_path: object) -> Iterator[str]:
    """Base URL of a fresh server on a free loopback port."""
    with live_server(fast_settings(str(tmp_path))) as base:
        yield base
