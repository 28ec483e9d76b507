"""Fixtures: a live server with test settings (pacing 0, bots without delay).

``SHENGJI_TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test`` runs the
suite against PostgreSQL (``make test-postgres``): each test's server gets a schema of its
own (tests/pg.py), dropped when the test ends; tests about the SQLite file itself are
marked ``sqlite_only`` and skip there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shengji.server.live.ws_layer import picows_installed
from tests import pg
from tests.server.helpers import drop_test_databases, fast_settings, live_server


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    yield
    drop_test_databases()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under PostgreSQL, skip the tests about the SQLite file (``sqlite_only``)."""
    if pg.configured_url() is None:
        return
    skip = pytest.mark.skip(reason=f"about the SQLite file ({pg.ENV} is set)")
    for item in items:
        if item.get_closest_marker("sqlite_only"):
            item.add_marker(skip)


@pytest.fixture
def server(tmp_path: object) -> Iterator[str]:
    """Base URL of a fresh server on a free loopback port."""
    with live_server(fast_settings(str(tmp_path))) as base:
        yield base


@pytest.fixture(params=["picows", "uvicorn"])
def ws_layer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each WebSocket layer in turn (server/ws_layer.py) for the servers the test starts
    (``@pytest.mark.usefixtures("ws_layer")``, before ``server``); picows skips where it
    is not installed."""
    layer: str = request.param
    if layer == "picows" and not picows_installed():
        pytest.skip("picows is not installed")
    monkeypatch.setenv("SHENGJI_WS_LAYER", layer)
    return layer
