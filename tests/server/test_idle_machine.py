"""The unload/reload lifecycle of idle rooms (server/live/idle_rooms.py) as a hypothesis state
machine over a real lobby, store (SQLite) and rooms: players connect, sit, chat and leave,
time passes and the janitor unloads what is idle, in any order. After every step:

- every room is either in memory or unloaded, never both, never lost;
- a room someone is connected to is in memory;
- the room list and ``GET /api/rooms/{code}``'s answer show every room as its players
  last saw it (seats), loaded or not;
- whoever connects (reloading an unloaded room) gets a snapshot with the same sequence
  number, seats and chat lines as before it was unloaded.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.conn import Conn
from shengji.server.live.expiry import Janitor
from shengji.server.live.lobby import Lobby
from shengji.server.live.rooms import Room
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.store.storage import Store
from shengji.server.wire import messages as wire

IDLE_S = 0.05
PLAYERS = ("ann", "bob")
T = TypeVar("T")


def _frames(conn: Conn) -> list[dict[str, Any]]:
    """Everything queued for ``conn`` so far, decoded (a frame may hold several messages)."""
    out: list[dict[str, Any]] = []
    while (raw := conn.next_frame()) is not None:
        msg = json.loads(raw)
        out += msg if isinstance(msg, list) else [msg]
    return out


class IdleMachine(RuleBasedStateMachine):
    """Rooms of one lobby; ``model[code]``: what its players last saw."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp()
        self.loop = asyncio.new_event_loop()
        self.settings = Settings(
            data_dir=self.dir, idle_unload_s=IDLE_S, seat_grace_s=3600, waiting_grace_s=3600,
            room_idle_s=3600, room_abandoned_s=3600, presence_interval_s=0, log_level="warning",
        )
        self.store = Store(self.settings.resolved_database_url())
        self.bots = BotRunner("thread", 1, 1.0)
        self.lobby = Lobby(self.settings, self.store, self.bots)
        self.janitor = Janitor(self.lobby, self.settings)
        self.run(self.store.start())
        self.codes: list[str] = []
        self.conns: dict[str, list[Conn]] = {}
        self.seen: dict[str, dict[str, Any]] = {}
        """Per room: the ``seq``, seats and chat of the last snapshot or message seen."""
        self.chats = 0

    def teardown(self) -> None:
        self.run(self.lobby.close())
        self.run(self.store.close())
        self.bots.close()
        self.loop.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def settle(self, done: Callable[[], bool] = lambda: False, at_most: float = 5.0) -> None:
        """Let the rooms work until ``done()`` (or a little while)."""

        async def go() -> None:
            deadline = time.monotonic() + at_most
            await asyncio.sleep(0.01)
            while not done() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)

        self.run(go())

    def room(self, code: str) -> Room:
        room = self.run(self.lobby.load(code))
        assert room is not None, "a live room is never lost"
        return room

    # ------------------------------------------------------------------ rules

    @initialize(private=st.booleans())
    def first_room(self, private: bool) -> None:
        self.create(private)

    @precondition(lambda self: len(self.codes) < 3)
    @rule(private=st.booleans())
    def create(self, private: bool) -> None:
        room = self.run(self.lobby.create("ann", "classic", None, private, None))
        self.codes.append(room.code)
        self.conns[room.code] = []
        self.seen[room.code] = {"seq": room.seq, "seats": self._seats(room), "chat": []}

    @precondition(lambda self: self.codes)
    @rule(data=st.data(), who=st.sampled_from(PLAYERS))
    def connect(self, data: st.DataObject, who: str) -> None:
        code = data.draw(st.sampled_from(self.codes))
        was_unloaded = code in self.lobby.idle
        room = self.room(code)
        conn = Conn(Player(who, who))
        self.run(room.join(conn, None))
        got: list[dict[str, Any]] = []
        def snapped() -> bool:
            got.extend(_frames(conn))
            return any(m["t"] == "snapshot" for m in got)

        self.settle(snapped)
        snap = next(m for m in got if m["t"] == "snapshot")
        seen = self.seen[code]
        assert snap["seq"] == seen["seq"], (was_unloaded, snap["seq"], seen["seq"])
        assert [(s["kind"], s["name"]) for s in snap["room"]["seats"]] == seen["seats"]
        assert [c["text"] for c in snap["chat"]] == seen["chat"]
        self.conns[code].append(conn)
        event("connected to an unloaded room" if was_unloaded else "connected")

    @precondition(lambda self: any(self.conns.values()))
    @rule(data=st.data(), seat=st.integers(0, 3))
    def sit(self, data: st.DataObject, seat: int) -> None:
        code, conn = self._someone(data)
        room = self.room(code)
        room.submit(conn, wire.Sit(seat=seat))
        self.settle(lambda: room.table.outbox.idle)
        self._saw(code, room)

    @precondition(lambda self: any(self.conns.values()))
    @rule(data=st.data())
    def chat(self, data: st.DataObject) -> None:
        code, conn = self._someone(data)
        room = self.room(code)
        self.chats += 1
        room.submit(conn, wire.Chat(text=f"line {self.chats}"))
        self.settle(lambda: room.table.outbox.idle and room.seq > self.seen[code]["seq"])
        self._saw(code, room)

    @precondition(lambda self: any(self.conns.values()))
    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        code, conn = self._someone(data)
        self.conns[code].remove(conn)
        room = self.lobby.rooms[code]
        room.gone(conn)
        conn.close()
        self.settle(lambda: room.inbox.empty())
        self._saw(code, room)

    @rule()
    def time_passes(self) -> None:
        self.settle(at_most=IDLE_S * 2)
        gone = self.run(self.janitor.unload(self.loop.time()))
        event(f"{len(gone)} rooms unloaded")

    # ------------------------------------------------------------------ checks

    @invariant()
    def every_room_is_somewhere_once(self) -> None:
        for code in self.codes:
            assert (code in self.lobby.rooms) != (code in self.lobby.idle), code
            if self.conns.get(code):
                assert code in self.lobby.rooms, "a room someone is in stays in memory"

    @invariant()
    def the_lists_show_every_room_as_it_is(self) -> None:
        async def read() -> tuple[list[Any], list[Any]]:  # a room's info reads the loop's clock
            return self.lobby.listing(), [self.lobby.info(c) for c in self.codes]

        listing, infos = self.run(read())
        listed = {r["code"]: r for r in listing}
        for code, info in zip(self.codes, infos, strict=True):
            assert info is not None
            assert [(s["kind"], s["name"]) for s in info["seats"]] == self.seen[code]["seats"]
            assert (code in listed) == (not info["private"])

    # ------------------------------------------------------------------ helpers

    def _someone(self, data: st.DataObject) -> tuple[str, Conn]:
        code = data.draw(st.sampled_from([c for c in self.codes if self.conns[c]]))
        return code, data.draw(st.sampled_from(self.conns[code]))

    @staticmethod
    def _seats(room: Room) -> list[tuple[str, str | None]]:
        return [(s.kind, s.name) for s in room.seats]

    def _saw(self, code: str, room: Room) -> None:
        self.seen[code] = {
            "seq": room.seq,
            "seats": self._seats(room),
            "chat": [c.text for c in room.table.chat],
        }


IdleMachine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_idle_lifecycle = IdleMachine.TestCase
