"""One process's link to Redis (routing): ordered, batched publishing, the
channels it listens to, and an honest account of whether the link works.

- **Publishing** never waits: ``publish`` queues, and one task sends everything queued in
  one pipeline, one ``PUBLISH`` per channel holding that channel's messages in order. One
  task, one pipeline at a time: what this process publishes to a channel arrives in the
  order it was queued. A message that reached nobody (``PUBLISH`` answered 0: its listener
  is gone) calls its ``missed`` callback.
- **Listening**: ``listen(channel, handler)`` subscribes and waits (≤ ``CONFIRM_S``) for
  Redis to confirm, so a room created here is reachable from every process before its
  creator hears of it. Handlers are plain functions called in the reader task.
- **Liveness**: the process publishes a ``Ping`` to its own channel every second; when none
  comes back for ``STALE_S``, or any Redis call fails, the link is *down*: ``on_down`` is
  called (routed sessions are closed so their clients reconnect), and the link is rebuilt
  with backoff (every channel subscribed again, then ``on_up``). Messages lost meanwhile
  are never silently skipped over: every session that could have lost one was closed.
- **Sealing** (server/cluster/bus_auth.py): every payload goes out sealed with the group's secret
  for its channel, and one that does not open is dropped before any handler sees it,
  counted (``shengji_bus_forged_total``) and logged (at most once a minute). Rooms'
  channels are named by a keyed hash of their code, never the code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from shengji.server import metrics
from shengji.server.cluster import route_wire as rw
from shengji.server.cluster.bus_auth import BusKey

log = logging.getLogger("shengji.server.route")

CONFIRM_S = 2.0
"""How long ``listen`` waits for Redis to confirm a subscription."""
STALE_S = 10.0
"""No ``Ping`` of ours came back for this long: the link is down."""
MAX_QUEUED = 200_000
"""Messages queued for Redis at most; more: the link is too slow, taken as down."""
FORGED_LOG_S = 60.0
"""A forged message is logged at most this often (each one is counted)."""

Handler = Callable[[bytes], None]


class Bus:
    """``Bus(url, prefix, instance, key)``; ``await start()``, then ``publish`` /
    ``listen``."""

    def __init__(self, url: str, prefix: str, instance: str, key: BusKey) -> None:
        self.prefix = prefix
        self.instance = instance
        self.key = key
        self.own = f"{prefix}edge:{instance}"
        """This process's own channel (answers, bytes for its clients, its pings)."""
        self.redis: aioredis.Redis = aioredis.from_url(
            url,
            socket_connect_timeout=2.0,
            socket_timeout=5.0,
            retry=Retry(NoBackoff(), 0),  # a failure is ours to see, never retried unseen
        )
        self.up = False
        self.reason = "not connected yet"
        """Why the link is down (for logs and errors)."""
        self.on_up: list[Callable[[], None]] = []
        self.on_down: list[Callable[[str], None]] = []
        self.own_handler: Handler | None = None
        self._handlers: dict[bytes, Handler] = {}
        self._waiting: dict[bytes, asyncio.Future[None]] = {}
        self._pubsub: Any = None
        self._queue: list[tuple[str, rw.BusMsg, Callable[[], None] | None]] = []
        self._wake = asyncio.Event()
        self._broken: str | None = None
        self._pong = time.monotonic()
        self._tasks: list[asyncio.Task[None]] = []
        self._first = asyncio.Event()
        self.forged = 0
        """Messages dropped because they did not open with the key."""
        self._forged_logged = -FORGED_LOG_S

    def room_channel(self, code: str) -> str:
        """The inbox of room ``code`` (its owner listens), named by a keyed hash."""
        return f"{self.prefix}room:{self.key.room_name(code)}"

    def edge_channel(self, instance: str) -> str:
        """The own channel of process ``instance``."""
        return f"{self.prefix}edge:{instance}"

    # ------------------------------------------------------------------ lifecycle

    async def start(self, wait_s: float = 3.0) -> None:
        """Start the link; waits up to ``wait_s`` for it to come up (a Redis that does not
        answer is no failure: the process serves its own rooms, ``/readyz`` says 503)."""
        self._tasks = [
            asyncio.create_task(self._read(), name="bus-read"),
            asyncio.create_task(self._publish_loop(), name="bus-publish"),
            asyncio.create_task(self._ping_loop(), name="bus-ping"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first.wait(), wait_s)
        if not self.up:
            log.warning("Redis is not reachable (%s): rooms on other servers cannot be "
                        "reached until it is", self.reason)

    async def stop(self) -> None:
        """Flush what is queued (briefly), then close the link."""
        if self.up and self._queue:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._flush(), 2.0)
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._tasks = []
        self.up = False
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ publishing

    def publish(
        self, channel: str, msg: rw.BusMsg, missed: Callable[[], None] | None = None
    ) -> None:
        """Queue ``msg`` for ``channel``; ``missed`` is called if nobody heard it (or the
        link is down)."""
        if not self.up:
            if missed is not None:
                asyncio.get_running_loop().call_soon(missed)
            return
        self._queue.append((channel, msg, missed))
        self._wake.set()
        if len(self._queue) > MAX_QUEUED:
            self._break(f"more than {MAX_QUEUED} messages wait for Redis")

    async def _publish_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._queue:
                await self._flush()

    async def _flush(self) -> None:
        queued, self._queue = self._queue, []
        groups: dict[str, list[rw.BusMsg]] = {}
        missed: dict[str, list[Callable[[], None]]] = {}
        for channel, msg, on_missed in queued:
            groups.setdefault(channel, []).append(msg)
            if on_missed is not None:
                missed.setdefault(channel, []).append(on_missed)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for channel, msgs in groups.items():
                    pipe.publish(channel, self.key.seal(channel, rw.encode(msgs)))
                heard = await pipe.execute()
        except Exception as e:
            self._break(f"publishing failed: {type(e).__name__}: {e}")
            heard = [0] * len(groups)
        for channel, n in zip(groups, heard, strict=True):
            if not n:
                for cb in missed.get(channel, ()):
                    cb()

    # ------------------------------------------------------------------ listening

    async def listen(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with every payload published to ``channel``; returns once Redis
        confirmed (or at once while the link is down: it is subscribed when it is back)."""
        key = channel.encode()
        known = key in self._handlers
        self._handlers[key] = handler
        if known or not self.up or self._pubsub is None:
            return
        done = asyncio.get_running_loop().create_future()
        self._waiting[key] = done
        try:
            await self._pubsub.subscribe(channel)
        except Exception as e:
            self._break(f"subscribing failed: {type(e).__name__}: {e}")
            self._waiting.pop(key, None)
            return
        try:  # slow is no failure: the confirmation comes when it comes
            await asyncio.wait_for(done, CONFIRM_S)
        except TimeoutError:
            log.warning("Redis took over %g s to confirm %s", CONFIRM_S, channel)
        finally:
            self._waiting.pop(key, None)

    async def unlisten(self, channel: str) -> None:
        """Stop listening to ``channel``."""
        if self._handlers.pop(channel.encode(), None) is None:
            return
        if self.up and self._pubsub is not None:
            try:
                await self._pubsub.unsubscribe(channel)
            except Exception as e:
                self._break(f"unsubscribing failed: {type(e).__name__}: {e}")

    async def listeners(self, channels: Sequence[str]) -> dict[str, int]:
        """How many processes listen to each channel (``PUBSUB NUMSUB``); raises when the
        link is down or Redis fails."""
        if not self.up:
            raise ConnectionError(f"Redis is unreachable: {self.reason}")
        if not channels:
            return {}
        try:
            pairs = await self.redis.pubsub_numsub(*channels)
        except Exception as e:
            self._break(f"{type(e).__name__}: {e}")
            raise
        return {(c.decode() if isinstance(c, bytes) else str(c)): int(n) for c, n in pairs}

    # ------------------------------------------------------------------ the link's state

    def _break(self, why: str) -> None:
        """Something failed: the reader rebuilds the link (and says it was down)."""
        if self._broken is None:
            self._broken = why

    def _set_down(self, why: str) -> None:
        if self.up:
            log.warning("lost Redis (%s): routed clients are disconnected and reconnect", why)
        self.up = False
        self.reason = why
        self._queue.clear()
        for cb in self.on_down:
            try:
                cb(why)
            except Exception:
                log.exception("a handler of the lost Redis link failed")

    async def _read(self) -> None:
        """Subscribe to every channel, then read until something fails; again, forever."""
        backoff = 0.2
        while True:
            pubsub = self.redis.pubsub()
            try:
                await self._session(pubsub)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as e:
                why = self._broken or f"{type(e).__name__}: {e}"
                self._pubsub = None
                self._set_down(why)
                self._first.set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                with contextlib.suppress(Exception):  # no connection from before is reused
                    await self.redis.connection_pool.disconnect()
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.2

    async def _session(self, pubsub: Any) -> None:
        self._broken = None
        own = self.own.encode()
        wanted = {own, *self._handlers}
        await pubsub.subscribe(*wanted)
        confirmed: set[bytes] = set()
        while True:
            if self._broken is not None:
                raise ConnectionError(self._broken)
            if self.up and time.monotonic() - self._pong > STALE_S:
                raise TimeoutError(f"no answer through Redis for {STALE_S:g} s")
            m = await pubsub.get_message(timeout=1.0)
            if m is None:
                continue
            kind, channel = m["type"], m["channel"]
            if kind == "subscribe":
                if channel in confirmed and self.up:
                    raise ConnectionError("the subscription was renewed (a gap)")
                confirmed.add(channel)
                waiter = self._waiting.get(channel)
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)
                if not self.up and wanted <= confirmed:
                    self._pubsub = pubsub
                    self._pong = time.monotonic()
                    self.up = True
                    self.reason = ""
                    log.info("Redis link up (%d channels)", len(confirmed))
                    missing = set(self._handlers) - confirmed  # listened to meanwhile
                    if missing:
                        await pubsub.subscribe(*missing)
                    self._first.set()
                    for cb_up in self.on_up:
                        try:
                            cb_up()
                        except Exception:
                            log.exception("a handler of the Redis link's return failed")
            elif kind == "unsubscribe":
                confirmed.discard(channel)
            elif kind == "message":
                handler = self._own if channel == own else self._handlers.get(channel)
                data = self.key.open(channel, m["data"])
                if data is None:
                    self._forged(channel)
                elif handler is not None:
                    try:
                        handler(data)
                    except Exception:  # a handler's bug is no lost link
                        log.exception("a handler of channel %s failed", channel.decode())

    def _forged(self, channel: bytes) -> None:
        self.forged += 1
        metrics.bus_forged()
        now = time.monotonic()
        if now - self._forged_logged >= FORGED_LOG_S:
            self._forged_logged = now
            log.warning("dropped %d message(s) on Redis channel %s not sealed with this group's "
                        "secret (SHENGJI_BUS_SECRET): someone else publishes to this Redis",
                        self.forged, channel.decode(errors="replace"))

    def _own(self, data: bytes) -> None:
        if self.own_handler is not None:
            self.own_handler(data)

    def pong(self) -> None:
        """A ``Ping`` of ours came back (the own channel's handler says so)."""
        self._pong = time.monotonic()

    async def _ping_loop(self) -> None:
        n = 0
        while True:
            await asyncio.sleep(1.0)
            if self.up:
                n += 1
                self.publish(self.own, rw.Ping(n))
