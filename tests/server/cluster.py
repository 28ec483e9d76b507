"""Several ``shengji serve`` processes on one PostgreSQL database, for the failover tests
(tests/server/test_cluster.py) and bench/cluster_failover.py: instances started, killed,
frozen and thawed as real processes; scripted humans that follow their room from one
instance to another; and the checks of a room's log, records and ledger afterwards."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from shengji.core.cards import parse_cards
from shengji.core.record import GameRecord, replay_steps
from shengji.server.wire.actions import read_logged
from tests import pg

Msg = dict[str, Any]
OPERATOR = "the test cluster's operator token"
"""Every test instance's ``SHENGJI_OPERATOR_TOKEN``: ``owner`` sees instance ids with it."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Instance:
    """One ``shengji serve`` process: its name (instance id), port and log file."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def signal(self, sig: signal.Signals) -> None:
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no lease released."""
        if self.proc.poll() is None:
            self.signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM), or SIGKILL if it takes too long."""
        if self.proc.poll() is not None:
            return
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.kill()

    def text(self) -> str:
        return self.log.read_text(errors="replace")


def start_instance(name: str, url: str, logs: Path, **env: str) -> Instance:
    """Start an instance named ``name`` on a free port of ``url``'s database; returns once
    it answers ``/healthz``."""
    port = free_port()
    environ = dict(os.environ)
    environ.update(
        SHENGJI_INSTANCE_ID=name,
        SHENGJI_PUBLIC_URL=f"http://127.0.0.1:{port}",
        SHENGJI_OPERATOR_TOKEN=OPERATOR,
        SHENGJI_DEAL_PACING_S="0.02",
        SHENGJI_BOT_DELAY_S="0.05",
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_NEXT_DEAL_S="0",
        SHENGJI_TURN_S="0",
        SHENGJI_LONG_TURN_S="0",
        SHENGJI_SEAT_GRACE_S="60",
        SHENGJI_RATE_PER_S="1000",
        SHENGJI_RATE_BURST="1000",
        SHENGJI_BOT_WORKERS="1",
    )
    environ.update(env)
    log = logs / f"{name}.log"
    out = log.open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database-url", url, "--log-level", "warning"],
        env=environ, stdout=out, stderr=subprocess.STDOUT,
    )
    out.close()
    inst = Instance(name, port, proc, log)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{inst.base}/healthz", timeout=1).status_code == 200:
                return inst
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            inst.kill()
            raise RuntimeError(f"instance {name} did not start:\n{inst.text()[-3000:]}")
        time.sleep(0.05)


def _open(url: str, **kw: Any) -> ClientConnection:
    """A WebSocket kept open across calls (closed by its user): entered as websockets
    wants a connection that is not used as a context manager."""
    return connect(url, **kw).__enter__()


def owner(bases: list[str], code: str) -> Msg | None:
    """The room's owner as the first instance that answers tells it (None: none does)."""
    for base in bases:
        try:
            r = httpx.get(f"{base}/api/rooms/{code}/owner", timeout=2,
                          headers={"X-Operator-Token": OPERATOR})
        except httpx.HTTPError:
            continue
        if r.status_code == 200:
            data: Msg = r.json()
            return data
    return None


