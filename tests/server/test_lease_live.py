"""One server's room leases (server/lease.py), on SQLite (and PostgreSQL in its pass): a
new room is leased to this process, ``/api/rooms/{code}/owner`` and ``/api/instances`` say
where it runs, the keeper's listeners hear of rooms created, and the lease of a
room the server lost stops it at once with its clients told to reconnect (4409)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from shengji.server.app import create_app
from shengji.server.lease import LeaseKeeper, RoomChange
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room, sql


def test_a_room_is_leased_here_and_listeners_hear_of_it(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), instance_id="solo", public_url="http://solo:1")
    app = create_app(settings)
    with live_server(settings, app) as base:
        keeper: LeaseKeeper = app.state.leases
        heard: list[RoomChange] = []
        keeper.listeners.append(heard.append)
        p = new_player(base, "ann")
        room = new_room(base, p["token"])
        owner = httpx.get(f"{base}/api/rooms/{room['code']}/owner").json()
        assert owner == {"instance": "solo", "address": "http://solo:1", "epoch": 1,
                         "live": True, "here": True}
        assert httpx.get(f"{base}/api/instances").json() == {
            "me": "solo", "instances": [{"id": "solo", "address": "http://solo:1"}]}
        assert httpx.get(f"{base}/api/rooms/nope/owner").status_code == 404
        assert [(c.code, c.running, c.why) for c in heard] == [(room["code"], True, "created")]


def test_a_room_whose_lease_is_taken_stops_and_tells_its_clients(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), instance_id="here", lease_renew_s=0.2,
                             lease_ttl_s=5)
    with live_server(settings) as base:
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
        owner = httpx.get(f"{base}/api/rooms/{room['code']}/owner").json()
        assert owner["instance"] == "other" and owner["here"] is False
        again = Client(base, room["code"], p["token"])  # sent to the owner
        assert again.welcome["code"] == "moved" and "http://other:2" in again.welcome["message"]
