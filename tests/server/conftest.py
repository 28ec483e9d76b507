"""Fixtures: a live server with test settings (pacing 0, bots without delay).

``SHENGJI_TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test`` runs the
suite against PostgreSQL (``make test-postgres``): each test's server gets a schema of its
own (tests/pg.py), dropped when the test ends; tests about the SQLite file itself are
marked ``sqlite_only`` and skip there, as do the tests of modules that open no database."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from shengji.server.live.ws_layer import picows_installed
from tests import pg
from tests.server.helpers import drop_test_databases, fast_settings, live_server


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    yield
    drop_test_databases()


OPENS_A_DATABASE = re.compile(
    r"\b(live_server|fast_settings|create_app|test_database_url|Store|database_url|pg)\b"
)
"""What a test module names when its tests may open the server's database (a live server,
the app, the store, settings); a module naming none of these runs on in-memory stand-ins."""


def _opens_a_database(item: pytest.Item, sources: dict[Path, bool]) -> bool:
    if "server" in getattr(item, "fixturenames", ()):
        return True
    module = getattr(item, "module", None)  # a stateful test's item.path is hypothesis's
    path = Path(module.__file__) if module is not None and module.__file__ else item.path
    if path not in sources:
        sources[path] = bool(OPENS_A_DATABASE.search(path.read_text("utf-8")))
    return sources[path]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under PostgreSQL, skip the tests about the SQLite file (``sqlite_only``) and those
    whose module never opens a database (the table's machine, views, deltas: the SQLite run
    has run them, and PostgreSQL would change nothing for them)."""
    if pg.configured_url() is None:
        return
    sqlite = pytest.mark.skip(reason=f"about the SQLite file ({pg.ENV} is set)")
    pure = pytest.mark.skip(reason="opens no database: run once, on SQLite")
    sources: dict[Path, bool] = {}
    for item in items:
        if item.get_closest_marker("sqlite_only"):
            item.add_marker(sqlite)
        elif not _opens_a_database(item, sources):
            item.add_marker(pure)


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
