"""PostgreSQL for tests: a fresh role and schema per use, dropped afterwards.

``SHENGJI_TEST_DATABASE_URL`` (e.g. ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``)
names a database and a user who may ``CREATE ROLE``. Set, it runs the whole server suite
against PostgreSQL (``make test-postgres``; tests/server/helpers.py ``fast_settings``).
Unset, the migration tests still try ``DEFAULT_URL`` and skip, saying so, when it does not
answer. Each use gets a role ``sj_<random>`` with a password, owning a schema of the same
name: PostgreSQL's default ``search_path`` (``"$user", public``) puts every table of that
role there, so tests never see each other's tables, and the schema and role are dropped
at the end (a test database can be shared with other work).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from sqlalchemy.engine import make_url

ENV = "SHENGJI_TEST_DATABASE_URL"
DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"

T = TypeVar("T")


def configured_url() -> str | None:
    """The URL of ``SHENGJI_TEST_DATABASE_URL``, if set."""
    return os.environ.get(ENV) or None


def _answers(url: str) -> bool:
    u = make_url(url)
    try:
        with socket.create_connection((u.host or "127.0.0.1", u.port or 5432), timeout=1):
            return True
    except OSError:
        return False


_default_refused: list[str] = []
"""Why the default PostgreSQL refused us, once known (asked once per process)."""


def admin_url_or_skip() -> str:
    """The PostgreSQL to make test schemas in; skips the test, saying why, when none
    answers or the default one lets us not in (or asyncpg is not installed). A URL set
    in ``SHENGJI_TEST_DATABASE_URL`` that fails is an error, not a skip."""
    pytest.importorskip("asyncpg", reason="asyncpg is not installed (the postgres extra)")
    url = configured_url() or DEFAULT_URL
    where = make_url(url).render_as_string(hide_password=True)
    if not _answers(url):
        pytest.skip(f"PostgreSQL does not answer at {where} (set {ENV} to test against one)")
    if url == DEFAULT_URL and configured_url() is None:
        if not _default_refused:
            try:
                run_async(_execute(url, ["SELECT 1"]))
                _default_refused.append("")
            except Exception as e:
                _default_refused.append(f"{type(e).__name__}: {e}")
        if _default_refused[0]:
            pytest.skip(f"PostgreSQL at {where} refused us ({_default_refused[0]}); "
                        f"set {ENV} to a URL that may CREATE ROLE")
    return url


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end, also from inside a running event loop (a thread)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:
            errors.append(e)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if errors:
        raise errors[0]
    return out[0]


async def _execute(admin: str, statements: list[str]) -> None:
    import asyncpg

    u = make_url(admin)
    conn = await asyncpg.connect(
        host=u.host or "127.0.0.1",
        port=u.port or 5432,
        user=u.username,
        password=u.password,
        database=u.database,
    )
    try:
        for sql in statements:
            await conn.execute(sql)
    finally:
        await conn.close()


def create_schema(admin: str) -> str:
    """A new role owning a schema of its name; returns the URL that connects as it."""
    name = f"sj_{secrets.token_hex(6)}"
    password = secrets.token_hex(16)
    run_async(
        _execute(
            admin,
            [
                f"CREATE ROLE {name} LOGIN PASSWORD '{password}'",
                f"CREATE SCHEMA AUTHORIZATION {name}",
            ],
        )
    )
    url = make_url(admin).set(username=name, password=password)
    return url.render_as_string(hide_password=False)


def drop_schema(admin: str, url: str) -> None:
    """Drop the role of ``url`` and its schema (its connections are ended first)."""
    name = make_url(url).username
    assert name and name.startswith("sj_"), name
    run_async(
        _execute(
            admin,
            [
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE usename = '{name}'",
                f"DROP SCHEMA IF EXISTS {name} CASCADE",
                f"DROP ROLE IF EXISTS {name}",
            ],
        )
    )


@contextmanager
def fresh_schema(admin: str) -> Iterator[str]:
    """A URL of an empty PostgreSQL schema of its own for the block."""
    url = create_schema(admin)
    try:
        yield url
    finally:
        drop_schema(admin, url)
