"""The live table on a real server (issue 13, item 5): room options over HTTP, the away mark
within 2 s of a disconnect and gone on reconnect, the turn clock and 托管 on the wire."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


def test_room_options_are_set_at_creation_and_checked(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), turn_s=30.0, next_deal_s=30.0)) as base:
        ann = new_player(base, "ann")
        auth = {"Authorization": f"Bearer {ann['token']}"}
        public = new_room(base, ann["token"])
        assert public["options"] == {
            "turn_s": 30.0, "long_turn_s": 0.0, "next_deal_s": 30.0, "bot_pace": 1.0
        }
        private = new_room(base, ann["token"], private=True)
        assert private["options"]["turn_s"] == 0.0  # friends wait for each other
        chosen = new_room(base, ann["token"], table={"turn_s": 15, "long_turn_s": 40})
        assert chosen["options"] == {
            "turn_s": 15.0, "long_turn_s": 40.0, "next_deal_s": 30.0, "bot_pace": 1.0
        }
        bad = httpx.post(f"{base}/api/rooms", json={"table": {"turn_s": 1}}, headers=auth)
        assert bad.status_code == 400 and bad.json()["field"] == "table.turn_s"
        assert "5..600" in bad.json()["detail"]


def test_a_disconnected_player_is_shown_away_and_back(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), presence_interval_s=0.2)
    with live_server(settings) as base:
        ann, bob = new_player(base, "ann"), new_player(base, "bob")
        room = new_room(base, ann["token"])
        a = Client(base, room["code"], ann["token"])
        a.send({"t": "sit", "v": 2, "seat": 0})
        a.wait(lambda m: m["t"] == "room" and m["room"]["seats"][0]["kind"] == "human")
        b = Client(base, room["code"], bob["token"])
        b.wait(lambda m: m["t"] == "presence" and len(m["players"]) == 2)
        a.close()
        gone = time.monotonic()
        away = b.wait(lambda m: m["t"] == "presence" and m["away"] == [0], timeout=10)
        assert time.monotonic() - gone < 5.0  # at once (2 s and less; a busy machine: later)
        assert [p["player"] for p in away["players"]] == [bob["id"]]
        a2 = Client(base, room["code"], ann["token"])
        assert a2.welcome["seat"] == 0
        b.wait(lambda m: m["t"] == "presence" and m["away"] == [], timeout=5)
        snap = a2.wait(lambda m: m["t"] == "snapshot")
        assert snap["room"]["seats"][0]["away"] is False
        for c in (a2, b):
            c.close()


def test_the_clock_runs_out_and_the_seat_goes_on_auto_play(tmp_path: Path) -> None:
    """Silence in the declare window is a pass; a turn to bury or play that runs out is
    托管."""
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.0)) as base:
        ann = new_player(base, "ann")
        bots = {"1": "random", "2": "random", "3": "random"}
        room = new_room(base, ann["token"], bots=bots, table={"turn_s": 5, "long_turn_s": 5})
        a = Client(base, room["code"], ann["token"])
        a.send({"t": "sit", "v": 2, "seat": 0})
        a.send({"t": "ready", "v": 2})
        clock = a.wait(lambda m: m["t"] == "clock" and m["clock"] and m["clock"]["seat"] == 0)
        assert clock["clock"]["total_ms"] == 5000 and 0 < clock["clock"]["ms_left"] <= 5000
        started = time.monotonic()
        seen: list[dict[str, Any]] = []

        def auto_on(m: dict[str, Any]) -> bool:
            seen.append(m)
            if m["t"] == "clock" and m["clock"] and m["clock"]["seat"] == 0:
                nonlocal started
                started = time.monotonic()  # the clock of the turn that runs out
            return m["t"] == "room" and bool(m["room"]["seats"][0]["auto"])

        marked = a.wait(auto_on, timeout=40)
        assert time.monotonic() - started > 4.0  # not before the clock ran out
        passed = [
            i for i, m in enumerate(seen) if m["t"] == "update"
            and any(e["type"] == "passed" and e.get("seat") == 0 for e in m["events"])
        ]
        assert passed, "the declare window's silence was not a pass"
        assert marked["room"]["seats"][0]["substitute"] is True
        a.wait(lambda m: m["t"] == "update" and any(e.get("seat") == 0 for e in m["events"]))
        a.send({"t": "auto", "v": 2, "on": False})  # take back
        back = a.wait(lambda m: m["t"] == "room" and not m["room"]["seats"][0]["auto"])
        assert back["room"]["seats"][0]["substitute"] is False
        a.close()
