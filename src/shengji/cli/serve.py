"""``shengji serve``: run the multiplayer server (FastAPI on uvicorn).

Flags override ``SHENGJI_*`` environment variables, which override the defaults:

    shengji serve --host 127.0.0.1 --port 8765 --data-dir ./data
    SHENGJI_DEAL_PACING_S=0 shengji serve --database-url postgresql+asyncpg://u:p@db/shengji
"""

from __future__ import annotations

import argparse
from typing import Any


def add_serve(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``serve`` subcommand's flags (the caller sets its function)."""
    p = sub.add_parser(
        "serve",
        help="run the multiplayer server (HTTP + WebSocket)",
        description="Run the multiplayer server. Every flag can also be set with an "
        "environment variable SHENGJI_<NAME> (e.g. SHENGJI_PORT=9000).",
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 8765)")
    p.add_argument("--data-dir", help="folder of the SQLite database (default ./shengji-data)")
    p.add_argument("--database-url", help="SQLAlchemy async URL (default: SQLite in data dir)")
    p.add_argument("--deal-pacing", type=float, dest="deal_pacing_s", help="seconds per card")
    p.add_argument("--bot-delay", type=float, dest="bot_delay_s", help="seconds a bot waits")
    p.add_argument(
        "--seat-grace", type=float, dest="seat_grace_s", help="seconds before a bot stands in"
    )
    p.add_argument("--log-level", help="uvicorn log level (default info)")
    return p


def browser_url(host: str, port: int) -> str:
    """Where to point a browser on this machine: ``browser_url("0.0.0.0", 8765)`` is
    ``'http://127.0.0.1:8765/'``; an IPv6 address gets brackets.

    >>> browser_url("::1", 80)
    'http://[::1]:80/'
    """
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve(args: argparse.Namespace) -> int:
    """Build the settings and run uvicorn until interrupted."""
    import uvicorn

    from shengji.server.app import create_app
    from shengji.server.settings import Settings

    keys = (
        "host",
        "port",
        "data_dir",
        "database_url",
        "deal_pacing_s",
        "bot_delay_s",
        "seat_grace_s",
        "log_level",
    )
    overrides: dict[str, Any] = {
        k: getattr(args, k) for k in keys if getattr(args, k, None) is not None
    }
    settings = Settings(**overrides)
    print(f"open {browser_url(settings.host, settings.port)} in a browser", flush=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=max(65536, settings.max_message_bytes * 4),
        ws="websockets-sansio",
    )
    return 0
