"""The send path alone: CPU per game action for one room fanning out to 4 seats + 1 spectator.

A ``Room`` (server/live/rooms.py) with four seated players and one spectator plays whole deals
driven by a seeded random choice of legal actions. Writes are answered at once in memory
(no database), each connection's real socket writer (server/live/sockets.py ``write_socket``) drains
its queue into a stand-in WebSocket that frames every message with the ``websockets``
library as uvicorn's sans-I/O protocol does, with or without permessage-deflate. What is
timed (process CPU) is everything the server does per action: the table's ``handle``, the
shell's effects, rendering and encoding each seat's message, queueing, the writers, framing
(and compressing); the scripted client's choice of its next action is not. The figure
printed is microseconds per logged game action (every card dealt and every play counts
once) and per play.

    PYTHONPATH=src python bench/send_path.py                      # this checkout
    PYTHONPATH=/work/wt-before/src python bench/send_path.py --label before

It runs against the code found on ``PYTHONPATH`` (older checkouts too), prints one line per
configuration and saves JSON under ``bench/results/`` (``--out``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.protocol import State
from websockets.server import ServerProtocol

from shengji.core.ruleset import PRESETS
from shengji.server.live import sockets
from shengji.server.live.conn import Conn
from shengji.server.live.rooms import Room
from shengji.server.settings import Settings
from shengji.server.store.players import Player
from shengji.server.table.client_actions import action_text
from shengji.server.table.commands import ClientSaid, GameSaved, Opened, Written
from shengji.server.table.effects import SaveGame, SettleDeals, Write
from shengji.server.wire import messages as wire

SEATS = 4
LOGGED = 0
"""Game actions logged so far (every card dealt, every play), counted from the writes."""
SEAT0_FRAMES: list[bytes] = []
"""The frames seat 0 got in the last run (for ``deflate_by_size``)."""

SIZE_BUCKETS = (256, 1024, 4096, 16384, 1 << 30)


class FakeWebSocket:
    """What the writer needs of Starlette's ``WebSocket``: frames go through a sans-I/O
    ``websockets`` protocol (deflate as uvicorn negotiates it, or none) into a byte count."""

    def __init__(self, deflate: bool) -> None:
        from starlette.websockets import WebSocketState

        self.application_state = WebSocketState.CONNECTED
        self.proto = ServerProtocol()
        self.proto.state = State.OPEN
        if deflate:  # uvicorn's settings: 12-bit windows, memLevel 5, context takeover
            self.proto.extensions = [PerMessageDeflate(False, False, 12, 12, {"memLevel": 5})]
        self.frames = 0
        self.wire_bytes = 0
        self.payload_bytes = 0
        self.payloads: list[bytes] = []

    def _out(self) -> None:
        out = b"".join(self.proto.data_to_send())
        self.frames += 1
        self.wire_bytes += len(out)

    async def send_text(self, data: str) -> None:
        raw = data.encode()
        self.payloads.append(raw)
        self.payload_bytes += len(raw)
        self.proto.send_text(raw)
        self._out()

    async def send_bytes(self, data: bytes) -> None:
        self.payload_bytes += len(data)
        self.proto.send_binary(data)
        self._out()

    async def send(self, message: dict[str, Any]) -> None:
        if message.get("text") is not None:
            await self.send_text(message["text"])
        elif message.get("bytes") is not None:
            await self.send_bytes(message["bytes"])

    async def close(self, code: int = 1000) -> None:
        from starlette.websockets import WebSocketState

        self.application_state = WebSocketState.DISCONNECTED


class FakeJobs:
    """The room's jobs without a database or bots: writes are remembered and answered by
    the driver."""

    def __init__(self) -> None:
        self.writes: list[Write] = []
        self.tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Any, what: str) -> None:
        coro.close()

    async def write(self, w: Write) -> None:
        return None

    async def ask_bot(self, a: Any) -> None:
        return None

    async def ask_hint(self, a: Any) -> None:
        return None

    async def trim_chat(self, before: int) -> None:
        return None

    def cancel(self) -> None:
        return None

    def start_write(self, w: Write) -> None:
        """The shell hands a write over (since the group commit, issue 15)."""
        self.writes.append(w)


def _fake_write(jobs: FakeJobs) -> Any:
    def write(w: Write) -> Any:
        jobs.writes.append(w)
        return FakeJobs.write(jobs, w)

    return write


async def _pump(room: Room, jobs: FakeJobs) -> None:
    """Answer every write, take every command posted (ticks, seeds), let writers drain."""
    for _ in range(10000):
        busy = False
        while jobs.writes:
            w = jobs.writes.pop(0)
            busy = True
            global LOGGED
            LOGGED += sum(1 for r in getattr(w.request, "records", ()) if r.kind == "action")
            if isinstance(w.request, SaveGame):
                room.step(GameSaved(w.ticket, 1))
            elif isinstance(w.request, SettleDeals):
                from shengji.server.table.commands import DealsSettled

                room.step(DealsSettled(w.ticket, ()))
            else:
                room.step(Written(w.ticket))
        while not room.inbox.empty():
            cmd = room.inbox.get_nowait()
            busy = True
            room.step(cmd)  # type: ignore[arg-type]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        if not busy and room.inbox.empty() and not jobs.writes:
            return


async def run(deals: int, deflate: bool, seed: int, protocol: int = 2) -> dict[str, Any]:
    import shengji.server.live.rooms as rooms_module

    drawn = (f"{seed:08x}{n:024x}" for n in range(1_000_000))  # the same deals every run
    if hasattr(rooms_module, "new_match_seed"):
        rooms_module.new_match_seed = lambda: next(drawn)  # type: ignore[attr-defined]
    tmp = tempfile.mkdtemp(prefix="send_path_")
    settings = Settings(
        data_dir=tmp,
        deal_pacing_s=0.0,
        bot_delay_s=0.0,
        deal_end_pause_s=0.0,
        turn_s=0.0,
        long_turn_s=0.0,
        next_deal_s=0.0,
        presence_interval_s=3600.0,
        log_level="warning",
    )
    room = Room(
        rid=1,
        code="BENCHROOM1",
        preset="classic",
        ruleset=PRESETS["classic"],
        seed="bench",
        private=True,
        max_deals=None,
        settings=settings,
        store=None,  # type: ignore[arg-type]
        bots=None,  # type: ignore[arg-type]
    )
    jobs = FakeJobs()
    jobs.write = _fake_write(jobs)  # type: ignore[method-assign]
    room.jobs = jobs  # type: ignore[assignment]
    conns: list[Conn] = []
    sockets_: list[FakeWebSocket] = []
    writers = []
    for i in range(SEATS + 1):
        player = Player(f"p{i}", f"player{i}")
        if hasattr(settings, "send_buffer_bytes"):  # issue 15: bytes bound, batch frames
            c = Conn(player, settings.send_queue, settings.send_buffer_bytes, True)
        else:
            c = Conn(player, settings.send_queue)
        conns.append(c)
        room.conns[c.id] = c
        ws = FakeWebSocket(deflate)
        sockets_.append(ws)
        writer = getattr(sockets, "write_socket", None) or sockets._writer  # type: ignore[attr-defined]
        writers.append(asyncio.create_task(writer(ws, c)))
        if protocol >= 3:  # the clients said hello with v 3: deltas instead of whole views
            room.step(Opened(c.id, c.player.id, c.player.name, None, False, deltas=True))
        else:
            room.step(Opened(c.id, c.player.id, c.player.name, None, False))
    await _pump(room, jobs)
    for i in range(SEATS):
        room.step(ClientSaid(conns[i].id, wire.Sit(seat=i)))
        room.step(ClientSaid(conns[i].id, wire.Ready(ready=True)))
    await _pump(room, jobs)
    by_seat = {i: conns[i].id for i in range(SEATS)}
    rng = random.Random(seed)
    cpu = 0.0
    plays = actions = 0
    seq0 = room.table.seq
    global LOGGED
    logged0 = LOGGED
    gc.collect()
    for _ in range(100000):
        t = room.table
        m = t.match
        if m is None or m.deal.deal_no >= deals:
            break
        said = None
        if 0 <= m.to_act < SEATS:  # the client's choice: not the server's work, not timed
            legal = m.legal_actions(m.to_act)
            text = action_text(legal.sample(rng))
            said = ClientSaid(by_seat[m.to_act], wire.Act(action=text))
        start = time.process_time()
        if said is not None:
            room.step(said)
            plays += 1
        await _pump(room, jobs)
        cpu += time.process_time() - start
    sequenced = room.table.seq - seq0
    actions = LOGGED - logged0
    for c in conns:
        c.close()
    await asyncio.gather(*writers)
    global SEAT0_FRAMES
    SEAT0_FRAMES = sockets_[0].payloads
    frames = sum(ws.frames for ws in sockets_)
    wire_bytes = sum(ws.wire_bytes for ws in sockets_)
    payload = sum(ws.payload_bytes for ws in sockets_)
    replay = getattr(room, "replay", None)
    return {
        "replay_buffer_bytes": None if replay is None else replay.size_bytes,
        "deflate": deflate,
        "protocol": protocol,
        "deals": deals,
        "sequenced": sequenced,
        "actions": actions,
        "plays": plays,
        "cpu_s": round(cpu, 4),
        "us_per_action": round(cpu / max(1, actions) * 1e6, 1),
        "us_per_play": round(cpu / max(1, plays) * 1e6, 1),
        "frames_per_action": round(frames / max(1, actions), 2),
        "payload_bytes_per_action": round(payload / max(1, actions)),
        "payload_bytes_per_action_per_socket": round(payload / max(1, actions) / len(sockets_)),
        "wire_bytes_per_action": round(wire_bytes / max(1, actions)),
    }


def small_messages(frames: list[bytes]) -> list[bytes]:
    """The messages of ``frames`` one by one, updates without their ``game``: a stream of
    the small messages a table also sends (clocks, chat, events alone)."""
    out = []
    for f in frames:
        data = json.loads(f)
        for m in data if isinstance(data, list) else [data]:
            m.pop("game", None)
            out.append(json.dumps(m, separators=(",", ":")).encode())
    return out


def deflate_by_size(frames: list[bytes]) -> list[dict[str, Any]]:
    """What permessage-deflate (uvicorn's settings, context kept between frames) costs and
    saves per frame, by frame size: the frames one seat got, compressed in order."""
    ext = PerMessageDeflate(False, False, 12, 12, {"memLevel": 5})
    from websockets.frames import Frame, Opcode

    rows: dict[int, dict[str, float]] = {
        b: {"n": 0, "us": 0.0, "in": 0, "out": 0} for b in SIZE_BUCKETS
    }
    for data in frames:
        start = time.perf_counter()
        out = ext.encode(Frame(Opcode.TEXT, data))
        took = time.perf_counter() - start
        row = rows[next(b for b in SIZE_BUCKETS if len(data) <= b)]
        row["n"] += 1
        row["us"] += took * 1e6
        row["in"] += len(data)
        row["out"] += len(out.data)
    return [
        {
            "up_to_bytes": b if b < 1 << 30 else None,
            "frames": int(r["n"]),
            "mean_bytes": round(r["in"] / r["n"]),
            "deflate_us_per_frame": round(r["us"] / r["n"], 1),
            "compressed_ratio": round(r["out"] / r["in"], 3),
            "bytes_saved_per_us": round((r["in"] - r["out"]) / max(r["us"], 1e-9), 1),
        }
        for b, r in rows.items()
        if r["n"]
    ]


def compare_gc(args: argparse.Namespace) -> None:
    """CPU per logged action with each ``--gc-young`` threshold, the thresholds alternated
    run by run (medians over ``--repeat`` runs each), saved under the label."""
    values = [int(x) for x in args.gc_young.split(",")]
    protocol = 3 if args.protocol == "3" else 2  # one protocol: --protocol 3, else 2
    rest = gc.get_threshold()[1:]
    by: dict[int, list[float]] = {v: [] for v in values}
    for seed in range(args.repeat):
        for young in values:
            gc.set_threshold(young, *rest)
            point = asyncio.run(run(args.deals, False, seed, protocol))
            by[young].append(point["us_per_action"])
    rows = []
    for young, us in by.items():
        median = sorted(us)[len(us) // 2]
        rows.append({"gc_young": young, "us_per_action_median": round(median, 1),
                     "us_per_action": [round(x, 1) for x in us]})
        print(f"{args.label:>8} gc_young={young:6d}: {median:7.1f} µs per logged action "
              f"(median of {len(us)}: {', '.join(f'{x:.0f}' for x in us)})")
    out = Path(args.out)
    data: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    data[args.label] = {"load_average_1m": round(os.getloadavg()[0], 2), "gc": rows}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3, help="runs per setting; the best is kept")
    ap.add_argument("--label", default="after")
    ap.add_argument("--out", default="bench/results/send_path.json")
    ap.add_argument(
        "--deflate", choices=("both", "on", "off"), default="both",
        help="off: only the uncompressed send path (e.g. under valgrind: bench/room_ir.py)",
    )
    ap.add_argument("--no-sizes", action="store_true", help="skip deflate by frame size")
    ap.add_argument(
        "--protocol", choices=("2", "3", "both"), default="both",
        help="the clients' protocol version: 2 whole views in every update, 3 deltas",
    )
    ap.add_argument("--gc-young", default="",
                    help="comma-separated thresholds of the youngest GC generation to compare "
                         "(the server's gc_young; 700 is Python's), alternated run by run; "
                         "only the uncompressed path")
    args = ap.parse_args()
    if args.gc_young:
        compare_gc(args)
        return
    results = []
    modes = {"both": (True, False), "on": (True,), "off": (False,)}[args.deflate]
    protocols = {"2": (2,), "3": (3,), "both": (2, 3)}[args.protocol]
    for deflate, protocol in ((d, p) for d in modes for p in protocols):
        runs = [
            asyncio.run(run(args.deals, deflate, seed, protocol)) for seed in range(args.repeat)
        ]
        best = min(runs, key=lambda r: r["us_per_action"])
        results.append(best)
        print(
            f"{args.label:>8} v{protocol} deflate={'on ' if deflate else 'off'}: "
            f"{best['us_per_action']:7.1f} µs per logged action, "
            f"{best['us_per_play']:7.1f} µs per play ({best['plays']} plays, "
            f"{best['actions']} logged, {best['sequenced']} updates), "
            f"{best['frames_per_action']} frames and "
            f"{best['wire_bytes_per_action']} wire bytes per logged action, "
            f"{best['payload_bytes_per_action_per_socket']} payload bytes per action per socket"
        )
    sizes = (
        []
        if args.no_sizes
        else deflate_by_size(SEAT0_FRAMES) + deflate_by_size(small_messages(SEAT0_FRAMES))
    )
    for row in sizes:
        print(
            f"{args.label:>8} deflate, frames up to {row['up_to_bytes'] or 'any'} bytes "
            f"(mean {row['mean_bytes']}, {row['frames']} frames): "
            f"{row['deflate_us_per_frame']} µs a frame, to {row['compressed_ratio']:.0%} "
            f"of the size, {row['bytes_saved_per_us']} bytes saved per µs"
        )
    out = Path(args.out)
    data: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    data[args.label] = {
        "fan_out": f"{SEATS} seats + 1 spectator",
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "results": results,
        "deflate_by_frame_size": sizes,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")
    print(f"saved {out}")


if __name__ == "__main__":
    main()
