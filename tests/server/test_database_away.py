"""While the database is unreachable every route that needs it answers 503 with
``Retry-After`` (never a 500, never a traceback in the log), a socket's sign-in is told
``storage``; once it is back they all answer again. PostgreSQL is cut off through a
loopback proxy (tests/server/cut_proxy.py); SQLite's every statement fails as a file
that cannot be opened does."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url

from shengji.server.http.app import create_app
from tests.server.cut_proxy import CutProxy
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room
from tests.server.test_strict_input import tracebacks


@contextmanager
def away_switch(tmp_path: Path) -> Iterator[tuple[str, Callable[[bool], None]]]:
    """A live server and ``away(on)``, which makes its database unreachable or not."""
    settings = fast_settings(str(tmp_path))
    url = settings.database_url
    proxy: CutProxy | None = None
    if url is not None:  # PostgreSQL: through a proxy we can cut
        parsed = make_url(url)
        proxy = CutProxy((parsed.host or "127.0.0.1", parsed.port or 5432))
        proxied = parsed.set(host="127.0.0.1", port=proxy.port)
        settings = fast_settings(str(tmp_path),
                                 database_url=proxied.render_as_string(hide_password=False))
    app = create_app(settings)
    state = {"away": False}

    def check(_statement: str) -> None:
        if state["away"]:
            raise sqlite3.OperationalError("unable to open database file")

    def away(on: bool) -> None:
        state["away"] = on
        if proxy is not None:
            proxy.cut() if on else proxy.restore()

    with live_server(settings, app) as base:
        if proxy is None:
            app.state.store.add_write_check(check)
        try:
            yield base, away
        finally:
            if proxy is not None:
                proxy.cut()


def test_every_route_that_needs_the_database_answers_503_while_it_is_away(
    tmp_path: Path,
) -> None:
    with away_switch(tmp_path) as (base, away):
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"])
        auth = {"Authorization": f"Bearer {ann['token']}"}
        needs_database = [
            ("POST", "/api/players", {"name": "bob"}, {}),
            ("GET", "/api/me", None, auth),
            ("POST", "/api/rooms", {}, auth),
            ("GET", f"/api/players/{ann['id']}/games", None, auth),
            ("GET", f"/api/players/{ann['id']}/stakes", None, {}),
            ("GET", "/api/leaderboard", None, {}),
            ("GET", "/api/games", None, {}),
            ("GET", "/api/games/1", None, {}),
            ("GET", "/api/games/1/replay", None, {}),
            ("GET", f"/api/rooms/{room['code']}/replay", None, auth),
            ("GET", "/readyz", None, {}),
        ]
        with tracebacks() as seen, httpx.Client(base_url=base, timeout=20) as c:
            away(True)
            answers = {path: c.request(m, path, json=body, headers=h)
                       for m, path, body, h in needs_database}
            for path, r in answers.items():
                assert r.status_code == 503, (path, r.status_code, r.text)
                assert int(r.headers["retry-after"]) > 0, path
            owner = c.get(f"/api/rooms/{room['code']}/owner")  # SQLite: no lease to read
            assert owner.status_code in (200, 503), owner.text
            ws = Client(base, room["code"], ann["token"])
            assert ws.welcome["t"] == "error" and ws.welcome["code"] == "storage", ws.welcome
            ws.close()
            away(False)
            deadline = time.monotonic() + 10
            while c.get("/api/me", headers=auth).status_code != 200:
                assert time.monotonic() < deadline, "the database did not come back"
                time.sleep(0.1)
            for m, path, body, h in needs_database:
                r = c.request(m, path, json=body, headers=h)
                assert r.status_code < 500, (path, r.status_code, r.text)
        assert seen == [], seen
