"""Migrations (server/store/schema.py, server/migrations) on SQLite and PostgreSQL: an empty
database gets the newest schema; a database of shengji 0.1.0 (``create_all``, no version)
stops the server with a one-line error naming ``shengji db upgrade``, which brings it to
the newest schema with its data; the migrated schema is exactly the models'."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Boolean, Integer, MetaData, func, inspect, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from shengji.cli.main import main
from shengji.server.store import schema
from shengji.server.store.models import Base
from shengji.server.store.storage import Store
from tests import pg
from tests.server.helpers import fast_settings, live_server, new_player, new_room

LEGACY = json.loads((Path(__file__).parent / "fixtures" / "schema_0_1_0.json").read_text())
"""The schema of shengji 0.1.0 per dialect and the rows of a real run of it."""


@dataclass
class Database:
    """A database under test: its URL and the flags that name it on the command line."""

    kind: str
    url: str
    flags: list[str]
    data_dir: Path


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        db = tmp_path / "shengji.db"
        sqlite3.connect(db).close()  # an empty file: an empty database
        yield Database("sqlite", f"sqlite+aiosqlite:///{db}", ["--data-dir", str(tmp_path)],
                       tmp_path)
        return
    admin = pg.admin_url_or_skip()
    with pg.fresh_schema(admin) as url:
        yield Database("postgresql", url, ["--database-url", url], tmp_path)


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _sync(url: str, fn: Any) -> Any:
    async def go() -> Any:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(fn)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def _diff(conn: Connection) -> list[Any]:
    ctx = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(ctx, Base.metadata))


def _counts(conn: Connection) -> dict[str, int]:
    meta = MetaData()
    meta.reflect(conn)
    return {
        t: int(conn.execute(select(func.count()).select_from(meta.tables[t])).scalar_one())
        for t in LEGACY["rows"]
        if t in meta.tables
    }


def _load_legacy(db: Database, leave_out: tuple[str, ...] = ()) -> None:
    """Make the database as shengji 0.1.0 left it (tables ``leave_out`` did not exist yet)."""

    def load(conn: Connection) -> None:
        for ddl in LEGACY["ddl"][db.kind]:
            if not any(f" {t} " in ddl or f" {t}(" in ddl for t in leave_out):
                conn.execute(text(ddl))
        meta = MetaData()
        meta.reflect(conn)
        for table in meta.sorted_tables:
            rows = LEGACY["rows"][table.name]
            if not rows:
                continue
            flags = [c.name for c in table.columns if isinstance(c.type, Boolean)]
            rows = [{k: (bool(v) if k in flags else v) for k, v in r.items()} for r in rows]
            conn.execute(table.insert(), rows)
            serial = "id" in table.columns and isinstance(table.c.id.type, Integer)
            if db.kind == "postgresql" and serial:
                conn.execute(text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"(SELECT max(id) FROM {table.name}))"
                ))

    _sync(db.url, load)


async def _start(url: str) -> None:
    store = Store(url)
    try:
        await store.start()
    finally:
        await store.close()


def test_upgrade_from_empty(database: Database) -> None:
    code, out, err = _cli("db", "upgrade", *database.flags)
    assert code == 0, err
    assert out.strip().endswith(f"upgraded from empty to schema {schema.head_revision()}")
    assert _sync(database.url, _diff) == []  # the migrated schema is the models'
    code, out, _ = _cli("db", "current", "--json", *database.flags)
    assert json.loads(out) == {"revision": schema.head_revision(), "head": schema.head_revision(),
                               "legacy": False, "action": "none"}
    code, out, _ = _cli("db", "upgrade", *database.flags)
    assert code == 0 and f"already at schema {schema.head_revision()}" in out


def test_the_server_gives_an_empty_database_the_newest_schema(database: Database) -> None:
    asyncio.run(_start(database.url))
    state = _sync(database.url, schema.read_state)
    assert state.revision == schema.head_revision()
    assert _sync(database.url, _diff) == []


def test_a_database_of_0_1_0_is_refused_then_upgraded_with_its_data(database: Database) -> None:
    _load_legacy(database)
    before = _sync(database.url, _counts)
    assert before["room_log"] == len(LEGACY["rows"]["room_log"]) > 100
    with pytest.raises(schema.SchemaOutdated):
        asyncio.run(_start(database.url))
    code, out, _ = _cli("db", "current", *database.flags)
    assert "(tables from before migrations)" in out and "to do: upgrade" in out

    served = subprocess.run(
        [sys.executable, "-m", "shengji", "serve", "--port", "0", *database.flags],
        capture_output=True, text=True, timeout=60,
    )
    assert served.returncode == 1 and served.stdout == ""
    (line,) = served.stderr.splitlines()
    assert "has the tables of shengji 0.1.0 or before, with no schema version" in line
    assert f"run `shengji db upgrade {database.flags[0]} " in line
    assert line.endswith("then start again")
    assert ":***@" in line or database.kind == "sqlite"  # never the password

    code, _, err = _cli("rooms", "quarantined", *database.flags)  # admin refuses too
    assert code == 1 and err.count("\n") == 1 and "run `shengji db upgrade" in err

    code, out, err = _cli("db", "upgrade", *database.flags)
    assert code == 0, err
    assert f"upgraded from the tables of shengji 0.1.0 to schema {schema.head_revision()}" in out
    assert _sync(database.url, _counts) == before  # every row kept
    assert _sync(database.url, _diff) == []

    settings = fast_settings(str(database.data_dir), database_url=database.url)
    with live_server(settings) as base:
        rooms = LEGACY["rows"]["rooms"]
        for room in rooms:  # both rooms restored from their logs
            assert httpx.get(f"{base}/api/rooms/{room['code']}").status_code == 200
        for entry in LEGACY["rows"]["stake_ledger"]:
            mine = httpx.get(f"{base}/api/players/{entry['player_id']}/stakes").json()
            assert [r["delta"] for r in mine["ledger"]] == [entry["delta"]]
        (game,) = LEGACY["rows"]["games"]
        assert httpx.get(f"{base}/api/games/{game['id']}").json()["result"]
        me = new_player(base, "after")  # new rows get new ids
        assert new_room(base, me["token"])["code"]


def test_a_database_older_than_some_tables_gains_them(database: Database) -> None:
    _load_legacy(database, leave_out=("heartbeat", "room_quarantine"))
    assert {"heartbeat", "room_quarantine"}.isdisjoint(_sync(database.url, _counts))
    code, out, err = _cli("db", "upgrade", *database.flags)
    assert code == 0 and f"shengji 0.1.0 to schema {schema.head_revision()}" in out, err
    assert _sync(database.url, _diff) == []  # the missing tables were made
    asyncio.run(_start(database.url))


def test_a_table_of_another_shape_is_refused(database: Database) -> None:
    _sync(database.url, lambda c: c.execute(text("CREATE TABLE rooms (x INTEGER)")))
    with pytest.raises(schema.SchemaForeign, match="table rooms is not shengji's"):
        asyncio.run(_start(database.url))
    code, _, err = _cli("db", "upgrade", *database.flags)
    assert code == 1 and "is not shengji's (no column closed, code" in err
    assert err.count("\n") == 1


def test_a_schema_newer_than_this_shengji_is_refused(database: Database) -> None:
    asyncio.run(_start(database.url))
    _sync(database.url, lambda c: c.execute(text("UPDATE alembic_version SET version_num='9999'")))
    with pytest.raises(schema.SchemaTooNew, match="upgraded by a newer shengji"):
        asyncio.run(_start(database.url))
    code, _, err = _cli("db", "upgrade", *database.flags)
    assert code == 1 and "9999" in err


def test_upgrade_waits_for_the_sqlite_server_to_stop(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), database_url=None)):
        code, _, err = _cli("db", "upgrade", "--data-dir", str(tmp_path))
        assert code == 1 and "stop it before upgrading" in err and err.count("\n") == 1
    code, out, _ = _cli("db", "upgrade", "--data-dir", str(tmp_path))
    assert code == 0 and "already at schema" in out


def test_two_servers_starting_on_one_empty_database_both_start() -> None:
    with pg.fresh_schema(pg.admin_url_or_skip()) as url:

        async def both() -> None:
            await asyncio.gather(_start(url), _start(url), _start(url))

        asyncio.run(both())
        assert _sync(url, schema.read_state).revision == schema.head_revision()


def _to_revision(revision: str) -> Any:
    def go(conn: Connection) -> None:
        cfg = schema._config()
        cfg.attributes["connection"] = conn
        try:
            from alembic import command

            command.upgrade(cfg, revision)
        finally:
            cfg.attributes.pop("connection", None)

    return go


def test_upgrade_from_0001_numbers_every_room_s_log(database: Database) -> None:
    """A database at 0001: room 1's log has two rows of seq 2 (a message for one seat
    only, logged under the seq of the public one before it), room 2's rows were written
    interleaved with room 1's. The upgrade numbers each room's rows 1, 2, 3 ... in the
    order they were written, keeps every row, quarantines nothing, and the log gets its
    unique (room, pos) key and an epoch column (NULL for the old rows)."""
    _sync(database.url, _to_revision("0001"))

    def fill(conn: Connection) -> None:
        for rid in (1, 2):
            conn.execute(text(
                "INSERT INTO rooms (id, code, preset, ruleset, seed, private, state, closed, "
                "created) VALUES (:i, :c, 'classic', '{}', 's', :f, '{}', :f, 0)"
            ), {"i": rid, "c": f"room{rid}", "f": False})
        rows = [(1, 1, "a"), (2, 1, "x"), (1, 2, "b"), (1, 2, "b-private"), (2, 2, "y"),
                (1, 3, "c")]
        for rid, seq, data in rows:
            conn.execute(text(
                "INSERT INTO room_log (room_id, seq, match_no, kind, data, at) "
                "VALUES (:r, :s, 0, 'action', :d, 0)"), {"r": rid, "s": seq, "d": data})

    _sync(database.url, fill)
    with pytest.raises(schema.SchemaOutdated, match="has schema version 0001"):
        asyncio.run(_start(database.url))
    code, out, err = _cli("db", "upgrade", *database.flags)
    assert code == 0, err
    assert f"to schema {schema.head_revision()}" in out
    assert _sync(database.url, _diff) == []

    def read(conn: Connection) -> tuple[Any, ...]:
        log = conn.execute(text("SELECT room_id, pos, seq, data, epoch FROM room_log "
                                "ORDER BY room_id, pos")).all()
        held = conn.execute(text("SELECT room_id FROM room_quarantine")).all()
        return [tuple(r) for r in log], [tuple(r) for r in held]

    log, held = _sync(database.url, read)
    assert log == [(1, 1, 1, "a", None), (1, 2, 2, "b", None), (1, 3, 2, "b-private", None),
                   (1, 4, 3, "c", None), (2, 1, 1, "x", None), (2, 2, 2, "y", None)]
    assert held == []
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        _sync(database.url, lambda c: c.execute(text(
            "INSERT INTO room_log (room_id, pos, seq, match_no, kind, data, at) "
            "VALUES (2, 2, 3, 0, 'action', 'twice', 0)")))
    _sync(database.url, lambda c: c.execute(text(  # a private row under a seq: its own place
        "INSERT INTO room_log (room_id, pos, seq, match_no, kind, data, at) "
        "VALUES (2, 3, 2, 0, 'action', 'y-private', 0)")))


def test_both_ways_of_numbering_the_log_agree() -> None:
    """Migration 0002 numbers rows with a window function (``UPDATE ... FROM``, SQLite
    3.33+ and PostgreSQL) or, on an older SQLite, by counting: the same numbers."""
    from shengji.server.store.migrations.versions import r0002_room_leases as r0002

    got = []
    for statement in (r0002._NUMBER_WINDOWED, r0002._NUMBER_COUNTED):
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE room_log (id INTEGER PRIMARY KEY, room_id INT, pos INT)")
        db.executemany("INSERT INTO room_log (id, room_id) VALUES (?, ?)",
                       [(1, 7), (2, 8), (3, 7), (5, 7), (9, 8), (10, 9)])
        db.execute(statement)
        got.append(db.execute("SELECT id, pos FROM room_log ORDER BY id").fetchall())
        db.close()
    assert got[0] == got[1] == [(1, 1), (2, 1), (3, 2), (5, 3), (9, 2), (10, 1)]


def test_upgrade_from_0002_adds_empty_saved_rules_and_keeps_players(database: Database) -> None:
    """A database at 0002 gains the ``saved_rules`` table (empty, one rule set per player
    and name), its players kept; the downgrade drops the table again."""
    _sync(database.url, _to_revision("0002"))
    _sync(database.url, lambda c: c.execute(text(
        "INSERT INTO players (id, name, token_hash, created) VALUES ('p1', 'ann', 'h', 0)")))
    with pytest.raises(schema.SchemaOutdated, match="has schema version 0002"):
        asyncio.run(_start(database.url))
    code, _out, err = _cli("db", "upgrade", *database.flags)
    assert code == 0, err
    assert _sync(database.url, _diff) == []
    rows = _sync(database.url, lambda c: (
        c.execute(text("SELECT id, name FROM players")).all(),
        c.execute(text("SELECT count(*) FROM saved_rules")).scalar_one()))
    assert [tuple(r) for r in rows[0]] == [("p1", "ann")] and rows[1] == 0
    add = ("INSERT INTO saved_rules (player_id, name, preset, options, saved) "
           "VALUES ('p1', 'friday', 'classic', '{}', 0)")
    _sync(database.url, lambda c: c.execute(text(add)))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        _sync(database.url, lambda c: c.execute(text(add)))

    def down(conn: Connection) -> None:
        from alembic import command

        cfg = schema._config()
        cfg.attributes["connection"] = conn
        try:
            command.downgrade(cfg, "0002")
        finally:
            cfg.attributes.pop("connection", None)

    _sync(database.url, down)
    assert "saved_rules" not in _sync(database.url, lambda c: inspect(c).get_table_names())
