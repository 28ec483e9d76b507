"""Fault drills against a real ``shengji serve`` process (issue 13, item 4).

Three tables play at once — four bots; three bots and a scripted human; three bots and a
human who leaves at once (a stand-in plays for them) — while the database refuses writes:

- SQLite: ~20 times, at random moments, for 3 to 5 s each (the store refuses every write
  while a file exists: ``SHENGJI_TEST_WRITE_FAULT_FILE``, server/store/fault_drill.py);
- PostgreSQL: a server of the test's own (``initdb`` into a temporary folder, its own port)
  stopped for 5 s and started again.

Then: no table stalls (each moves again within seconds of every outage and finishes its
match), no action is lost or written twice (each room's logged actions are exactly its
finished record's, and the record replays), and the human's client saw each pause and its
resume. The figures are printed (``pytest -s``) and asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from shengji.core.record import GameRecord, replay
from shengji.server.wire.actions import read_logged
from tests.server.helpers import Client, new_player, new_room
from tests.server.test_restart import _free_port

BOTS = {"1": "random", "2": "random", "3": "random"}
ENV = {
    "SHENGJI_DEAL_PACING_S": "0.01",
    "SHENGJI_BOT_DELAY_S": "0.03",
    "SHENGJI_DEAL_END_PAUSE_S": "0.2",
    "SHENGJI_SEAT_GRACE_S": "1",
    "SHENGJI_STORAGE_RETRY_FIRST_S": "0.05",
    "SHENGJI_STORAGE_RETRY_MAX_S": "0.5",
    "SHENGJI_RATE_PER_S": "1000",
    "SHENGJI_RATE_BURST": "1000",
    "SHENGJI_SIGNUP_RATE": "1000/minute",
    "SHENGJI_ROOM_RATE": "1000/minute",
    "SHENGJI_TURN_S": "30",
    "SHENGJI_NEXT_DEAL_S": "10",
}
STALL_S = 10.0
"""A table that has not moved this long after an outage ended has stalled."""


@contextmanager
def serving(data_dir: Path, env: dict[str, str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``shengji serve`` on a free port; yields its base URL and the process."""
    port = _free_port()
    full = {**os.environ, **ENV, **env}
    cmd = [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--data-dir", str(data_dir), "--log-level", "info"]
    log = open(data_dir / "server.log", "w")  # noqa: SIM115  (closed below)
    proc = subprocess.Popen(cmd, env=full, stdout=log, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=2).status_code in (200, 503):
                    break
            assert proc.poll() is None, (data_dir / "server.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()


@dataclass
class Seen:
    """What one client saw of its room, with when."""

    name: str
    updates: list[float] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    """``paused`` and ``resumed``, in order."""
    acts: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    """Its own seat's plays, as the server announced them."""
    game: int | None = None
    error: str | None = None

    @property
    def over(self) -> bool:
        return self.game is not None


def follow(base: str, code: str, token: str, seen: Seen, seat: int | None) -> None:
    """A client of the room until ``match_over``; it plays ``seat`` by hints (acts and
    presses "next deal") when a seat is given."""
    try:
        c = Client(base, code, token)
        if seat is not None:
            c.send({"t": "sit", "v": 2, "seat": seat})
            c.send({"t": "ready", "v": 2})
        while True:
            m = c.recv(120)
            t = m["t"]
            if t in ("paused", "resumed"):
                seen.events.append(t)
            elif t == "match_over":
                seen.game = int(m["game"])
                break
            elif t == "error" and m["code"] not in ("not-your-turn", "wrong-phase"):
                raise AssertionError(m)
            elif t == "update":
                seen.updates.append(time.monotonic())
                seen.seqs.append(m["seq"])
                for e in m["events"]:
                    if e["type"] == "played" and e["seat"] == seat:
                        seen.played.append(e["cards"])
                    if e["type"] == "deal_ended" and seat is not None:
                        c.send({"t": "next_deal", "v": 2})
                if seat is not None and m["to_act"] == seat and m["phase"] != "dealing":
                    c.send({"t": "hint", "v": 2})
                    hint = c.wait(lambda x: x["t"] in ("hint", "match_over"), timeout=120)
                    if hint["t"] == "hint" and hint["action"]:
                        seen.acts.append(hint["action"])
                        c.act(hint["action"])
        c.close()
    except (AssertionError, ConnectionClosed, TimeoutError) as e:
        seen.error = f"{type(e).__name__}: {e}"


def leave_at_once(base: str, code: str, token: str) -> None:
    """A human who sits, gets ready and goes: a stand-in bot plays the seat."""
    c = Client(base, code, token)
    c.send({"t": "sit", "v": 2, "seat": 0})
    c.send({"t": "ready", "v": 2})
    c.wait(lambda m: m["t"] == "room" and m["room"]["seats"][0]["ready"])
    c.close()


@dataclass
class Drill:
    """Three rooms and their clients."""

    base: str
    rooms: dict[str, str] = field(default_factory=dict)
    seen: dict[str, Seen] = field(default_factory=dict)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self, deals: int) -> None:
        owner = new_player(self.base, "owner")
        human = new_player(self.base, "ann")
        leaver = new_player(self.base, "carl")
        watcher = new_player(self.base, "watch")
        spec = {"bots": {"0": "random", **BOTS}, "human": BOTS, "stand-in": BOTS}
        for name, bots in spec.items():
            room = new_room(self.base, owner["token"], max_deals=deals, bots=bots)
            self.rooms[name] = room["code"]
            self.seen[name] = Seen(name)
        leave_at_once(self.base, self.rooms["stand-in"], leaver["token"])
        jobs: list[tuple[str, str, int | None]] = [
            ("bots", watcher["token"], None),
            ("human", human["token"], 0),
            ("stand-in", watcher["token"], None),
        ]
        for name, token, seat in jobs:
            t = threading.Thread(
                target=follow, args=(self.base, self.rooms[name], token, self.seen[name], seat)
            )
            t.start()
            self.threads.append(t)

    @property
    def playing(self) -> bool:
        return any(not s.over and s.error is None for s in self.seen.values())

    def wait(self, timeout: float) -> None:
        for t in self.threads:
            t.join(timeout)
        for s in self.seen.values():
            assert s.error is None, (s.name, s.error)
            assert s.over, f"{s.name}: the match never ended"


def recovery_times(seen: Seen, outages: list[tuple[float, float]]) -> list[float]:
    """For each outage during the room's match: how long after it ended the room moved."""
    out = []
    for _start, end in outages:
        if not seen.updates or seen.updates[-1] < end:
            continue  # the match was over by then
        out.append(min(t for t in seen.updates if t >= end) - end)
    return out


def check_log(rows: list[tuple[int, str, str]], record: GameRecord, room: str) -> int:
    """Nothing lost, nothing twice: the logged actions are the record's; returns how many."""
    actions = [str(read_logged(data)) for _pos, kind, data in rows if kind == "action"]
    assert actions == record.actions, f"{room}: the log is not the record"
    # each row at its own place in the room's log (a round of dealt cards shares one seq)
    places = [pos for pos, _kind, _data in rows]
    assert places == sorted(set(places)), f"{room}: a row written twice"
    assert replay(record).history, room
    return len(actions)


def report(title: str, drill: Drill, outages: list[tuple[float, float]], logged: int) -> str:
    human = drill.seen["human"]
    recover = [r for s in drill.seen.values() for r in recovery_times(s, outages)]
    lines = [
        f"{title}: {len(outages)} outages, {sum(e - s for s, e in outages):.1f} s in all",
        f"  tables finished: {sum(s.over for s in drill.seen.values())}/{len(drill.seen)}, "
        f"stalls (> {STALL_S:g} s without a move after an outage): "
        f"{sum(r > STALL_S for r in recover)}",
        f"  moved again after an outage within: max {max(recover, default=0):.2f} s, "
        f"median {sorted(recover)[len(recover) // 2] if recover else 0:.2f} s",
        f"  actions logged {logged}, lost 0, doubled 0 (every room's log = its record)",
        f"  the human: {len(human.acts)} actions sent, {len(human.played)} plays announced; "
        f"saw {human.events.count('paused')} pauses and {human.events.count('resumed')} "
        "resumes",
    ]
    text = "\n".join(lines)
    print("\n" + text)
    return text


def check_human(seen: Seen) -> None:
    """Each pause followed by its resume; every update once, in order."""
    assert seen.events.count("paused") >= 1, "the human's client never saw a pause"
    assert seen.events == ["paused", "resumed"] * (len(seen.events) // 2), seen.events
    assert seen.seqs == sorted(set(seen.seqs)), "an update came twice or out of order"
    plays = [a for a in seen.acts if a.startswith("play ")]
    assert len(seen.played) == len(plays), "a card play lost or applied twice"


# ------------------------------------------------------------------------------ SQLite


def sqlite_rows(db: Path, room_code: str) -> tuple[list[tuple[int, str, str]], int]:
    with sqlite3.connect(db) as c:
        rid = c.execute("SELECT id FROM rooms WHERE code = ?", (room_code,)).fetchone()[0]
        rows = c.execute(
            "SELECT pos, kind, data FROM room_log WHERE room_id = ? AND match_no = 1 "
            "ORDER BY id",
            (rid,),
        ).fetchall()
    return [(int(a), str(b), str(c_)) for a, b, c_ in rows], int(rid)


@pytest.mark.sqlite_only
def test_sqlite_refusing_writes_twenty_times_stalls_no_table(tmp_path: Path) -> None:
    switch = tmp_path / "refuse-writes"
    rng = random.Random(13)
    outages: list[tuple[float, float]] = []
    with serving(tmp_path, {"SHENGJI_TEST_WRITE_FAULT_FILE": str(switch)}) as (base, _proc):
        drill = Drill(base)
        drill.start(deals=4)
        while drill.playing and len(outages) < 20:
            time.sleep(rng.uniform(0.5, 1.5))  # a random moment of the matches
            start = time.monotonic()
            switch.touch()
            time.sleep(rng.uniform(3.0, 5.0))
            switch.unlink()
            outages.append((start, time.monotonic()))
        drill.wait(180)
        logged = 0
        for name, code in drill.rooms.items():
            rows, _ = sqlite_rows(tmp_path / "shengji.db", code)
            rec = GameRecord.from_json(httpx.get(f"{base}/api/games/{drill.seen[name].game}").text)
            logged += check_log(rows, rec, name)
        # /healthz is 503 while writes fail; its probe brings it back within its backoff
        wait_until(lambda: httpx.get(f"{base}/healthz").status_code == 200, 15)
    text = report("SQLite", drill, outages, logged)
    (tmp_path / "report.txt").write_text(text)
    assert len(outages) >= 15, "the matches ended before the drill got going"
    check_human(drill.seen["human"])
    for s in drill.seen.values():
        assert all(r <= STALL_S for r in recovery_times(s, outages)), s.name
    log = (tmp_path / "server.log").read_text()
    assert "a write failed" in log and "writes succeed again" in log  # one line each way


# ------------------------------------------------------------------------------ PostgreSQL


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return None if initdb is None else Path(initdb).parent


class Postgres:
    """A PostgreSQL server of the test's own: its data folder, its port, started and stopped
    here (as the ``postgres`` user when the test runs as root)."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        # its own folder, not under pytest's (which only root may enter)
        self.root = Path(tempfile.mkdtemp(prefix="shengji-pg-"))
        self.data = self.root / "pgdata"
        self.port = _free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                pytest.skip("running as root without runuser: cannot start PostgreSQL")
            self.as_user = [runuser, "-u", "postgres", "--"]

    @classmethod
    def with_database(cls) -> Postgres:
        """A started server holding an empty database ``shengji`` (``url``); the caller
        stops it. Skips the test without asyncpg or PostgreSQL's binaries."""
        pytest.importorskip(
            "asyncpg", reason="needs the postgres extra: pip install -e '.[postgres]'"
        )
        pg = cls()
        if pg.bin is None:
            pytest.skip("PostgreSQL's initdb not found (apt-get install postgresql)")
        pg.init()
        pg.start()
        try:
            pg.run("createdb", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "shengji", "shengji")
        except BaseException:
            pg.stop()
            raise
        return pg

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert self.bin is not None
        cmd = [*self.as_user, str(self.bin / args[0]), *args[1:]]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=check)

    def init(self) -> None:
        if self.as_user:
            shutil.chown(self.root, "postgres")
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "shengji", "-E", "UTF8")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "pg.log"),
                 "-w", "start")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://shengji@127.0.0.1:{self.port}/shengji"

    def rows(self, code: str) -> list[tuple[int, str, str]]:
        import asyncpg

        async def fetch() -> list[tuple[int, str, str]]:
            conn = await asyncpg.connect(
                host="127.0.0.1", port=self.port, user="shengji", database="shengji"
            )
            try:
                rid = await conn.fetchval("SELECT id FROM rooms WHERE code = $1", code)
                got = await conn.fetch(
                    "SELECT pos, kind, data FROM room_log WHERE room_id = $1 AND match_no = 1"
                    " ORDER BY id",
                    rid,
                )
                return [(int(r[0]), str(r[1]), str(r[2])) for r in got]
            finally:
                await conn.close()

        return asyncio.run(fetch())


