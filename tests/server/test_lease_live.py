"""One server's room leases (server/store/lease_keeper.py) and a handover between two
in-process servers.

- A new room runs here: ``/api/rooms/{code}/owner`` and ``/api/instances`` say so, the
  lobby's watchers hear of it. On SQLite (one process per data dir) no lease is kept: the
  owner is this process, epoch 0, and no lease row is written.
- PostgreSQL only (its pass: ``SHENGJI_TEST_DATABASE_URL``): a room whose lease another
  process takes stops at once, its clients told ``moved`` (close 4409), and a new socket
  is pointed to the owner; a server that stops hands its rooms to the other, which
  adopts them at its next scan and the player comes back to their seat there.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from shengji.server.http.app import create_app
from shengji.server.live.rooms import Room
from tests import pg
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room, sql

OPERATOR = "an operator token for tests"
OP = {"X-Operator-Token": OPERATOR}


class Heard:
    """A lobby watcher that keeps what it heard (what the Redis router is told)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    async def room_started(self, room: Room) -> None:
        self.events.append(("started", room.code))

    def room_stopped(self, code: str) -> None:
        self.events.append(("stopped", code))


def _postgres_only() -> None:
    if pg.configured_url() is None:
        pytest.skip(f"leases are kept on PostgreSQL: this runs in its pass ({pg.ENV} set)")


def test_a_room_runs_here_and_the_watchers_hear_of_it(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), instance_id="solo", public_url="http://solo:1",
                             operator_token=OPERATOR)
    postgres = not settings.resolved_database_url().startswith("sqlite")
    app = create_app(settings)
    with live_server(settings, app) as base:
        heard = Heard()
        app.state.lobby.watchers.append(heard)
        p = new_player(base, "ann")
        room = new_room(base, p["token"])
        owner = httpx.get(f"{base}/api/rooms/{room['code']}/owner", headers=OP).json()
        assert owner == {"instance": "solo", "address": "http://solo:1",
                         "epoch": 1 if postgres else 0, "live": True, "here": True}
        assert httpx.get(f"{base}/api/instances", headers=OP).json() == {
            "me": "solo", "instances": [{"id": "solo", "address": "http://solo:1"}]}
        assert httpx.get(f"{base}/api/rooms/nope/owner").status_code == 404
        # strangers: the public address only, no instance id, no epoch
        stranger = httpx.get(f"{base}/api/rooms/{room['code']}/owner").json()
        assert stranger == {"address": "http://solo:1", "live": True, "here": True}
        wrong = {"X-Operator-Token": "not the operator token"}
        assert httpx.get(f"{base}/api/instances", headers=wrong).json() == {
            "instances": [{"address": "http://solo:1"}]}
        assert heard.events == [("started", room["code"])]
        leases = sql(tmp_path, "SELECT owner, epoch FROM room_lease")
        assert leases == ([("solo", 1)] if postgres else [])  # SQLite: alone, no leases


@pytest.mark.usefixtures("ws_layer")
def test_a_room_whose_lease_is_taken_stops_and_tells_its_clients(tmp_path: Path) -> None:
    _postgres_only()
    settings = fast_settings(str(tmp_path), instance_id="here", operator_token=OPERATOR,
                             lease_renew_s=0.2,
                             lease_ttl_s=5)
    app = create_app(settings)
    with live_server(settings, app) as base:
        heard = Heard()
        app.state.lobby.watchers.append(heard)
        p = new_player(base, "ann")
        room = new_room(base, p["token"])
        c = Client(base, room["code"], p["token"])
        c.send({"t": "sit", "v": 2, "seat": 0})
        # another process claims the room (what an adopter's UPDATE does)
        sql(tmp_path, "UPDATE room_lease SET owner = 'other', epoch = epoch + 1, "
                      "address = 'http://other:2'")
        moved = c.wait(lambda m: m["t"] == "error")
        assert moved["code"] == "moved"
        with pytest.raises(ConnectionClosed) as closed:
            c.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4409
        assert httpx.get(f"{base}/api/rooms/{room['code']}").status_code == 404
        owner = httpx.get(f"{base}/api/rooms/{room['code']}/owner", headers=OP).json()
        assert owner["instance"] == "other" and owner["here"] is False
        again = Client(base, room["code"], p["token"])  # no router: sent to the owner
        assert again.welcome["code"] == "moved" and "http://other:2" in again.welcome["message"]
        assert heard.events == [("started", room["code"]), ("stopped", room["code"])]


def test_a_stopped_server_s_room_is_adopted_by_the_other(tmp_path: Path) -> None:
    """Two servers on one database: ``a`` runs a room with a seated player and stops (its
    leases released); ``b`` adopts the room at its next scan, replayed from the log, and
    the player reconnects to ``b`` into their seat."""
    _postgres_only()
    url = fast_settings(str(tmp_path)).resolved_database_url()
    fast = {"lease_ttl_s": 3.0, "lease_renew_s": 0.5, "lease_scan_s": 0.2, "database_url": url}
    sa = fast_settings(str(tmp_path / "a"), instance_id="a", operator_token=OPERATOR, **fast)
    sb = fast_settings(str(tmp_path / "b"), instance_id="b", operator_token=OPERATOR, **fast)
    app_b = create_app(sb)
    with live_server(sb, app_b) as b:
        heard = Heard()
        app_b.state.lobby.watchers.append(heard)
        with live_server(sa) as a:
            p = new_player(a, "ann")
            room = new_room(a, p["token"], bots={"1": "random", "2": "random", "3": "random"})
            c = Client(a, room["code"], p["token"])
            c.send({"t": "sit", "v": 2, "seat": 0})
            c.send({"t": "ready", "v": 2})
            c.wait(lambda m: m["t"] == "update")  # the match runs: seated, logged
            seen = c.last_seq
        deadline = time.monotonic() + 30
        while httpx.get(f"{b}/api/rooms/{room['code']}").status_code != 200:
            assert time.monotonic() < deadline, "b did not adopt the room"
            time.sleep(0.1)
        owner = httpx.get(f"{b}/api/rooms/{room['code']}/owner", headers=OP).json()
        assert (owner["instance"], owner["epoch"], owner["here"]) == ("b", 2, True)
        assert heard.events == [("started", room["code"])]
        back = Client(b, room["code"], p["token"], last_seq=seen)
        assert back.welcome["t"] == "welcome" and back.welcome["seat"] == 0
        back.close()


def test_without_a_public_url_strangers_see_no_address(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), instance_id="db-7.internal", host="0.0.0.0",
                             operator_token=OPERATOR)
    with live_server(settings) as base:
        p = new_player(base, "ann")
        room = new_room(base, p["token"])
        stranger = httpx.get(f"{base}/api/rooms/{room['code']}/owner")
        assert stranger.json() == {"address": None, "live": True, "here": True}
        assert "internal" not in stranger.text
        listed = httpx.get(f"{base}/api/instances")
        assert listed.status_code == 403 and "internal" not in listed.text
        operator = httpx.get(f"{base}/api/instances", headers=OP).json()
        assert operator["me"] == "db-7.internal" and operator["instances"][0]["address"]
