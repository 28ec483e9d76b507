"""Prometheus metrics of this server process, served at ``GET /metrics`` (text format).

One registry per process (Prometheus scrapes processes): every app in the process adds to
it, and ``shengji_tables`` counts the rooms of every lobby it watches. What is measured:

=================================  =========  ============================================
``shengji_tables{status}``         gauge      live rooms (tables) by status
``shengji_connections``            gauge      open WebSocket connections
``shengji_actions_total``          counter    game actions applied; actions/s is
                                              ``rate(shengji_actions_total[1m])``
``shengji_action_seconds``         histogram  one action from its check to its broadcast,
                                              the durable log write included
``shengji_log_commits_total``      counter    group commits of the action log; actions per
                                              commit is the rate of ``shengji_actions_total``
                                              over this one's
``shengji_database_errors_total``  counter    storage faults (a failed write or probe, a
                                              request that met an unreachable database)
``shengji_lease_changes_total``    counter    room leases adopted from a process that
                                              stopped renewing, or lost to another
``shengji_bus_forged_total``       counter    messages from Redis dropped unread: not
                                              sealed with the group's secret for their
                                              channel (server/cluster/bus_auth.py)
``shengji_build_info{version}``    gauge      1, labelled with the package version
=================================  =========  ============================================

plus the client library's ``process_*`` (CPU, memory, open files) and ``python_gc_*``.

The hooks are one call each: the room calls ``action_applied(seconds)``; the WebSocket
endpoint wraps a connection in ``connection()``; ``WriteHealth.failed`` calls
``database_error()``.

>>> before = REGISTRY.get_sample_value("shengji_actions_total")
>>> action_applied(0.004)
>>> REGISTRY.get_sample_value("shengji_actions_total") - before
1.0
>>> b"shengji_action_seconds_bucket" in render()
True
"""

from __future__ import annotations

import contextlib
import weakref
from collections import Counter as Tally
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from shengji import __version__

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The ``Content-Type`` of ``/metrics``: the classic text format every Prometheus reads."""

REGISTRY = CollectorRegistry(auto_describe=True)
"""This process's metrics (not the client library's global registry)."""

ACTIONS = Counter("shengji_actions", "Game actions applied (logged and broadcast)",
                  registry=REGISTRY)
ACTION_SECONDS = Histogram(
    "shengji_action_seconds",
    "Seconds from an action's check to its broadcast, the durable log write included",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
CONNECTIONS = Gauge("shengji_connections", "Open WebSocket connections", registry=REGISTRY)
DATABASE_ERRORS = Counter(
    "shengji_database_errors",
    "Storage faults: failed writes and probes, requests that met an unreachable database",
    registry=REGISTRY,
)
ROUTED = Gauge(
    "shengji_routed_clients",
    "Clients routed through Redis: side=edge, sockets here for rooms elsewhere; side=owner, "
    "clients elsewhere in rooms here",
    ["side"],
    registry=REGISTRY,
)
LOG_COMMITS = Counter(
    "shengji_log_commits",
    "Group commits of the action log (each one transaction for every room in it)",
    registry=REGISTRY,
)
LEASE_CHANGES = Counter(
    "shengji_lease_changes",
    "Room leases this process adopted from a dead owner or lost to another process",
    registry=REGISTRY,
)
BUS_FORGED = Counter(
    "shengji_bus_forged",
    "Messages from Redis dropped unread: not sealed with the group's secret for their channel",
    registry=REGISTRY,
)
BUILD = Gauge("shengji_build_info", "The running shengji version", ["version"],
              registry=REGISTRY)
BUILD.labels(version=__version__).set(1)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

class _HasStatus(Protocol):
    @property
    def status(self) -> str: ...


class Lobby(Protocol):
    """What ``shengji_tables`` reads of a lobby (server/live/lobby.py): its rooms, loaded
    and idle, each with a ``status``."""

    @property
    def rooms(self) -> Mapping[str, _HasStatus]: ...

    @property
    def idle(self) -> Mapping[str, _HasStatus]: ...


_lobbies: weakref.WeakSet[Lobby] = weakref.WeakSet()


class _Tables(Collector):
    """``shengji_tables{status}``: the rooms of every watched lobby, read at scrape time."""

    def collect(self) -> Iterable[Metric]:
        """One sample per room status (``waiting`` and ``playing`` always present)."""
        counts: Tally[str] = Tally({"waiting": 0, "playing": 0})
        for lobby in list(_lobbies):
            counts.update(room.status for room in list(lobby.rooms.values()))
            counts.update(stub.status for stub in list(lobby.idle.values()))  # unloaded
        family = GaugeMetricFamily("shengji_tables", "Live rooms (tables) by status",
                                   labels=["status"])
        for status, n in sorted(counts.items()):
            family.add_metric([status], n)
        yield family

    def describe(self) -> Iterable[Metric]:
        """Nothing to describe ahead of a scrape (the statuses are read then)."""
        return []


REGISTRY.register(_Tables())


def watch_lobby(lobby: Lobby) -> None:
    """Count this lobby's rooms in ``shengji_tables`` (until ``forget_lobby``)."""
    _lobbies.add(lobby)


def forget_lobby(lobby: Lobby) -> None:
    """Stop counting a lobby's rooms (its app shut down)."""
    _lobbies.discard(lobby)


def action_applied(seconds: float, count: int = 1) -> None:
    """``count`` game actions (a round of dealt cards shares one update) were checked,
    logged and broadcast in ``seconds``."""
    ACTIONS.inc(count)
    for _ in range(count):  # one latency sample per action
        ACTION_SECONDS.observe(seconds)


@contextlib.contextmanager
def connection() -> Iterator[None]:
    """One open WebSocket connection for the duration of the block."""
    CONNECTIONS.inc()
    try:
        yield
    finally:
        CONNECTIONS.dec()


def routed(edge: int = 0, owner: int = 0) -> None:
    """Routed clients came (+1) or went (-1), on either side."""
    if edge:
        ROUTED.labels(side="edge").inc(edge)
    if owner:
        ROUTED.labels(side="owner").inc(owner)


def log_committed() -> None:
    """The group-commit writer committed one group (server/store/group_commit.py)."""
    LOG_COMMITS.inc()


def database_error() -> None:
    """An operation on the database failed with a storage fault."""
    DATABASE_ERRORS.inc()


def lease_changed() -> None:
    """This process adopted a room from a dead owner, or lost one to another process."""
    LEASE_CHANGES.inc()


def bus_forged() -> None:
    """A message from Redis did not open with the group's secret (server/cluster/bus.py)."""
    BUS_FORGED.inc()


def render() -> bytes:
    """The ``/metrics`` page."""
    return generate_latest(REGISTRY)
