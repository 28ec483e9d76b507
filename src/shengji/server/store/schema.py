"""The database's schema version, checked at start and moved by ``shengji db upgrade``.

The schema is a chain of Alembic revisions (server/store/migrations/versions); the database
records the one it has in ``alembic_version``. What a server finds when it starts:

- no table of ours: an empty database, brought to the head revision at once;
- the head revision: nothing to do;
- an older revision, or our tables without a version (a database made before migrations,
  by ``create_all``, up to shengji 0.1.0): ``SchemaOutdated``; the server does not start
  until ``shengji db upgrade`` has run (a one-line start-up error says so);
- a revision this shengji does not know (a newer release upgraded it): ``SchemaTooNew``;
- a table of ours with other columns: ``SchemaForeign`` (not a shengji database).

Two processes starting on one empty PostgreSQL database at once migrate one after the
other: the upgrade holds a transaction-level advisory lock and looks again once it has it.

>>> head_revision()
'0003'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from shengji.server.store.migrations.versions.r0001_first_schema import COLUMNS as FIRST_COLUMNS

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOCK_KEY = 0x5348454E474A49
"""PostgreSQL advisory lock held while migrating (``SHENGJI`` in ASCII)."""


class SchemaError(Exception):
    """The database's schema is not the one this shengji runs on; ``str(e)`` says why."""

    fix = ""
    """What to do, as one clause (without the command flags): see ``SchemaOutdated``."""


class SchemaOutdated(SchemaError):
    """The database is behind: ``shengji db upgrade`` moves it to the head revision."""

    fix = "upgrade"


class SchemaTooNew(SchemaError):
    """A newer shengji upgraded the database: run that release (or a later one)."""


class SchemaForeign(SchemaError):
    """A table of ours has other columns: this database is not a shengji database."""


@dataclass(frozen=True)
class SchemaState:
    """What a database holds: its recorded revision and which of our tables it has."""

    revision: str | None
    """``alembic_version``'s revision; None when the table is absent or empty."""
    tables: frozenset[str]
    """The tables of the first schema that exist."""
    columns: dict[str, frozenset[str]]
    """Their columns."""

    @property
    def empty(self) -> bool:
        """No version and none of our tables: a new database."""
        return self.revision is None and not self.tables

    @property
    def legacy(self) -> bool:
        """Our tables without a version: made by ``create_all`` before migrations."""
        return self.revision is None and bool(self.tables)


@functools.cache
def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    """The newest revision this shengji knows."""
    head = _script().get_current_head()
    assert head is not None
    return head


def known_revisions() -> list[str]:
    """Every revision, oldest first."""
    return [r.revision for r in reversed(list(_script().walk_revisions()))]


def read_state(conn: Connection) -> SchemaState:
    """The schema state of the database behind a synchronous connection."""
    names = set(inspect(conn).get_table_names())
    revision = MigrationContext.configure(conn).get_current_revision()
    ours = frozenset(names & FIRST_COLUMNS.keys())
    columns = {t: frozenset(c["name"] for c in inspect(conn).get_columns(t)) for t in ours}
    return SchemaState(revision, ours, columns)


def check(state: SchemaState) -> None:
    """Raise the ``SchemaError`` that keeps a server from starting on ``state``; nothing
    for a database at the head revision or an empty one."""
    _check_columns(state)
    head = head_revision()
    if state.empty or state.revision == head:
        return
    if state.legacy:
        raise SchemaOutdated(
            "has the tables of shengji 0.1.0 or before, with no schema version"
        )
    if state.revision not in known_revisions():
        raise SchemaTooNew(
            f"has schema version {state.revision}, which this shengji does not know (its "
            f"newest is {head}): it was upgraded by a newer shengji; run that release"
        )
    raise SchemaOutdated(f"has schema version {state.revision}, this shengji needs {head}")


def _check_columns(state: SchemaState) -> None:
    """Before the first revision is recorded, our tables must have the first schema's
    columns (after it, the revisions own them)."""
    if state.revision is not None:
        return
    for table in sorted(state.tables):
        missing = FIRST_COLUMNS[table] - state.columns[table]
        if missing:
            raise SchemaForeign(
                f"cannot be used: its table {table} is not shengji's (no column "
                f"{', '.join(sorted(missing))}); give the server a database of its own"
            )


def _lock(conn: Connection) -> None:
    """PostgreSQL: wait for any other process migrating this database."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def _upgrade_sync(conn: Connection, only_if_empty: bool) -> tuple[SchemaState, str | None]:
    _lock(conn)
    before = read_state(conn)
    _check_columns(before)
    if before.revision == head_revision() or (only_if_empty and not before.empty):
        return before, before.revision
    if before.revision is not None and before.revision not in known_revisions():
        check(before)  # too new: raises
    cfg = _config()
    cfg.attributes["connection"] = conn
    try:
        command.upgrade(cfg, "head")
    finally:
        cfg.attributes.pop("connection", None)
    return before, MigrationContext.configure(conn).get_current_revision()


async def prepare(engine: AsyncEngine) -> None:
    """At server start: an empty database gets the head schema; one at the head revision
    is used as it is; anything else raises ``SchemaError``."""
    async with engine.connect() as conn:
        state = await conn.run_sync(read_state)
    if state.revision == head_revision() and not state.empty:
        return
    check(state)  # raises unless empty
    async with engine.begin() as conn:
        before, _ = await conn.run_sync(_upgrade_sync, True)
    if not before.empty:  # another process created it meanwhile: check what it made
        check(before)


async def upgrade(engine: AsyncEngine) -> tuple[SchemaState, str | None]:
    """``shengji db upgrade``: move the database to the head revision (a database from
    before migrations first gets the tables it lacks). Returns the state found and the
    revision reached."""
    async with engine.begin() as conn:
        return await conn.run_sync(_upgrade_sync, False)


async def state_of(engine: AsyncEngine) -> SchemaState:
    """The database's schema state (``shengji db current``)."""
    async with engine.connect() as conn:
        return await conn.run_sync(read_state)


def describe(state: SchemaState) -> dict[str, Any]:
    """``shengji db current`` as data: revision, head, and what to do."""
    head = head_revision()
    try:
        check(state)
        action = "create" if state.empty else "none"
    except SchemaOutdated:
        action = "upgrade"
    except SchemaError as e:
        action = "refuse: " + str(e)
    return {"revision": state.revision, "head": head, "legacy": state.legacy,
            "action": action}
