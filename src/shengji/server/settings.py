"""The server's one settings object: command-line flags over ``SHENGJI_*`` environment
variables over defaults.

>>> s = Settings(data_dir="/tmp/sj")
>>> s.resolved_database_url()
'sqlite+aiosqlite:////tmp/sj/shengji.db'
>>> Settings(deal_pacing_s=0).deal_pacing_s
0.0
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from limits import parse_many
from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the server can be told (env: ``SHENGJI_HOST``, ``SHENGJI_PORT`` ...)."""

    model_config = SettingsConfigDict(env_prefix="SHENGJI_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    """0: any free port (the one taken is printed)."""
    data_dir: str = "./shengji-data"
    """Where the SQLite file lives (unless ``database_url`` says otherwise)."""
    database_url: str | None = None
    """SQLAlchemy async URL; default ``sqlite+aiosqlite:///<data_dir>/shengji.db``.
    PostgreSQL: ``postgresql+asyncpg://user:pw@host/db`` (install the ``postgres`` extra)."""

    redis_url: str | None = None
    """Redis (``redis://host:6379/0``): set, the processes that share it and the database
    are one platform: a client reaching any of them plays in a room another runs (routed
    through pub/sub), and the lobby lists every process's rooms (server/cluster/router.py). Unset:
    nothing routed; processes sharing a PostgreSQL database still hand rooms over by lease
    and answer a socket for another's room ``moved`` (close 4409). ``/readyz`` checks it."""
    bus_secret: SecretStr | None = Field(default=None, min_length=16)
    """The secret shared by every process of a group (``SHENGJI_BUS_SECRET``, 16 characters
    or more; ``openssl rand -hex 32``): every message between them through Redis is sealed
    with it, and one that is not is dropped (server/cluster/bus_auth.py). Required with
    ``redis_url``: a process without it refuses to start."""
    redis_prefix: str = Field(default="shengji:", min_length=1, max_length=64)
    """Prefix of every Redis key and channel: one per group of processes that share rooms
    (two groups on one Redis never see each other)."""

    # Many servers on one database (docs/architecture.md, "Room leases").
    instance_id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    """This process's name among the servers sharing the database and Redis (its room
    leases' owner, its Redis channels); default ``<host>-<port>`` (``<host>-<pid>-<random>``
    with port 0; server/store/lease_keeper.py). Two live processes must never share one; a process
    restarted under the same id takes its rooms back at once (others adopt a dead
    process's rooms once their leases expire)."""
    public_url: str | None = Field(default=None, max_length=256)
    """Where clients reach this process (``http://10.0.0.5:8765``): the owner address of
    its rooms (``GET /api/rooms/{code}/owner``) and an entry of ``GET /api/instances``.
    Default: ``http://<host>:<port>``."""
    operator_token: SecretStr | None = Field(default=None, min_length=16)
    """Sent as ``X-Operator-Token``, it shows operators what strangers are not shown:
    instance ids and lease epochs (``/api/rooms/{code}/owner``), every process and its
    address (``/api/instances``). Without it those answer public addresses only, and only
    when ``public_url`` is set (docs/deploy.md)."""
    lease_ttl_s: float = Field(default=6.0, gt=0)
    """A room's lease lasts this long unless renewed: an owner killed, frozen or cut off
    loses its rooms to another process after at most this (plus ``lease_scan_s``).
    Leases are kept on PostgreSQL only: on SQLite one process holds the data dir and
    every room (server/store/lease_keeper.py)."""
    lease_renew_s: float = Field(default=2.0, gt=0)
    """How often a process renews the leases of its rooms (a third of the TTL)."""
    lease_scan_s: float = Field(default=1.0, gt=0)
    """How often a process looks for rooms whose lease expired, to adopt them."""

    deal_pacing_s: float = Field(default=0.15, ge=0)
    """Seconds between two dealt cards (0: as fast as the log is written)."""
    deal_batch: int = Field(default=0, ge=0, le=64)
    """Cards dealt in one update: 0 a round (one card to each seat, at ``deal_pacing_s``
    a card), 1 one card at a time as before; a round costs the room one message per client
    instead of one per card."""
    bot_delay_s: float = Field(default=0.6, ge=0)
    """A bot's move is shown no sooner than this after its turn began (0 in tests)."""
    bot_budget_s: float = Field(default=2.0, gt=0)
    """Think-time budget: a bot that is slower gets a random legal move instead."""
    bot_mode: Literal["thread", "process"] = "thread"
    """Where bots think: a thread pool, or a process pool (for CPU-heavy bots)."""
    bot_workers: int = Field(default=2, ge=1)
    deal_end_pause_s: float = Field(default=3.0, ge=0)
    """Pause after a deal ends so players can read the summary."""
    seat_grace_s: float = Field(default=30.0, ge=0)
    """A disconnected player's seat is played by a bot after this many seconds."""
    waiting_grace_s: float = Field(default=60.0, ge=0)
    """Between matches, a seated player gone this long loses the seat (it is freed)."""
    substitute_bot: str = "random"
    """Registry name of the bot that stands in for an absent player."""
    auto_bot: str = "heuristic"
    """Registry name of the bot that plays for a seat on 托管 (timed out, or asked for)."""
    turn_s: float = Field(default=30.0, ge=0)
    """A new public room's turn timer (room option ``table.turn_s``; 0: none). Private rooms
    have none unless their creator sets one."""
    long_turn_s: float = Field(default=60.0, ge=0)
    """A new public room's timer to bury, call a friend, bid or name trump."""
    next_deal_s: float = Field(default=30.0, ge=0)
    """How long a new room's deal summary waits for every player's "next deal" (0: it
    waits only ``deal_end_pause_s``)."""
    clock_scale: float = Field(default=1.0, gt=0, le=1)
    """Every turn clock runs this much of its seconds (tests fast-forward a public room's
    30 s clock with 0.1: the clock shows and runs out after 3 s)."""

    log_size: int = Field(default=1024, ge=16)
    """Messages kept per room for reconnecting clients (older: a snapshot instead)."""
    replay_bytes: int = Field(default=49152, ge=1024)
    """Bytes those kept messages may take per room (server/live/backlog.py): the oldest go first;
    a client resuming from before what is left gets a snapshot. 48 KiB keeps about the last
    hundred messages of a table (a deal's first 25 rounds of cards, or 100 plays)."""
    max_message_bytes: int = Field(default=4096, ge=256)
    rate_per_s: float = Field(default=20.0, gt=0)
    """Per-connection message rate (token bucket refill)."""
    rate_burst: int = Field(default=40, ge=1)
    send_queue: int = Field(default=4096, ge=16)
    """Messages queued for one slow client before it is disconnected."""
    send_buffer_bytes: int = Field(default=262144, ge=16384)
    """Bytes queued for one slow client before it is disconnected (server/live/conn.py)."""
    log_commit_gap_s: float = Field(default=0.004, ge=0, le=1)
    """At least this long between two group commits of the action log (per writer lane):
    under load a commit carries several actions instead of one, each broadcast at most this
    much later (docs/deploy.md "The log writer"); 0: commit whenever the last one is done."""
    loop_nap_ms: float = Field(default=0.0, ge=0, le=50)
    """The event loop naps this long before each wait for I/O that would block, so that what
    arrives meanwhile is handled together (server/loop_nap.py): less CPU per action at human
    pace for up to this much more latency per hop; 0 (default): asyncio's own loop."""
    ws_compression: bool = False
    """permessage-deflate on WebSocket frames (docs/deploy.md "Compression": off by default,
    it costs more CPU per frame than it saves at the frame sizes a table sends; on for
    links where bandwidth costs more than CPU)."""
    ws_layer: Literal["auto", "picows", "uvicorn"] = "auto"
    """What runs the rooms' sockets (server/live/ws_layer.py): ``picows`` (a WebSocket layer in
    Cython, the ``server`` extra installs it), ``uvicorn`` (its sans-I/O protocol, pure
    Python), or ``auto``: picows where it is installed and ``ws_compression`` is off."""
    max_rooms: int = Field(default=10000, ge=1)
    """Live rooms at most (closed and expired rooms do not count)."""
    storage_retry_first_s: float = Field(default=0.1, gt=0)
    """A room whose write failed (disk full, database locked or gone) retries after this,
    doubling each time (server/store/write_faults.py)."""
    storage_retry_max_s: float = Field(default=5.0, gt=0)
    """The longest wait between two retries of a failed write."""
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = "info"
    """``debug`` also shows the traceback of a start-up error."""
    log_format: Literal["text", "json"] = "text"
    """``json``: one JSON object per line on stdout for every record (server/http/jsonlog.py)."""
    access_log: bool = False
    """One log line per HTTP request (``shengji serve --access-log``); off by default."""

    # Limits against hostile guests (docs/protocol.md, "Limits"; server/http/quotas.py).
    max_body_bytes: int = Field(default=65536, ge=1024)
    """Largest HTTP request body; larger: 413, refused before the body is read."""
    signup_rate: str = "30/minute;300/day"
    """Sign-ups per address (``limits`` notation: ``N/second|minute|hour|day``, ``;``-joined)."""
    room_rate: str = "10/minute;100/hour"
    """Rooms one player may create."""
    room_rate_per_address: str = "30/minute;300/hour"
    """Rooms one address may create (every player behind it together)."""
    max_rooms_per_player: int = Field(default=10, ge=1)
    """Live rooms one player may own at once."""
    room_idle_s: float = Field(default=600.0, gt=0)
    """A room with no human seated and nobody connected closes after this long."""
    room_abandoned_s: float = Field(default=7200.0, gt=0)
    """A room whose seated humans are all disconnected (and nobody watches) closes after
    this long."""
    idle_unload_s: float = Field(default=300.0, ge=0)
    """A room with nobody connected and nothing to do (no bot to ask, no timer due) for this
    long leaves memory: a stub of a few KiB stays in the lobby and the room is reloaded
    from its log when someone comes (0: rooms stay in memory)."""
    gc_freeze: bool = True
    """Move the objects that exist at start-up out of the garbage collector's sight before
    rooms are restored (server/gc_tuning.py): full collections, which pause every table,
    then walk the rooms' objects only."""
    gc_young: int = Field(default=0, ge=0)
    """Allocations that start a collection of the youngest generation (0: Python's own,
    700)."""
    gc_middle: int = Field(default=0, ge=0)
    """Collections of the youngest generation that start one of the middle (0: Python's
    own, 10). Larger makes full collections rarer but each middle collection longer: at
    100 it walked everything promoted in 70,000 allocations, a stall of 250–450 ms every
    ~15 s at 1,350 tables (docs/deploy.md, "Garbage collection")."""
    gc_refreeze_s: float = Field(default=10.0, ge=0)
    """How often the server collects the young generations and freezes what lives
    (server/gc_refreeze.py): a full collection then walks only what was made since, not
    every table's objects (0: never; full collections then pause every table for ~1 s per
    1,000 tables)."""
    gc_thaw_s: float = Field(default=3600.0, ge=0)
    """With ``gc_refreeze_s``: this often everything is thawed and collected once (one long
    pause), reclaiming cycles among frozen objects; 0: never."""
    gc_oldest: int = Field(default=0, ge=0)
    """Collections of the middle generation that may start a full one (0: Python's own,
    10)."""
    max_sockets_per_address: int = Field(default=256, ge=0)
    """Open room WebSockets from one address (an IPv6 /64); more are refused
    (``too-many-sockets``). Loopback is not counted (local play, a proxy on the same host
    that does not forward addresses); 0: no cap."""
    max_spectators: int = Field(default=100, ge=0)
    """Connections per room without a seat; more are refused (``room-full``); a seated
    player and the owner always get in."""
    presence_interval_s: float = Field(default=0.25, ge=0)
    """Presence changes are sent at most this often per room (coalesced)."""
    chat_keep: int = Field(default=50, ge=1)
    """Chat lines a room keeps, in memory and in the database (older ones are deleted)."""
    chat_max_chars: int = Field(default=500, ge=1)
    """Longest chat line."""
    name_max_chars: int = Field(default=32, ge=1, le=64)
    """Longest player name (after trimming)."""

    @field_validator("signup_rate", "room_rate", "room_rate_per_address")
    @classmethod
    def _rate(cls, value: str) -> str:
        """A rate the ``limits`` library reads (``"10/minute;100/hour"``)."""
        try:
            parse_many(value)
        except ValueError as e:
            raise ValueError(f"{value!r} is not a rate like '10/minute;100/hour'") from e
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, value: str | None) -> str | None:
        """A Redis URL (``redis://``, ``rediss://`` or ``unix://``), or none."""
        if value and not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("a Redis URL starts with redis://, rediss:// or unix://")
        return value or None

    @model_validator(mode="after")
    def _leases(self) -> Settings:
        """A lease must be renewed before it runs out."""
        if self.lease_renew_s >= self.lease_ttl_s:
            raise ValueError(
                f"lease_renew_s ({self.lease_renew_s:g}) must be shorter than lease_ttl_s "
                f"({self.lease_ttl_s:g}), a third of it or less"
            )
        return self

    def resolved_database_url(self) -> str:
        """The database URL to use."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{Path(self.data_dir).absolute() / 'shengji.db'}"
