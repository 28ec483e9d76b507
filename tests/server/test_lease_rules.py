"""Room leases: the pure rules (server/store/lease_rules.py) as a hypothesis state machine of
processes that claim, renew, write and freeze, checked step by step against the same
operations carried out in a real database by server/store/lease_store.py (SQLite, and
PostgreSQL when one answers): both must decide alike, and no stale write is ever admitted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from shengji.server.store import lease_store
from shengji.server.store.lease_rules import Fence, Lease, admits, claim, claimable, expired, renew
from shengji.server.store.lease_store import Fences
from shengji.server.store.storage import Store
from tests import pg

TTL = 6.0
PROCESSES = ("a", "b", "c")


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'leases.db'}"
        return
    with pg.fresh_schema(pg.admin_url_or_skip()) as url:
        yield url


class Leases(RuleBasedStateMachine):
    """Three processes, two rooms, one clock. The model is lease_rules; the database is
    the twin; ``held`` is what each process believes it holds."""

    store: Store
    loop: asyncio.AbstractEventLoop
    all_rooms: set[int]

    def __init__(self) -> None:
        super().__init__()
        self.now = 1000.0
        self.rooms = [self._run(self._new_room()) for _ in range(2)]
        self.model: dict[int, Lease | None] = dict.fromkeys(self.rooms)
        self.held: dict[str, dict[int, int]] = {p: {} for p in PROCESSES}
        self.log: dict[int, list[tuple[str, int]]] = {r: [] for r in self.rooms}

    def _run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)

    async def _new_room(self) -> int:
        rid = await self.store.rooms.create(
            f"lease-{len(self.all_rooms)}", "classic", {}, "s", False, None, None, {}
        )
        self.all_rooms.add(rid)
        return rid

    # ------------------------------------------------------------------ rules

    @rule(dt=st.sampled_from([0.5, 1.0, 2.0, 3.0, 5.9, 6.0, 7.0, 13.0]))
    def time_passes(self, dt: float) -> None:
        self.now += dt

    @rule(p=st.sampled_from(PROCESSES), i=st.integers(0, 1), at_start=st.booleans())
    def claim_room(self, p: str, i: int, at_start: bool) -> None:
        """``p`` scans for room ``i`` (``at_start``: ``p`` restarted, under its old id)."""
        r = self.rooms[i]
        if at_start:
            self.held[p] = {}  # a new incarnation remembers nothing
        old = self.model[r]
        new = claim(old, p, self.now, TTL, at_start=at_start)
        skip = self.all_rooms - {r}
        got = self._run(lease_store.claim_rooms(
            self.store.sessions, p, f"http://{p}", self.now, TTL, skip, at_start
        ))
        assert (r in got) == (new is not None)
        if new is None:
            assert old is not None and not expired(old, self.now)
            assert old.owner != p or not at_start  # a scan never takes a live lease
            return
        assert got[r] == Fence(p, new.epoch)
        assert new.epoch == (0 if old is None else old.epoch) + 1  # fences every earlier one
        self.model[r] = new
        self.held[p][r] = new.epoch

    @rule(p=st.sampled_from(PROCESSES))
    def renew_all(self, p: str) -> None:
        fences = {r: Fence(p, e) for r, e in self.held[p].items()}
        lost = self._run(lease_store.renew(self.store.sessions, p, fences, self.now, TTL))
        for r, fence in fences.items():
            new = renew(self.model[r], fence, self.now, TTL)
            assert (r in lost) == (new is None)
            if new is None:
                del self.held[p][r]  # another process claimed it: stop the room
            else:
                self.model[r] = new  # only the rooms the process holds are renewed

    @rule(p=st.sampled_from(PROCESSES), i=st.integers(0, 1))
    def write(self, p: str, i: int) -> None:
        r = self.rooms[i]
        if r not in self.held[p]:
            return
        fence = Fence(p, self.held[p][r])
        fences = Fences(self.store.sqlite)
        fences.hold(r, fence)

        async def fenced() -> set[int]:
            async with self.store.sessions.begin() as s:
                return await fences.refused(s, [r])

        refused = self._run(fenced())
        assert (r in refused) == (not admits(self.model[r], fence))
        if r in refused:
            del self.held[p][r]  # a stale write: refused, the process stops the room
        else:
            self.log[r].append((p, fence.epoch))

    # ------------------------------------------------------------------ invariants

    @invariant()
    def one_writer_per_room(self) -> None:
        for r in self.rooms:
            writers = [p for p in PROCESSES if r in self.held[p]
                       and admits(self.model[r], Fence(p, self.held[p][r]))]
            assert len(writers) <= 1

    @invariant()
    def log_epochs_never_go_back(self) -> None:
        for entries in self.log.values():
            epochs = [e for _, e in entries]
            assert epochs == sorted(epochs)
            owner_of = {}
            for p, e in entries:  # one owner per epoch
                assert owner_of.setdefault(e, p) == p

    @invariant()
    def a_live_lease_is_never_taken(self) -> None:
        for lease in self.model.values():
            if lease is not None and not expired(lease, self.now):
                others = [p for p in PROCESSES if p != lease.owner]
                assert not any(claimable(lease, p, self.now) for p in others)
                assert not claimable(lease, lease.owner, self.now)  # nor its owner's scan


def test_the_rules_and_the_database_decide_alike(store_url: str) -> None:
    loop = asyncio.new_event_loop()
    store = Store(store_url)
    loop.run_until_complete(store.start())
    try:
        Leases.store, Leases.loop, Leases.all_rooms = store, loop, set()
        run_state_machine_as_test(
            Leases,
            settings=settings(
                max_examples=25 if "sqlite" in store_url else 10,
                stateful_step_count=25,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
            ),
        )
    finally:
        loop.run_until_complete(store.close())
        loop.close()


def test_a_stale_write_is_refused_and_nothing_is_written(store_url: str) -> None:
    """Two processes on one database: b adopts a's expired room x; a's next log write of
    x (its fence is stale) raises ``LeaseLost`` and the log keeps only the adopter's row,
    while a's write of its other room y, committed in the same group, goes through. Every
    row carries the epoch it was written under."""
    from sqlalchemy import func, select

    from shengji.server.store.lease_rules import LeaseLost
    from shengji.server.store.models import LogRow

    async def go() -> None:
        a, b = Store(store_url), Store(store_url)
        await a.start()
        await b.start()
        try:
            adder = lease_store.lease_inserter("a", "http://a", 100.0)
            rid = await a.rooms.create("x", "classic", {}, "s", False, None, None, {},
                                      lease=adder)
            other = await a.rooms.create("y", "classic", {}, "s", False, None, None, {},
                                        lease=adder)
            a.fences.hold(rid, Fence("a", 1))
            a.fences.hold(other, Fence("a", 1))
            await a.log.append(rid, 1, 1, 0, "action", "1")
            got = await lease_store.claim_rooms(b.sessions, "b", None, 99.0, TTL, ())
            assert got == {}  # a's lease is live
            got = await lease_store.claim_rooms(b.sessions, "b", None, 101.0, TTL, (other,))
            assert got == {rid: Fence("b", 2)}
            b.fences.hold(rid, got[rid])
            await b.log.append(rid, 2, 2, 0, "action", "2")
            stale = a.log.append(rid, 3, 2, 0, "action", "stale")  # one group, two rooms
            fine = a.log.append(other, 1, 1, 0, "action", "y1")
            results = await asyncio.gather(stale, fine, return_exceptions=True)
            assert isinstance(results[0], LeaseLost) and results[1] is None
            with pytest.raises(LeaseLost):
                await a.log.append(rid, 3, 2, 0, "action", "stale")  # alone: refused all the same
            with pytest.raises(LeaseLost):
                await a.rooms.close(rid)
            assert not await a.rooms.quarantine(rid, "stale")
            async with b.sessions() as s:
                rows = (await s.execute(
                    select(LogRow.seq, LogRow.data).where(LogRow.room_id == rid)
                    .order_by(LogRow.seq)
                )).all()
                assert [tuple(r) for r in rows] == [(1, "1"), (2, "2")]
                n = (await s.execute(select(func.count()).select_from(LogRow))).scalar_one()
                assert n == 3
                epochs = (await s.execute(
                    select(LogRow.room_id, LogRow.data, LogRow.epoch).order_by(LogRow.id)
                )).all()
                assert [tuple(r) for r in epochs] == [
                    (rid, "1", 1), (rid, "2", 2), (other, "y1", 1)]
            assert await lease_store.renew(a.sessions, "a", {rid: Fence("a", 1)}, 102.0,
                                           TTL) == {rid}
            holder = await lease_store.holder_of(b.sessions, "x", 102.0)
            assert holder is not None and holder.instance == "b" and holder.epoch == 2
        finally:
            await a.close()
            await b.close()

    asyncio.run(go())
