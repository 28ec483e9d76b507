"""Memory per room (tracemalloc): an active table, a waiting room in memory, and the stub
an idle room leaves in the lobby once it is unloaded (server/live/idle_rooms.py).

In one process (a lobby on a fresh SQLite file, bots in threads):

- ``active_table_kib``: rooms of four random bots playing for ``--seconds`` (no pacing):
  what the lobby's rooms hold then, per room (the table, its match, the replay backlog);
- ``waiting_room_kib``: empty rooms nobody joined, still in memory;
- ``idle_stub_kib``: the same rooms after the janitor unloaded them (what stays);
- ``playing_stub_kib``: the stub a playing table would leave (``stub_of`` on the active
  tables: their seats, the room list's entry and the carried clock, hold and chat).

    python bench/room_memory.py --rooms 50 --seconds 10

Prints one JSON line and saves it as ``bench/results/room_memory.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from shengji.server.live.bots_runner import BotRunner
from shengji.server.live.expiry import Janitor
from shengji.server.live.idle_rooms import stub_of
from shengji.server.live.lobby import Lobby
from shengji.server.live.rooms import Room
from shengji.server.settings import Settings
from shengji.server.store.storage import Store

RESULTS = Path(__file__).parent / "results" / "room_memory.json"


def _used() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def measure(data_dir: str, rooms: int, seconds: float) -> dict[str, Any]:
    settings = Settings(
        data_dir=data_dir, deal_pacing_s=0, bot_delay_s=0, deal_end_pause_s=0,
        next_deal_s=0, idle_unload_s=0.2, room_idle_s=3600, log_level="warning",
    )
    store = Store(settings.resolved_database_url())
    await store.start()
    bots = BotRunner(settings.bot_mode, settings.bot_workers, settings.bot_budget_s)
    lobby = Lobby(settings, store, bots)
    loop = asyncio.get_running_loop()
    out: dict[str, Any] = {"rooms": rooms, "seconds": seconds}

    # waiting rooms, in memory and then unloaded (a first round warms caches up)
    for _ in range(2):
        for _ in range(5):
            await lobby.create(None, "classic", None, False, None)
        await asyncio.sleep(0.3)
        await Janitor(lobby, settings).unload(loop.time())
    base = _used()
    waiting = [await lobby.create(None, "classic", None, False, None) for _ in range(rooms)]
    out["waiting_room_kib"] = round((_used() - base) / rooms / 1024, 2)
    del waiting
    await asyncio.sleep(0.3)
    gone = await Janitor(lobby, settings).unload(loop.time())
    assert len(gone) == rooms and not lobby.rooms, "every waiting room unloads"
    del gone
    await asyncio.sleep(0.05)  # the stopped rooms' tasks end
    out["idle_stub_kib"] = round((_used() - base) / rooms / 1024, 2)
    out["rooms_alive_after_unload"] = sum(isinstance(o, Room) for o in gc.get_objects())

    # active tables: four bots each
    base = _used()
    active = []
    for _ in range(rooms):
        room = await lobby.create(None, "classic", None, False, None)
        for seat in range(4):
            room.add_bot(seat, "random")
        active.append(room)
    await asyncio.sleep(seconds)
    out["active_table_kib"] = round((_used() - base) / rooms / 1024, 2)
    out["actions_per_table"] = round(sum(len(r.table.actions) for r in active) / rooms)
    out["seq_per_table"] = round(sum(r.seq for r in active) / rooms)
    base = _used()
    stubs = [stub_of(r, loop.time()) for r in active]
    out["playing_stub_kib"] = round((_used() - base) / rooms / 1024, 2)
    del stubs, active
    await lobby.close()
    bots.close()
    await store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp:
        r = asyncio.run(measure(tmp, args.rooms, args.seconds))
    r["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(json.dumps(r))
    if not args.no_save:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(r, indent=1) + "\n")


if __name__ == "__main__":
    main()
