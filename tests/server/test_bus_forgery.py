"""An outsider on the routing Redis (server/cluster/bus.py and bus_auth.py), against a real
``redis-server`` with a password and two real ``shengji serve`` processes: a message it
publishes, with or without a guessed connection id, sealed with no secret or a wrong one,
is dropped and counted (``shengji_bus_forged_total``) and changes nothing at the table; the
channel names do not show the room's code; and a client without Redis's password can
neither publish nor subscribe."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from shengji.server.cluster import route_wire as rw
from shengji.server.cluster.bus_auth import BusKey
from tests.server.helpers import Client, new_player, new_room
from tests.server.route_cluster import cluster


def _forged(base: str) -> float:
    text = httpx.get(f"{base}/metrics", timeout=5).text
    found = re.search(r"^shengji_bus_forged_total (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


async def _publish_forgeries(url: str, prefix: str, token: str) -> tuple[list[str], int]:
    """Publish, as an outsider holding Redis's password but not the group's secret, to
    every channel of the group: a hello under a fresh id, frames and fake server messages
    under guessed ids (1, as small counters used to be, and all zeros), unsealed and sealed
    with a wrong secret. Returns the channels seen and how many messages reached a
    listener."""
    r = aioredis.from_url(url)
    try:
        channels = sorted(c.decode() for c in await r.pubsub_channels(f"{prefix}*"))
        wrong = BusKey("not the group's secret, a guess")
        hello = b'{"t":"hello","v":2,"token":"%s"}' % token.encode()
        sit = b'{"t":"sit","v":2,"seat":3}'
        heard = 0
        for channel in channels:
            for key in (rw.new_key(), (1).to_bytes(16, "big"), bytes(16)):
                batches: list[list[rw.BusMsg]] = [
                    [rw.Open(key, "b", hello), rw.Frame(key, "b", sit)],
                    [rw.Frame(key, "b", sit), rw.Left(key, "b")],
                    [rw.Out(key, b'{"t":"error","code":"fake","message":"forged"}'),
                     rw.Shut(key, 1000)],
                ]
                for batch in batches:
                    payload = rw.encode(batch)
                    for data in (payload, wrong.seal(channel, payload), b"\0" * 40):
                        heard += int(await r.publish(channel, data))
        return channels, heard
    finally:
        await r.aclose()


def _outsider_without_password(port: int, channel: str) -> list[bytes]:
    """What Redis answers a client that did not authenticate when it publishes to
    ``channel``, subscribes to it and lists the channels (raw RESP, no client library)."""
    said: list[bytes] = []
    for command in (f"PUBLISH {channel} forged", f"SUBSCRIBE {channel}", "PUBSUB CHANNELS *"):
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(command.encode() + b"\r\n")
            said.append(s.recv(4096))
    return said


def _table(base: str, code: str) -> Any:
    room = httpx.get(f"{base}/api/rooms/{code}", timeout=5).json()
    return [(s["player"], s.get("ready")) for s in room["seats"]], room["status"]


def test_an_outsider_on_redis_can_neither_act_nor_listen(tmp_path: Path) -> None:
    with cluster(tmp_path, ["a", "b"]) as group:
        a, b = group.instances
        if not group.redis.private:
            pytest.skip("needs a Redis of its own with a password (redis-server not installed)")
        ann, bob, eve = (new_player(a.base, n) for n in ("ann", "bob", "eve"))
        room = new_room(a.base, ann["token"], private=True, bots={"2": "random"})
        code = room["code"]
        bob_b = Client(b.base, code, bob["token"])  # routed: b publishes to a's room channel
        assert bob_b.welcome["t"] == "welcome", bob_b.welcome
        bob_b.send({"t": "sit", "v": 2, "seat": 1})
        bob_b.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["player"] is not None)
        before = _table(a.base, code)
        forged_before = _forged(a.base) + _forged(b.base)

        channels, heard = asyncio.run(
            _publish_forgeries(group.redis.url, group.prefix, eve["token"]))
        assert any(":room:" in c for c in channels) and any(":edge:" in c for c in channels)
        assert not any(code in c for c in channels), channels  # no room code shows
        assert heard > 0, "nobody listened: the forgeries were not put to the test"

        deadline = time.monotonic() + 10
        while _forged(a.base) + _forged(b.base) - forged_before < heard:
            assert time.monotonic() < deadline, (heard, _forged(a.base), _forged(b.base))
            time.sleep(0.1)
        assert _forged(a.base) + _forged(b.base) - forged_before == heard
        # the table is as it was: eve took no seat, bob's socket got nothing forged
        bob_b.send({"t": "ping", "v": 2})
        bob_b.wait(lambda m: m["t"] == "pong")
        assert _table(a.base, code) == before
        assert not any(m.get("code") == "fake" for m in bob_b.messages)
        assert bob_b.ws.close_code is None
        bob_b.close()

        said = _outsider_without_password(group.redis.port, channels[0])
        assert all(line.startswith(b"-NOAUTH") for line in said), said
        for inst in (a, b):
            log = group.log(inst.name)
            assert "Traceback" not in log, log[-3000:]
        assert "not sealed with this group's secret" in group.log("a") + group.log("b")
