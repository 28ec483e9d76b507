"""The group-commit writer (server/store/group_commit.py) against a real database (a SQLite file,
or PostgreSQL with ``SHENGJI_TEST_DATABASE_URL``): many rooms' rows in one commit, a refused
row fails only its own room, a storage fault fails the group and the writer goes on once
the database takes writes again."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from shengji.server.store.models import LogRow, RoomRow
from shengji.server.store.storage import Store
from shengji.server.store.write_faults import is_storage_fault
from tests.server.faults import WriteFault
from tests.server.helpers import test_database_url as database_for

STATE: dict[str, Any] = {"seats": [], "status": "waiting", "match_no": 0}


async def _store(tmp_path: Path, rooms: int) -> tuple[Store, list[int]]:
    store = Store(database_for(str(tmp_path)) or f"sqlite+aiosqlite:///{tmp_path}/gc.db")
    await store.start()
    ids = [
        await store.rooms.create(f"code{i}", "classic", {}, "s", False, None, None, STATE)
        for i in range(rooms)
    ]
    return store, ids


async def _submit(store: Store, rid: int, seqs: range, state: Any = None) -> asyncio.Future[None]:
    fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def done(exc: BaseException | None) -> None:
        fut.set_result(None) if exc is None else fut.set_exception(exc)

    store.log.submit(rid, [(s, s, 0, "chat", f"line {s}") for s in seqs], state, done)
    return fut


async def _rows(store: Store) -> list[tuple[int, int]]:
    async with store.sessions() as s:
        found = await s.execute(select(LogRow.room_id, LogRow.seq).order_by(LogRow.id))
        return [(r[0], r[1]) for r in found]


def test_many_rooms_share_one_commit_and_each_room_keeps_its_newest_state(
    tmp_path: Path,
) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 20)
        before = store.commits
        futs = [await _submit(store, rid, range(1, 4), {**STATE, "match_no": rid}) for rid in ids]
        futs.append(await _submit(store, ids[0], range(4, 5), {**STATE, "match_no": 99}))
        await asyncio.gather(*futs)
        assert store.commits - before == 1  # submitted together: one transaction
        rows = await _rows(store)
        assert len(rows) == 61 and rows[:3] == [(ids[0], 1), (ids[0], 2), (ids[0], 3)]
        async with store.sessions() as s:
            states = dict((await s.execute(select(RoomRow.id, RoomRow.state))).all())
        assert json.loads(states[ids[0]])["match_no"] == 99  # the later write's
        assert json.loads(states[ids[5]])["match_no"] == ids[5]
        await store.close()

    asyncio.run(go())


def test_a_refused_row_fails_only_its_own_room(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 3)
        good = [await _submit(store, rid, range(1, 3)) for rid in ids]
        bad = await _submit(store, 424242, range(1, 2))  # no such room: a foreign key refuses it
        results = await asyncio.gather(*good, bad, return_exceptions=True)
        assert results[:3] == [None, None, None]
        assert isinstance(results[3], IntegrityError) and not is_storage_fault(results[3])
        assert sorted(await _rows(store)) == sorted((rid, s) for rid in ids for s in (1, 2))
        assert store.health.ok
        await store.close()

    asyncio.run(go())


def test_a_storage_fault_fails_the_group_and_the_writer_goes_on(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 2)
        fault = WriteFault(store)
        fault.on()
        failed = [await _submit(store, rid, range(1, 2)) for rid in ids]
        results = await asyncio.gather(*failed, return_exceptions=True)
        assert all(isinstance(r, Exception) and is_storage_fault(r) for r in results)
        assert not store.health.ok and await _rows(store) == []
        fault.off()
        await asyncio.gather(*[await _submit(store, rid, range(1, 2)) for rid in ids])
        assert sorted(await _rows(store)) == sorted((rid, 1) for rid in ids)
        assert store.health.ok
        await store.close()

    asyncio.run(go())


def test_log_rows_waits_until_the_rows_are_committed(tmp_path: Path) -> None:
    async def go() -> None:
        store, ids = await _store(tmp_path, 1)
        await store.log.append_rows(ids[0], [(1, 1, 0, "room", "{}")], STATE)
        assert await store.log.has_row(ids[0], 1, 1, "room", "{}")
        assert not await store.log.has_row(ids[0], 2, 1, "room", "{}")
        await store.close()

    asyncio.run(go())


def test_rooms_acting_faster_than_the_gap_share_commits_and_a_lone_action_waits_not(
    tmp_path: Path,
) -> None:
    """``log_commit_gap_s``: while rows come faster than the gap, a commit takes what
    gathered since the last one (a row waits at most about the gap); a row after a quiet
    spell is committed at once."""

    async def go() -> None:
        store, ids = await _store(tmp_path, 10)
        store.writer.gap_s = 0.5
        loop = asyncio.get_running_loop()
        await asyncio.sleep(0.6)  # quiet since the rooms were made
        start = loop.time()
        await (await _submit(store, ids[0], range(1, 2)))
        assert loop.time() - start < 0.4  # alone after a quiet spell: committed at once
        before = store.commits
        futs = []
        for i in range(10):  # ten rooms act within 0.2 s: faster than the gap
            futs.append(await _submit(store, ids[i], range(10, 11)))
            await asyncio.sleep(0.02)
        start = loop.time()
        await asyncio.gather(*futs)
        assert store.commits - before <= store.writer.lanes + 1  # a first per lane, then together
        assert loop.time() - start < 1.0
        assert len(await _rows(store)) == 11
        await store.close()

    asyncio.run(go())


def test_closing_does_not_wait_again_for_a_write_a_hung_database_holds(tmp_path: Path) -> None:
    """A server's shutdown drains the writer for at most 5 s, then closes the store with no
    further wait (server/http/app.py): a write the database never answers does not hold the
    shutdown up for the store's own 10 s on top."""

    async def go() -> None:
        store, ids = await _store(tmp_path, 1)
        hung = asyncio.Event()

        async def never(conn: Any, group: Any) -> Any:
            hung.set()
            await asyncio.Event().wait()

        store.writer._commit = never  # type: ignore[method-assign]
        fut = await _submit(store, ids[0], range(1, 2))
        await hung.wait()
        assert not await store.writer.drain(0.2)
        queued = await _submit(store, ids[0], range(2, 3))
        one_lane = store.writer.lanes == 1  # SQLite: the second write waits behind the first
        loop = asyncio.get_running_loop()
        started = loop.time()
        await store.close(0.0)
        assert loop.time() - started < 2.0
        assert not fut.done()  # the held write's outcome is unknown
        if one_lane:
            with pytest.raises(RuntimeError, match="store closed"):
                await queued  # never written: its room hears so

    asyncio.run(go())
