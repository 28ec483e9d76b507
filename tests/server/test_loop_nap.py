"""Coalesced wake-ups (``server/loop_nap.py``, the setting ``loop_nap_ms``): the loop naps
before a wait that would block, never when work waits and never past a timer, loses no
I/O, and a whole server runs on it."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

from shengji.server.loop_nap import NappingSelector, loop_factory
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


def test_no_nap_when_work_waits_and_never_past_the_timeout() -> None:
    sel = NappingSelector(5.0)
    try:
        started = time.monotonic()
        assert sel.select(0) == []  # the loop has callbacks ready: poll only
        assert sel.select(0.02) == []  # a timer is due in 20 ms: the nap is cut to it
        assert time.monotonic() - started < 2.5  # neither napped the full five seconds
    finally:
        sel.close()


def test_what_arrived_during_the_nap_is_returned_together() -> None:
    a, b = socket.socketpair()
    c, d = socket.socketpair()
    sel = NappingSelector(0.05)
    try:
        sel.register(b, 1)  # EVENT_READ
        sel.register(d, 1)
        a.send(b"play 7H")
        c.send(b"play 8H")
        ready = sel.select(None)  # would block: naps, then both are there at once
        assert {key.fileobj for key, _ in ready} == {b, d}
    finally:
        sel.close()
        for s in (a, b, c, d):
            s.close()


def test_the_factory_is_asyncio_s_own_loop_at_zero() -> None:
    assert loop_factory(0) is None
    factory = loop_factory(2)
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop._selector, NappingSelector)  # type: ignore[attr-defined]
        assert loop.run_until_complete(asyncio.sleep(0.01, "woke")) == "woke"
    finally:
        loop.close()


def test_a_server_on_the_napping_loop_answers_in_order(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path)).model_copy(update={"loop_nap_ms": 5.0})
    with live_server(settings) as base:
        p = new_player(base, "ann")
        c = Client(base, new_room(base, p["token"])["code"], p["token"])
        try:
            for _ in range(20):
                c.send({"t": "ping", "v": 2})
            pongs = [c.wait(lambda m: m["t"] == "pong") for _ in range(20)]
            assert [m["seq"] for m in pongs] == sorted(m["seq"] for m in pongs)
        finally:
            c.close()
