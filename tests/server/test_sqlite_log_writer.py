"""The group commit's SQLite path (server/store/sqlite_log_writer.py): a group of rooms is one
transaction on the writer's own thread, errors come back as SQLAlchemy's (so the writer's
fault handling is the same on both paths), a failed group leaves nothing behind, and a
group with a fenced room takes the general (SQLAlchemy) path."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from shengji.server.store.lease_rules import Fence, LeaseLost
from shengji.server.store.sqlite_log_writer import INSERT_LOG, SqliteLogWriter
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import is_storage_fault

STATE: dict[str, Any] = {"seats": [], "status": "waiting", "match_no": 0}


async def _store(tmp_path: Path, rooms: int) -> tuple[Store, list[int]]:
    store = Store(f"sqlite+aiosqlite:///{tmp_path}/w.db")
    await store.start()
    ids = [
        await store.rooms.create(f"code{i}", "classic", {}, "s", False, None, None, STATE)
        for i in range(rooms)
    ]
    return store, ids


async def _store_watched(tmp_path: Path, rooms: int) -> tuple[Store, list[int], list[str]]:
    """A store with ``rooms`` rooms, and the statements its writer thread runs from now on
    (the thread's name before each one's text)."""
    store, ids = await _store(tmp_path, rooms)
    direct = store.writer.direct
    assert direct is not None
    seen: list[str] = []
    direct.checks.append(lambda sql: seen.append(f"{threading.current_thread().name} {sql}"))
    return store, ids, seen


def _rows(path: Path) -> list[tuple[int, int, str, int | None]]:
    with sqlite3.connect(path) as db:
        return list(db.execute("SELECT room_id, seq, data, epoch FROM room_log ORDER BY id"))


def _row(room_id: int, seq: int) -> dict[str, Any]:
    return {"room_id": room_id, "pos": seq, "seq": seq, "match_no": 0, "kind": "action",
            "data": f"@{seq}", "at": 1.0}


def test_a_sqlite_file_store_commits_on_its_own_thread_in_one_hand_off(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids, threads = await _store_watched(tmp_path, 3)
        await asyncio.gather(*[
            store.log.append_rows(rid, [(1, 1, 0, "action", "a"), (2, 2, 0, "action", "b")],
                           {**STATE, "match_no": rid})
            for rid in ids
        ])
        # one INSERT and one UPDATE (of three rooms), both on the writer's thread
        assert len(threads) == 2 and all(t.startswith("sqlite-log-writer") for t in threads)
        assert [(r, s, e) for r, s, _, e in _rows(tmp_path / "w.db")] == [
            (rid, s, None) for rid in ids for s in (1, 2)
        ]
        with sqlite3.connect(tmp_path / "w.db") as db:
            states = dict(db.execute("SELECT id, state FROM rooms"))
        assert all(json.loads(states[rid])["match_no"] == rid for rid in ids)
        await store.close()

    asyncio.run(go())


def test_a_refused_row_is_sqlalchemys_integrity_error_and_nothing_of_its_group_stays(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 1)
        await store.close()
        writer = SqliteLogWriter(str(tmp_path / "w.db"))
        with pytest.raises(IntegrityError) as refused:  # no room 999: the foreign key
            await writer.commit([_row(ids[0], 1), _row(999, 1)], [])
        assert not is_storage_fault(refused.value)
        assert _rows(tmp_path / "w.db") == []  # the good row went with it
        await writer.commit([_row(ids[0], 1)], [("{}", ids[0])])  # and the writer goes on
        assert _rows(tmp_path / "w.db") == [(ids[0], 1, "@1", None)]
        await writer.close()

    asyncio.run(go())


def test_a_failing_statement_is_a_storage_fault_and_rolls_the_group_back(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 1)
        await store.close()
        writer = SqliteLogWriter(str(tmp_path / "w.db"))

        def full(sql: str) -> None:
            if sql.startswith("UPDATE"):  # after the rows were inserted
                raise sqlite3.OperationalError("database or disk is full")

        writer.checks.append(full)
        with pytest.raises(OperationalError) as failed:
            await writer.commit([_row(ids[0], 1)], [("{}", ids[0])])
        assert is_storage_fault(failed.value) and "UPDATE rooms" in str(failed.value)
        assert _rows(tmp_path / "w.db") == []
        writer.checks.clear()
        await writer.commit([_row(ids[0], 1)], [])
        assert len(_rows(tmp_path / "w.db")) == 1
        await writer.close()

    asyncio.run(go())


def test_a_group_with_a_fenced_room_takes_the_general_path(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids, used = await _store_watched(tmp_path, 2)
        store.fences.lose(ids[1])  # lost: refused without asking the database, either path
        await store.log.append_rows(ids[0], [(1, 1, 0, "action", "a")])
        with pytest.raises(LeaseLost):
            await store.log.append_rows(ids[1], [(1, 1, 0, "action", "b")])
        assert [u.split(" ", 1)[1] for u in used] == [INSERT_LOG]  # room 0, written directly
        used.clear()
        store.fences.hold(ids[0], Fence("me", 1))  # fenced: the lease row must be checked
        with pytest.raises(LeaseLost):  # no lease row: the general path's check refuses it
            await store.log.append_rows(ids[0], [(2, 2, 0, "action", "c")])
        assert used == []
        await store.close()

    asyncio.run(go())


def test_the_insert_names_every_column_and_leaves_epoch_null() -> None:
    assert INSERT_LOG == (
        "INSERT INTO room_log (room_id, pos, seq, match_no, kind, data, at, epoch) "
        "VALUES (:room_id, :pos, :seq, :match_no, :kind, :data, :at, NULL)"
    )