@dataclass(eq=False)
class Human(threading.Thread):
    """A scripted player in ``seat`` of room ``code``: sits, readies and plays by hints until
    the match ends. When its connection dies or goes quiet, it asks the instances it knows
    who owns the room now and reconnects there with its last seq; each reconnect is kept
    (when, where, the welcome's seat and the snapshot's game) to be checked afterwards."""

    code: str
    token: str
    bases: list[str]
    at: str
    seat: int = 0
    game_id: int | None = None
    error: str | None = None
    reconnects: list[Msg] = field(default_factory=list)
    last_seq: int = 0
    dealt: Counter[str] = field(default_factory=Counter)
    done: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True, name=f"human-{self.code[:6]}")
        self.ws: ClientConnection | None = None

    def _connect(self, base: str, resume: bool) -> Msg:
        self.ws = _open(base.replace("http://", "ws://") + f"/ws/{self.code}",
                        open_timeout=5, max_queue=None)
        hello: Msg = {"t": "hello", "v": 2, "token": self.token}
        if resume:
            hello["last_seq"] = self.last_seq
        self.ws.send(json.dumps(hello))
        while True:
            m = self._recv(10)
            if m["t"] in ("welcome", "error"):
                return m

    def _recv(self, timeout: float) -> Msg:
        assert self.ws is not None
        m: Msg = json.loads(self.ws.recv(timeout=timeout))
        if isinstance(m.get("seq"), int):
            self.last_seq = max(self.last_seq, m["seq"])
        return m

    def _send(self, msg: Msg) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def _follow(self, lost_at: float) -> None:
        """Reconnect to whoever owns the room now (retrying across known instances)."""
        if self.ws is not None:
            self.ws.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            o = owner(self.bases, self.code)
            if o is not None and o["live"] and o["address"]:
                try:
                    welcome = self._connect(o["address"], resume=True)
                except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
                    time.sleep(0.2)
                    continue
                if welcome["t"] == "welcome":
                    snap = self._wait(lambda m: m["t"] == "snapshot")
                    game = snap.get("game")
                    if game and game["to_act"] == self.seat and game["phase"] != "dealing":
                        self._send({"t": "hint", "v": 2})
                    self.at = o["address"]
                    self.reconnects.append({
                        "after_s": time.monotonic() - lost_at, "at": self.at,
                        "instance": o["instance"], "seat": welcome["seat"],
                        "game": snap.get("game"), "dealt": sum(self.dealt.values()),
                        "seen": dict(self.dealt),
                    })
                    return
            time.sleep(0.2)
        raise RuntimeError("the room found no new owner within 60 s")

    def _wait(self, pred: Any) -> Msg:
        while True:
            m = self._recv(10)
            if pred(m):
                return m

    def run(self) -> None:
        try:
            self._play()
        except Exception as e:  # reported by the test
            self.error = f"{type(e).__name__}: {e}"
        finally:
            self.done.set()
            if self.ws is not None:
                self.ws.close()

    def _play(self) -> None:
        welcome = self._connect(self.at, resume=False)
        assert welcome["t"] == "welcome", welcome
        self._send({"t": "sit", "v": 2, "seat": self.seat})
        self._send({"t": "ready", "v": 2})
        quiet = 0.0
        while True:
            try:
                m = self._recv(1.0)
                quiet = 0.0
            except TimeoutError:
                quiet += 1.0
                o = owner(self.bases, self.code) if quiet >= 3 else None
                if o is not None and o["live"] and o["address"] != self.at:
                    self._follow(time.monotonic() - quiet)  # the owner changed: go there
                continue
            except (ConnectionClosed, OSError):
                self._follow(time.monotonic())
                continue
            if m["t"] == "error" and m.get("code") == "moved":
                continue  # the close follows
            if m["t"] == "error" and m.get("code") not in ("not-your-turn", "stale"):
                raise RuntimeError(f"error: {m}")
            if m["t"] == "match_over":
                self.game_id = int(m["game"])
                return
            g = m.get("game") if m["t"] == "snapshot" else None
            if g is not None and g["to_act"] == self.seat and g["phase"] != "dealing":
                self._send({"t": "hint", "v": 2})  # our turn already: no update comes
            if m["t"] == "update":
                for e in m["events"]:
                    if e["type"] == "card_dealt":
                        self.dealt[e["card"]] += 1
                if m["to_act"] == self.seat and m["phase"] != "dealing":
                    self._send({"t": "hint", "v": 2})
            if m["t"] == "hint" and m.get("action"):
                self._send({"t": "act", "v": 2, "action": m["action"]})


# ------------------------------------------------------------------ checks afterwards