def test_postgres_stopped_for_five_seconds_stalls_no_table(tmp_path: Path) -> None:
    pg = Postgres.with_database()
    try:
        with serving(tmp_path, {"SHENGJI_DATABASE_URL": pg.url}) as (base, _proc):
            drill = Drill(base)
            drill.start(deals=2)
            wait_until(lambda: len(drill.seen["human"].updates) > 150, 60)
            start = time.monotonic()
            pg.stop()
            time.sleep(5.0)
            pg.start()
            outages = [(start, time.monotonic())]
            drill.wait(180)
            logged = 0
            for name, code in drill.rooms.items():
                game = httpx.get(f"{base}/api/games/{drill.seen[name].game}").text
                logged += check_log(pg.rows(code), GameRecord.from_json(game), name)
        text = report("PostgreSQL", drill, outages, logged)
        (tmp_path / "report.txt").write_text(text)
        check_human(drill.seen["human"])
        for s in drill.seen.values():
            assert all(r <= STALL_S for r in recovery_times(s, outages)), s.name
    finally:
        pg.stop()
        shutil.rmtree(pg.root, ignore_errors=True)


def wait_until(pred: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_drill_switch_is_off_unless_asked(tmp_path: Path) -> None:
    """Without the environment variable no write ever checks a file."""
    code = (
        "import asyncio, os\n"
        "from shengji.server.store.storage import Store\n"
        "s = Store('sqlite+aiosqlite:///" + str(tmp_path / "x.db") + "')\n"
        "print(bool(s.engine.sync_engine.dispatch.before_cursor_execute))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SHENGJI_TEST_WRITE_FAULT_FILE"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert json.loads(out.stdout.strip().lower()) is False, out.stderr
