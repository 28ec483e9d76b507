"""PostgreSQL away for 15 s under load, against a real ``shengji serve`` process and a
PostgreSQL server of the test's own (tests/server/test_fault_drill.py ``Postgres``).

Three tables play (the fault drill's), and a stream of HTTP requests goes on throughout:
sign-ups, ``/api/me``, room creation, game lists, the leaderboard. While the database is
away every request that needs it answers 503 with ``Retry-After``, never another 5xx; the
log holds no traceback; once PostgreSQL answers again every table moves within
``RESUME_S``; and nothing is lost (each room's log is its record). The figures are printed
(``pytest -s``) and asserted.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from shengji.core.record import GameRecord
from tests.server.test_fault_drill import (
    Drill,
    Postgres,
    check_human,
    check_log,
    recovery_times,
    serving,
    wait_until,
)

OUTAGE_S = 15.0
TIMEOUT_S = 10.0
"""A request unanswered this long counts as unanswered (status 0)."""
RESUME_S = 3.0
"""Every table moves again within this long after PostgreSQL answers again."""
DEFAULTS = {  # the shipped retry settings, not the fault drill's quick ones
    "SHENGJI_STORAGE_RETRY_FIRST_S": "0.1",
    "SHENGJI_STORAGE_RETRY_MAX_S": "5",
    "SHENGJI_MAX_ROOMS_PER_PLAYER": "1000",
}


@dataclass
class Load:
    """HTTP requests in a loop on a thread: each answer's (when, route, status, retry)."""

    base: str
    answers: list[tuple[float, str, int, str | None]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        token, pid = "", ""
        with httpx.Client(base_url=self.base, timeout=TIMEOUT_S) as c:
            n = 0
            while not self.stop.is_set():
                n += 1
                r = self._ask(c, "signup", "POST", "/api/players", json={"name": f"p{n}"})
                if r is not None and r.status_code == 200:
                    token, pid = r.json()["token"], r.json()["id"]
                if token:
                    auth = {"Authorization": f"Bearer {token}"}
                    self._ask(c, "me", "GET", "/api/me", headers=auth)
                    body = {"max_deals": 1, "private": True}
                    self._ask(c, "room", "POST", "/api/rooms", json=body, headers=auth)
                    self._ask(c, "games", "GET", f"/api/players/{pid}/games", headers=auth)
                    self._ask(c, "stakes", "GET", f"/api/players/{pid}/stakes")
                self._ask(c, "leaderboard", "GET", "/api/leaderboard")
                self._ask(c, "list", "GET", "/api/games")
                time.sleep(0.05)

    def _ask(self, c: httpx.Client, route: str, method: str, url: str,
             **kw: Any) -> httpx.Response | None:
        """One request; its answer noted (status 0: none came within ``TIMEOUT_S``)."""
        try:
            r = c.request(method, url, **kw)
        except httpx.HTTPError:
            self.answers.append((time.monotonic(), route, 0, None))
            return None
        self.answers.append((time.monotonic(), route, r.status_code, r.headers.get("retry-after")))
        return r

    def during(self, start: float, end: float) -> Counter[tuple[str, int]]:
        return Counter((rt, st) for t, rt, st, _ in self.answers if start <= t <= end)


def test_postgres_away_fifteen_seconds_under_load(tmp_path: Path) -> None:
    pg = Postgres.with_database()
    try:
        with serving(tmp_path, {"SHENGJI_DATABASE_URL": pg.url, **DEFAULTS}) as (base, _proc):
            drill = Drill(base)
            drill.start(deals=2)
            load = Load(base)
            worker = threading.Thread(target=load.run, daemon=True)
            worker.start()
            wait_until(lambda: len(drill.seen["human"].updates) > 150, 60)
            start = time.monotonic()
            pg.stop()
            time.sleep(OUTAGE_S)
            pg.start()
            back = time.monotonic()
            wait_until(lambda: httpx.get(f"{base}/healthz").status_code == 200, 30)
            green = time.monotonic() - back
            time.sleep(3.0)
            load.stop.set()
            worker.join(30)
            drill.wait(240)
            logged = 0
            for name, code in drill.rooms.items():
                game = httpx.get(f"{base}/api/games/{drill.seen[name].game}").text
                logged += check_log(pg.rows(code), GameRecord.from_json(game), name)
        server_log = (tmp_path / "server.log").read_text()
        shutil.copy(tmp_path / "server.log", tmp_path.parent / "outage-server.log")
        outages = [(start, back)]
        resume = [r for s in drill.seen.values() for r in recovery_times(s, outages)]
        answered = load.during(start, back)
        bad = [(rt, st) for _, rt, st, _ in load.answers if st in (0, 500, 502, 504)]
        no_retry = [rt for _, rt, st, ra in load.answers if st == 503 and not ra]
        print(
            f"\nPostgreSQL away {back - start:.1f} s under load: /healthz green "
            f"{green:.1f} s after; tables moved again within max {max(resume):.2f} s "
            f"({', '.join(f'{r:.2f}' for r in resume)}); "
            f"{len(load.answers)} requests, 503s {sum(a[2] == 503 for a in load.answers)}, "
            f"other 5xx {len(bad)}, tracebacks {server_log.count('Traceback')}, "
            f"actions logged {logged}, lost 0\n  during the outage: {dict(answered)}"
        )
        assert not bad, Counter(bad)
        assert not no_retry, Counter(no_retry)
        at = server_log.find("Traceback")
        assert at < 0, server_log[max(0, at - 500):][:3000]
        assert any(st == 503 for _, st in answered), "no request met the outage"
        check_human(drill.seen["human"])
        assert len(resume) == len(drill.seen), resume
        assert max(resume) <= RESUME_S, resume
    finally:
        pg.stop()
        shutil.rmtree(pg.root, ignore_errors=True)
