"""The client side of ``bench/server_load.py``: many tables of scripted WebSocket clients
in one asyncio process (run as a subprocess, pinned to its own cores).

Each table is four scripted seats and one spectator. A seat acts when the ``update`` it got
says it is its turn: at the bench's pace at once, at human pace after 2–4 s of "thinking".
Its action is a legal one chosen from its own view, as a client would: lead a single card,
follow with the engine's first legal follow (``shengji.core.follow``), bury its lowest
cards, ``pass`` in the declaration window; if the server refuses it, the seat asks for a
``hint`` and plays that (counted as ``fallbacks``). Nothing else is asked of the server, so
its CPU goes to the actions themselves.

Latency of an action: from the moment its seat sends ``act`` to the moment the last of the
table's five clients has received the ``update`` that carries it (the first ``update``
with a higher ``seq`` than the one that gave the seat its turn). Only actions sent inside
the measuring window count. Messages are read cheaply (``t``, ``seq``, ``phase``,
``to_act`` by string search); only the seat to act parses the whole message.

Protocol with the driver: stdin's first line is the config, one JSON object: ``ws_base``,
``tables`` (``[[code, [5 tokens]], ...]``), ``start`` (a ``time.monotonic()`` instant: the
clock is shared by every process of the machine), ``ramp_s`` (table starts spread over it),
``think`` (``[lo, hi]`` seconds, or ``[0, 0]``), ``batch`` (say ``batch: true`` in ``hello``
and read frames of several messages, as the browser does), ``protocol`` (3, as the browser:
``delta`` messages, set into the view the snapshot gave; 2: a whole view in every
``update``). Once every table has been dealt its first
deal and a seat has acted (or ``start_timeout_s`` passed) the process prints ``started K``;
the driver answers with the measuring window, ``FROM TO`` (monotonic); 2 s after it the
process prints one JSON object with the samples and counts and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from shengji.core.cards import cards_str, counts_of, parse_cards, parse_level, parse_trump
from shengji.core.follow import first_legal_follow
from shengji.core.order import context_for
from shengji.core.ruleset import PRESETS, Ruleset

SPECTATOR = 4


def choose_action(game: dict[str, Any], ruleset: Ruleset) -> str | None:
    """A legal action for the seat whose ``GameView`` this is, or None (ask for a hint).

    >>> choose_action({"phase": "playing", "trick": [], "hand": "BJ SA S3"}, PRESETS["classic"])
    'play S3'
    >>> view = {"phase": "burying", "hand": "BJ SA S3 S4", "bury_count": 2}
    >>> choose_action(view, PRESETS["classic"])
    'bury S3 S4'
    """
    phase = game.get("phase")
    hand = game.get("hand") or ""
    cards = hand.split()
    if phase == "playing":
        trick = game.get("trick") or []
        if not trick:
            return f"play {cards[-1]}" if cards else None  # lead the lowest single card
        lead = parse_cards(trick[0][1])
        ctx = context_for(ruleset, parse_level(game["level"]), parse_trump(game["trump"] or "NT"))
        play = first_legal_follow(lead, counts_of(parse_cards(hand)), ctx, ruleset)
        return f"play {cards_str(play)}"
    if phase in ("burying", "rebury"):
        n = int(game.get("bury_count") or 0)
        return f"bury {' '.join(cards[-n:])}" if 0 < n <= len(cards) else None
    options: list[str] = game.get("options") or []
    if "pass" in options:
        return "pass"
    return None


def _field(raw: str, key: str) -> str:
    """The text of the first ``"key":value`` in ``raw`` (a number or a plain string)."""
    i = raw.index(key) + len(key)
    if raw[i] == '"':
        return raw[i + 1 : raw.index('"', i + 1)]
    j = i
    while raw[j] not in ",}":
        j += 1
    return raw[i:j]


def split_frame(frame: str) -> list[str]:
    """The messages of a frame: one object, or (``batch``) a JSON array of them, cut at
    ``},{"t":"`` without parsing (no bench message holds that text inside a string).

    >>> split_frame('[{"t":"update","seq":4},{"t":"clock","seq":4}]')
    ['{"t":"update","seq":4}', '{"t":"clock","seq":4}']
    >>> split_frame('{"t":"pong","seq":1}')
    ['{"t":"pong","seq":1}']
    """
    if not frame.startswith("["):
        return [frame]
    parts = frame[1:-1].split('},{"t":"')
    if len(parts) == 1:
        return parts
    return [parts[0] + "}"] + ['{"t":"' + p + "}" for p in parts[1:-1]] + ['{"t":"' + parts[-1]]


@dataclass
class Pending:
    """An action in flight: when it was sent and which clients have seen its update."""

    sent: float
    seen: int = 0  # bit per client (0..4)
    counted: bool = True  # sent inside the window


@dataclass
class Table:
    """One table's five clients' shared bookkeeping (they live in the same process)."""

    code: str
    tokens: list[str]
    pending: dict[int, Pending] = field(default_factory=dict)  # by the seq it answers
    ruleset: Ruleset = field(default_factory=lambda: PRESETS["classic"])


@dataclass
class Stats:
    """What one client process measured."""

    window: tuple[float, float] = (float("inf"), float("inf"))
    started: set[str] = field(default_factory=set)  # tables dealt, where a seat has acted
    lat: list[float] = field(default_factory=list)  # act → the last of five clients has it
    first: list[float] = field(default_factory=list)  # act → the first client has it
    acts: int = 0
    acts_in_window: int = 0
    fallbacks: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    disconnects: int = 0
    connected: int = 0
    messages: int = 0
    lag: list[float] = field(default_factory=list)
    choose: list[float] = field(default_factory=list)  # seconds to pick each action
    slow: list[tuple[float, float]] = field(default_factory=list)  # (sent, latency) > 100 ms

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


class Client:
    """One seat (0..3) or the spectator (4) of a table."""

    def __init__(
        self,
        table: Table,
        who: int,
        stats: Stats,
        think: tuple[float, float],
        rng: random.Random,
        batch: bool = False,
        protocol: int = 2,
    ) -> None:
        self.table, self.who, self.stats, self.think, self.rng = table, who, stats, think, rng
        self.batch = batch
        self.protocol = protocol
        self.view: dict[str, Any] | None = None
        """Protocol 3: the view the snapshot gave, each delta's fields set into it."""
        self.ws: ClientConnection | None = None
        self.last_turn_seq = -1
        self.acting = False  # an act (or hint) of this seat is in flight

    async def run(self, ws_base: str, at: float) -> None:
        """Connect at ``at`` (loop time) and play until cancelled."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, at - loop.time()))
        try:
            async with connect(
                f"{ws_base}/ws/{self.table.code}",
                max_size=None,
                max_queue=None,
                ping_interval=None,
                open_timeout=300,
                close_timeout=0.5,
            ) as ws:
                self.ws = ws
                self.stats.connected += 1
                hello: dict[str, Any] = {
                    "t": "hello", "v": self.protocol, "token": self.table.tokens[self.who],
                }
                if self.batch:
                    hello["batch"] = True  # as the browser does (server from issue 15 on)
                await ws.send(json.dumps(hello))
                if self.who != SPECTATOR:
                    await ws.send(json.dumps({"t": "sit", "v": 2, "seat": self.who}))
                    await ws.send('{"t":"ready","v":2}')
                async for frame in ws:
                    assert isinstance(frame, str)
                    for raw in split_frame(frame):
                        await self.on_message(raw)
            self.stats.disconnects += 1  # the server closed it
        except (OSError, WebSocketException, TimeoutError):
            self.stats.disconnects += 1

    async def on_message(self, raw: str) -> None:
        self.stats.messages += 1
        t = raw[6 : raw.index('"', 6)]
        if t == "delta":
            await self._delta(raw)
        elif t == "snapshot":
            self.view = json.loads(raw)["game"]
        elif t == "update":
            now = time.monotonic()
            seq = int(raw[raw.rindex('"seq":') + 6 : -1])
            self._seen(seq, now)
            if '"deal_ended"' in raw and self.who != SPECTATOR:
                await self._later('{"t":"next_deal","v":2}')
            if self.acting and seq > self.last_turn_seq:
                self.acting = False
            if (
                self.who != SPECTATOR
                and _field(raw, '"to_act":') == str(self.who)
                and _field(raw, '"phase":') != "dealing"
            ):
                self.last_turn_seq = seq
                self._act(json.loads(raw)["game"])
        elif t == "hint":
            action = json.loads(raw)["action"]
            if action:
                self._send_act(action)
            else:
                self.acting = False
        elif t == "error":
            code = _field(raw, '"code":')
            self.stats.errors += 1
            self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
            if self.acting and code not in ("rate-limited",):
                self.table.pending.pop(self.last_turn_seq, None)
                self.stats.fallbacks += 1
                await self._send('{"t":"hint","v":2}')
        elif t == "room" and self.who != SPECTATOR:
            room = json.loads(raw)["room"]
            if room["status"] == "waiting" and room["match_no"]:
                await self._send('{"t":"ready","v":2}')

    async def _delta(self, raw: str) -> None:
        """Protocol 3: set the delta's fields into the view, then as for an ``update``."""
        now = time.monotonic()
        msg = json.loads(raw)
        seq = msg["seq"]
        self._seen(seq, now)
        view = self.view
        game = msg["game"]
        if view is None:  # no view yet (the snapshot came before the match): a deal's
            view = self.view = {}  # first delta brings every field
        suits = game.pop("played_suits", None)
        view.update(game)
        if suits:
            by_suit = {g["suit"]: g for g in suits}
            view["played"] = [by_suit.get(g["suit"], g) for g in view["played"]]
        if self.who == SPECTATOR:
            return
        if any(e["type"] == "deal_ended" for e in msg["events"]):
            await self._later('{"t":"next_deal","v":2}')
        if self.acting and seq > self.last_turn_seq:
            self.acting = False
        if view.get("to_act") == self.who and view.get("phase") != "dealing":
            self.last_turn_seq = seq
            self._act(view)

    def _seen(self, seq: int, now: float) -> None:
        """This client got update ``seq``: it carries every pending action answered below it."""
        pending = self.table.pending
        if not pending:
            return
        bit = 1 << self.who
        for q in [q for q in pending if q < seq]:
            p = pending[q]
            if p.seen & bit:
                continue
            if not p.seen and p.counted:
                self.stats.first.append(now - p.sent)
            p.seen |= bit
            if p.seen == 0b11111:
                del pending[q]
                if p.counted:
                    self.stats.lat.append(now - p.sent)
                    if now - p.sent > 0.1 and len(self.stats.slow) < 500:
                        self.stats.slow.append((round(p.sent - self.stats.window[0], 3),
                                                round(now - p.sent, 3)))

    def _act(self, game: dict[str, Any]) -> None:
        t = time.perf_counter()
        try:
            action = choose_action(game, self.table.ruleset)
        except Exception:  # a view the script does not understand: ask for a hint
            action = None
        self.stats.choose.append(time.perf_counter() - t)
        self.acting = True
        if action is None:
            self.stats.fallbacks += 1
            self._spawn(self._send('{"t":"hint","v":2}'))
        else:
            self._send_act(action)

    def _send_act(self, action: str) -> None:
        msg = json.dumps({"t": "act", "v": 2, "action": action})
        lo, hi = self.think
        delay = self.rng.uniform(lo, hi) if hi > 0 else 0.0
        if delay:
            due = time.monotonic() + delay
            asyncio.get_running_loop().call_later(delay, self._fire, msg, due)
        else:
            self._fire(msg)

    def _fire(self, msg: str, due: float | None = None) -> None:
        now = time.monotonic()
        late = now - due if due is not None else 0.0
        if late > 0.02:
            # This process stalled (another process had the core): every timer due meanwhile
            # fires at once. Wait a random part of the lateness again, so that a stall of
            # the bench does not send many tables' actions in one burst (a real crowd of
            # players is not synchronised).
            asyncio.get_running_loop().call_later(self.rng.uniform(0, late), self._fire, msg)
            return
        self.stats.started.add(self.table.code)  # dealt, and a seat plays
        self.table.pending[self.last_turn_seq] = Pending(now, 0, self.stats.in_window(now))
        self.stats.acts += 1
        if self.stats.in_window(now):
            self.stats.acts_in_window += 1
        self._spawn(self._send(msg))

    async def _later(self, msg: str) -> None:
        lo, hi = self.think
        if hi > 0:
            asyncio.get_running_loop().call_later(
                self.rng.uniform(lo, hi), lambda: self._spawn(self._send(msg))
            )
        else:
            await self._send(msg)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        _TASKS.add(task)
        task.add_done_callback(_TASKS.discard)

    async def _send(self, msg: str) -> None:
        if self.ws is not None:
            with contextlib.suppress(OSError, WebSocketException):
                await self.ws.send(msg)


_TASKS: set[asyncio.Future[None]] = set()


class FullCollections:
    """This process's collections of the oldest generation inside the window (a ``gc``
    callback): how many, and the longest."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.count = 0
        self.longest = 0.0
        self._t0 = 0.0

    def seen(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        elif self.stats.in_window(time.monotonic()):
            self.count += 1
            self.longest = max(self.longest, time.perf_counter() - self._t0)


async def _lag_probe(stats: Stats) -> None:
    """How late this process's event loop wakes up (a saturated client reads as lag)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(0.05)
        if stats.in_window(time.monotonic()):
            stats.lag.append(loop.time() - t - 0.05)


async def run(cfg: dict[str, Any]) -> dict[str, Any]:
    """Start every table of ``cfg``, say how many started (a ``started`` line on stdout),
    read the measuring window from stdin (``from to``, monotonic), play through it and
    return the measurements."""
    loop = asyncio.get_running_loop()
    offset = loop.time() - time.monotonic()  # loop time of a monotonic instant
    stats = Stats()
    gcs = FullCollections(stats)
    think = (float(cfg["think"][0]), float(cfg["think"][1]))
    rng = random.Random(cfg.get("seed", 15))
    tables = [Table(code, list(tokens)) for code, tokens in cfg["tables"]]
    start, ramp = float(cfg["start"]) + offset, float(cfg["ramp_s"])
    n = max(1, len(tables))
    cpu0 = time.process_time()
    tasks = [asyncio.ensure_future(_lag_probe(stats))]
    for i, table in enumerate(tables):
        at = start + ramp * i / n
        for who in range(5):
            client = Client(
                table, who, stats, think, rng, bool(cfg.get("batch")), int(cfg.get("protocol", 2))
            )
            tasks.append(asyncio.ensure_future(client.run(cfg["ws_base"], at)))
    deadline = start + ramp + float(cfg.get("start_timeout_s", 120.0))
    while len(stats.started) < len(tables) and loop.time() < deadline:
        await asyncio.sleep(0.2)
    # Everything the tables set up lives through the window: frozen, a full collection of
    # this process (thousands of sockets) walks only what is new. Unfrozen, its pauses of
    # 0.3 s and more every few seconds at 1,000+ tables read as stalls of the server.
    gc.collect()
    gc.freeze()
    gc.callbacks.append(gcs.seen)
    sys.stdout.write(f"started {len(stats.started)}\n")
    sys.stdout.flush()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    a, b = (float(x) for x in line.split())
    stats.window = (a, b)
    await asyncio.sleep(max(0.0, b + float(cfg.get("grace_s", 2.0)) - time.monotonic()))
    cpu = time.process_time() - cpu0
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.lost = sum(1 for t in tables for p in t.pending.values() if p.counted)
    return {
        "started": len(stats.started),
        "lat": stats.lat,
        "first": stats.first,
        "acts": stats.acts,
        "acts_in_window": stats.acts_in_window,
        "fallbacks": stats.fallbacks,
        "errors": stats.errors,
        "error_codes": stats.error_codes,
        "lost": stats.lost,
        "disconnects": stats.disconnects,
        "connected": stats.connected,
        "messages": stats.messages,
        "lag": stats.lag,
        "lag_max": max(stats.lag, default=0.0),
        "full_gc": gcs.count,
        "full_gc_max": gcs.longest,
        "slow": stats.slow,
        "choose_ms_p99": 1000 * sorted(stats.choose)[int(0.99 * len(stats.choose))]
        if stats.choose
        else None,
        "choose_ms_max": 1000 * max(stats.choose) if stats.choose else None,
        "cpu_s": cpu,
    }


def main() -> int:
    """Read the config (one JSON line) on stdin, play, print the result as one JSON line."""
    cfg = json.loads(sys.stdin.readline())
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if cfg.get("cpus") and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(cfg["cpus"]))
    out = asyncio.run(run(cfg))
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