def rows(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """Rows of one query on the cluster's database."""

    async def go() -> list[tuple[Any, ...]]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                return [tuple(r) for r in await conn.execute(text(sql), params)]
        finally:
            await engine.dispose()

    return pg.run_async(go())


def log_problems(url: str, room_id: int) -> list[str]:
    """What is wrong with a room's log: positions not 1..N without gaps or repeats, a
    sequence number that skips one or goes back (a private update shares the seq before
    it: +0 or +1 each row), or a row written under an older lease epoch after one of a
    newer (a stale owner's)."""
    got = rows(url, "SELECT pos, seq, epoch FROM room_log WHERE room_id = :r ORDER BY id",
               r=room_id)
    places = [int(r[0]) for r in got]
    seqs = [int(r[1]) for r in got]
    epochs = [r[2] for r in got]
    problems = []
    if None in epochs:
        problems.append(f"room {room_id}: a row written without a lease epoch")
    elif epochs != sorted(epochs):
        problems.append(f"room {room_id}: a row of an older epoch after a newer one")
    if places != list(range(1, len(places) + 1)):
        problems.append(f"room {room_id}: log positions not 1..{len(places)} in order")
    if any(b - a not in (0, 1) for a, b in pairwise(seqs)):
        problems.append(f"room {room_id}: seqs that skip or go back")
    return problems


def record_problems(url: str, base: str, room_id: int, game_id: int) -> list[str]:
    """A finished match's record must replay, and its actions must be exactly the room's
    logged actions of that match (none lost, none doubled), the typed rows read as actions."""
    record = httpx.get(f"{base}/api/games/{game_id}", timeout=10).text
    rec = GameRecord.from_json(record)
    for _ in replay_steps(rec):
        pass
    (match_no,) = rows(url, "SELECT match_no FROM games WHERE id = :g", g=game_id)[0]
    logged = [str(read_logged(str(r[0]))) for r in rows(
        url, "SELECT data FROM room_log WHERE room_id = :r AND match_no = :m AND kind = "
        "'action' ORDER BY pos", r=room_id, m=match_no)]
    if logged and logged != list(rec.actions):
        return [f"room {room_id}: the log's actions differ from the record's"]
    return []


def hand_problems(record_json: str, game: Msg, seat: int) -> list[str]:
    """A reconnected seat's hand must be the hand of some prefix of the match's actions,
    with as many cards dealt and tricks done (the authoritative log replayed)."""
    rec = GameRecord.from_json(record_json)
    want = [0] * 54  # a hand is a count per card kind
    for card in parse_cards(game["hand"]):
        want[card] += 1
    state = rec.start()
    states = [state]
    for _a, state, _e in replay_steps(rec):
        states.append(state)
    for st in states:
        d = st.deal
        if d.deal_no != game["deal_no"] or d.n_dealt != game["cards_dealt"]:
            continue
        if len(d.tricks) == game["tricks_done"] and list(d.hands[seat]) == want:
            return []
    return [f"seat {seat}: the hand after reconnecting is no hand the log ever gave it"]


def ledger_problems(url: str, room_id: int) -> list[str]:
    """A coin room's deals are settled once each, one ledger row per human per deal."""
    settled = rows(url, "SELECT match_no, deal_no, count(*) FROM deal_settlements WHERE "
                        "room_id = :r GROUP BY match_no, deal_no", r=room_id)
    ledger = rows(url, "SELECT match_no, deal_no, seat, count(*) FROM stake_ledger WHERE "
                       "room_id = :r GROUP BY match_no, deal_no, seat", r=room_id)
    problems = [f"room {room_id}: deal {r[:2]} settled {r[2]} times" for r in settled if r[2] != 1]
    problems += [f"room {room_id}: ledger {r[:3]} has {r[3]} rows" for r in ledger if r[3] != 1]
    if not settled:
        problems.append(f"room {room_id}: no deal settled")
    return problems


# ------------------------------------------------------------------ the drills


def _player(base: str, name: str) -> Msg:
    r = httpx.post(f"{base}/api/players", json={"name": name}, timeout=10)
    r.raise_for_status()
    data: Msg = r.json()
    return data


def _room(base: str, token: str, **body: Any) -> Msg:
    r = httpx.post(f"{base}/api/rooms", json=body, timeout=10,
                   headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    data: Msg = r.json()
    return data


def _room_id(url: str, code: str) -> int:
    return int(rows(url, "SELECT id FROM rooms WHERE code = :c", c=code)[0][0])


@dataclass
class Table:
    """One table of a drill: where it was made, its human (if any), whether it plays for
    coins."""

    code: str
    room_id: int
    base: str
    humans: list[Human]
    coins: bool

    @property
    def human(self) -> Human | None:
        """The human in seat 0, if any."""
        return self.humans[0] if self.humans else None


def _tables(url: str, insts: list[Instance], n: int,
            known: list[Instance] | None = None) -> list[Table]:
    """``n`` tables spread over the instances: the first of each instance (and every
    other one after) with a scripted human in seat 0; every fifth a coin room, with a
    second human in seat 1 (a deal is settled only with a human on each side). The humans
    know the instances ``known`` (default: ``insts``)."""
    bases = [i.base for i in insts]
    everyone = [i.base for i in known or insts]
    out: list[Table] = []
    for t in range(n):
        base = bases[t % len(bases)]
        p = _player(base, f"p{t}")
        with_human = t < len(bases) or t % 2 == 0
        coins = t % 5 == 0
        seats = [0, 1] if coins else [0] if with_human else []
        body: Msg = {"max_deals": 1 if seats else 2}
        body["bots"] = {str(s): "random" for s in range(4) if s not in seats}
        if coins:
            body["stakes"] = {"kind": "coins", "coefficient": 100}
        code = _room(base, p["token"], **body)["code"]
        humans = [Human(code, p["token"], everyone, base, 0)] if seats else []
        if coins:
            q = _player(base, f"q{t}")
            humans.append(Human(code, q["token"], everyone, base, 1))
        out.append(Table(code, _room_id(url, code), base, humans, coins))
    for table in out:
        for h in table.humans:
            h.start()
    return out


def _wait(pred: Any, timeout: float, what: str) -> float:
    start = time.monotonic()
    while not pred():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:g} s")
        time.sleep(0.1)
    return time.monotonic() - start


def _finished(url: str, tables: list[Table], timeout: float) -> dict[int, int]:
    """Wait for every table's match to be recorded; ``{room_id: game_id}``."""
    ids = [t.room_id for t in tables]

    def games() -> dict[int, int]:
        got = rows(url, "SELECT room_id, min(id) FROM games GROUP BY room_id")
        return {int(r): int(g) for r, g in got if int(r) in ids}

    _wait(lambda: len(games()) == len(ids), timeout, "every match finished")
    for t in tables:
        for h in t.humans:
            h.done.wait(30)
    return games()


def _problems(url: str, base: str, tables: list[Table], games: dict[int, int]) -> list[str]:
    out: list[str] = []
    for t in tables:
        out += log_problems(url, t.room_id)
        out += record_problems(url, base, t.room_id, games[t.room_id])
        if t.coins:
            out += ledger_problems(url, t.room_id)
        record = httpx.get(f"{base}/api/games/{games[t.room_id]}", timeout=10).text
        for h in t.humans:
            out += _human_problems(t, h, record)
    return out


def _human_problems(t: Table, h: Human, record: str) -> list[str]:
    out: list[str] = []
    if h.error:
        out.append(f"room {t.room_id}: the human failed: {h.error}")
    for r in h.reconnects:
        if r["seat"] != h.seat:
            out.append(f"room {t.room_id}: reconnected in seat {r['seat']}, not {h.seat}")
        if r["game"] is None:
            out.append(f"room {t.room_id}: no game in the snapshot after reconnecting")
            continue
        out += hand_problems(record, r["game"], h.seat)
        hand = Counter(r["game"]["hand"].split())
        if r["game"]["phase"] == "dealing" and Counter(r["seen"]) - hand:
            out.append(f"room {t.room_id}: a card dealt before the kill is missing")
    return out


def _adoptions(survivors: list[Instance], since: float, rooms: set[int]) -> dict[int, float]:
    """Seconds from ``since`` (a wall-clock time) until each room adopted by a survivor
    was replayed and running there, read from the adopters' logs (``adopted rooms ...``)."""
    out: dict[int, float] = {}
    deadline = time.monotonic() + 30
    while True:
        for inst in survivors:
            for line in inst.text().splitlines():
                if "adopted rooms " not in line:
                    continue
                at = datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
                ids = line.split("adopted rooms ", 1)[1].split(" ", 1)[0]
                for rid in ids.split(","):
                    out.setdefault(int(rid), at - since)
        if rooms <= set(out) or time.monotonic() > deadline:
            return out
        time.sleep(0.2)


def failover_drill(url: str, logs: Path, tables: int = 6, instances: int = 3) -> Msg:
    """``instances`` processes, ``tables`` tables; the first instance is killed with
    SIGKILL mid-deal. Returns the figures and every problem found (``problems``)."""
    insts = [start_instance(f"i{k}", url, logs) for k in range(instances)]
    victim, survivors = insts[0], insts[1:]
    try:
        made = _tables(url, insts, tables)
        watched = made[0].human
        assert watched is not None
        _wait(lambda: sum(watched.dealt.values()) >= 20, 60, "cards dealt before the kill")
        on_victim = [t for t in made if t.base == victim.base]
        victim.kill()
        killed, killed_at = time.monotonic(), time.time()
        bases = [s.base for s in survivors]
        adopted: dict[str, float] = {}

        def all_adopted() -> bool:
            for t in on_victim:
                if t.code in adopted:
                    continue
                o = owner(bases, t.code)
                if o is not None and o["live"] and o["instance"] != victim.name:
                    adopted[t.code] = time.monotonic() - killed
            return len(adopted) == len(on_victim)

        _wait(all_adopted, 60, "the killed instance's rooms adopted")
        resumed = _adoptions(survivors, killed_at, {t.room_id for t in on_victim})
        games = _finished(url, made, 300)
        problems = _problems(url, bases[0], made, games)
        humans = [h for t in on_victim for h in t.humans]
        reconnects = [r["after_s"] for h in humans for r in h.reconnects]
        if any(not h.reconnects for h in humans):
            problems.append("a human of the killed instance never reconnected")
        return {
            "tables": tables,
            "instances": instances,
            "rooms_on_killed": len(on_victim),
            "resumed_within_s": max(resumed.get(t.room_id, 99.0) for t in on_victim),
            "resumed_s": {str(k): round(v, 2) for k, v in sorted(resumed.items())},
            "owner_seen_within_s": max(adopted.values()),
            "humans_back_within_s": max(reconnects, default=None),
            "problems": problems,
        }
    finally:
        for i in insts:
            i.stop()


def split_brain_drill(url: str, logs: Path, pause_s: float = 10.0) -> Msg:
    """Two processes; the owner of a playing table is frozen (SIGSTOP) past its lease, the
    other adopts the table, the frozen one is thawed (SIGCONT). Returns figures, what the
    thawed process logged, and every problem found."""
    a = start_instance("a", url, logs)
    b = start_instance("b", url, logs)
    try:
        (table,) = _tables(url, [a], 1, known=[a, b])
        human = table.human
        assert human is not None
        _wait(lambda: sum(human.dealt.values()) >= 20, 60, "cards dealt before the pause")
        watcher = _open(a.base.replace("http://", "ws://") + f"/ws/{table.code}",
                        open_timeout=5, max_queue=None)
        watcher.send(json.dumps({"t": "hello", "v": 2, "token": _player(a.base, "w")["token"]}))
        while json.loads(watcher.recv(timeout=10))["t"] != "welcome":
            pass
        a.signal(signal.SIGSTOP)
        stopped = time.monotonic()
        adopted = _wait(
            lambda: (o := owner([b.base], table.code)) is not None and o["instance"] == "b"
            and o["live"], 60, "b adopting the frozen table")
        _wait(lambda: bool(human.reconnects), 30, "the human reconnecting to b")
        time.sleep(max(0.0, pause_s - (time.monotonic() - stopped)))
        watcher.send(json.dumps({"t": "chat", "v": 2, "text": "still here?"}))  # a write
        a.signal(signal.SIGCONT)
        told: list[str] = []
        try:
            while True:
                m = json.loads(watcher.recv(timeout=30))
                if m["t"] == "error":
                    told.append(m["code"])
        except ConnectionClosed as closed:
            close_code = closed.rcvd.code if closed.rcvd is not None else None
        watcher.close()
        dropped = _wait(
            lambda: httpx.get(f"{a.base}/api/rooms/{table.code}", timeout=5).status_code == 404,
            30, "the thawed instance dropping the table")
        games = _finished(url, [table], 300)
        problems = _problems(url, b.base, [table], games)
        metrics = httpx.get(f"{a.base}/metrics", timeout=5).text
        changes = next(float(line.split()[-1]) for line in metrics.splitlines()
                       if line.startswith("shengji_lease_changes_total"))
        return {
            "adopted_after_stop_s": adopted,
            "thawed_dropped_within_s": dropped,
            "thawed_lease_changes": changes,
            "thawed_log": a.text(),
            "human_at": human.at,
            "watcher_told": told,
            "watcher_close_code": close_code,
            "epochs": sorted({int(r[0]) for r in rows(
                url, "SELECT epoch FROM room_log WHERE room_id = :r", r=table.room_id)}),
            "adopter": b.base,
            "problems": problems,
        }
    finally:
        a.stop()
        b.stop()
