"""``shengji serve``: run the multiplayer server (FastAPI on uvicorn).

Flags override ``SHENGJI_*`` environment variables, which override the defaults:

    shengji serve --host 127.0.0.1 --port 8765 --data-dir ./data
    SHENGJI_DEAL_PACING_S=0 shengji serve --database-url postgresql+asyncpg://u:p@db/shengji

Start-up failures (a bad flag, an unusable data dir or database, a data dir another server
holds, a port in use) are one line on stderr and a non-zero exit (cli/startup_errors.py);
the URL is printed only once the port is bound and the rooms are restored. With
``--log-format json`` every line is a JSON object on stdout instead (server/http/jsonlog.py):
the records, ``{"msg": "listening on http://...", "url": ...}`` and a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import sys
import traceback
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from shengji.server.settings import Settings
    from shengji.server.store.datadir_lock import DataDirLock


def add_serve(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """The ``serve`` subcommand's flags (the caller sets its function). Values are checked
    by the settings, so a bad one is reported in one line (cli/startup_errors.py)."""
    p = sub.add_parser(
        "serve",
        help="run the multiplayer server (HTTP + WebSocket)",
        description="Run the multiplayer server. Every flag can also be set with an "
        "environment variable SHENGJI_<NAME> (e.g. SHENGJI_PORT=9000).",
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", help="port (default 8765; 0: any free port)")
    p.add_argument("--data-dir", help="folder of the SQLite database (default ./shengji-data)")
    p.add_argument("--database-url", help="SQLAlchemy async URL (default: SQLite in data dir)")
    p.add_argument(
        "--redis-url",
        help="Redis URL: processes sharing it and the database route clients to each "
        "other's rooms (default: none, a single process)",
    )
    p.add_argument(
        "--instance-id",
        help="this process's name among the servers sharing the database (default "
        "<host>-<port>; room leases, Redis channels)",
    )
    p.add_argument(
        "--public-url",
        help="where clients and the other servers reach this one (default http://<host>:<port>)",
    )
    p.add_argument("--deal-pacing", dest="deal_pacing_s", help="seconds per card")
    p.add_argument("--bot-delay", dest="bot_delay_s", help="seconds a bot waits")
    p.add_argument("--seat-grace", dest="seat_grace_s", help="seconds before a bot stands in")
    p.add_argument(
        "--log-level",
        help="log level of the server and uvicorn (default info: one line per room event "
        "worth an operator's eye; debug adds start-up tracebacks)",
    )
    p.add_argument(
        "--log-format",
        help="text (default) or json: one JSON object per line on stdout for every record",
    )
    p.add_argument(
        "--access-log",
        action="store_const",
        const=True,
        help="log every HTTP request (default off; SHENGJI_ACCESS_LOG=1)",
    )
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


def serve(args: argparse.Namespace, err: TextIO | None = None) -> int:
    """Check everything, bind the port, open the database and restore the rooms, print the
    URL, then serve until SIGINT / SIGTERM. A start-up failure is one line on ``err``
    (``shengji serve: ...``), exit status 1 (2 for a bad flag value), no traceback unless
    ``--log-level debug``."""
    from shengji.cli import startup_errors as startup
    from shengji.server.loop_nap import loop_factory

    err = err or sys.stderr
    keys = (
        "host",
        "port",
        "data_dir",
        "database_url",
        "redis_url",
        "instance_id",
        "public_url",
        "deal_pacing_s",
        "bot_delay_s",
        "seat_grace_s",
        "log_level",
        "log_format",
        "access_log",
    )
    overrides: dict[str, Any] = {
        k: getattr(args, k) for k in keys if getattr(args, k, None) is not None
    }
    debug = str(overrides.get("log_level", os.environ.get("SHENGJI_LOG_LEVEL", ""))) == "debug"
    as_json = overrides.get("log_format", os.environ.get("SHENGJI_LOG_FORMAT")) == "json"
    lock: DataDirLock | None = None
    try:
        settings = startup.load_settings(overrides)
        db = startup.sqlite_file(settings)
        if db is not None:
            startup.check_data_dir(db.parent)
            lock = startup.take_lock(settings, db.parent)
            startup.check_database(db)
        sock = startup.bind_socket(settings.host, settings.port)
    except startup.StartupError as e:
        return _fail(e, e.line, e.code, debug, err, as_json)
    try:
        with asyncio.Runner(loop_factory=loop_factory(settings.loop_nap_ms)) as runner:
            return runner.run(_serve(settings, lock, sock, err))
    except startup.StartupError as e:
        return _fail(e, e.line, e.code, debug, err, as_json)
    except Exception as e:
        return _fail(e, startup.explain(e, settings), 1, debug, err, as_json)
    finally:
        sock.close()
        if lock is not None:
            lock.release()


async def _serve(
    settings: Settings, lock: DataDirLock | None, sock: socket.socket, err: TextIO
) -> int:
    """Open the app (database, rooms), say where it is, serve until a signal."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from shengji import __version__
    from shengji.bots.build import compiled
    from shengji.cli import startup_errors as startup
    from shengji.server.http.app import create_app
    from shengji.server.http.jsonlog import log_json_line, logging_config
    from shengji.server.http.logs import configure_logging
    from shengji.server.live.ws_layer import http_protocol, layer_for
    from shengji.server.live.ws_protocol import WebSocketProtocol
    from shengji.server.table.compiled import build_note, tables_compiled

    if settings.log_format != "json":  # (json: every logger goes to the JSON handler)
        configure_logging(settings.log_level)  # the rooms' and the store's lines, as text
    layer = layer_for(settings.ws_layer, settings.ws_compression)
    app = create_app(settings, lock)
    log_config = logging_config(settings.log_format, settings.log_level)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            lifespan="off",  # run here, so that a failure is ours to explain in one line
            log_level=settings.log_level,
            access_log=settings.access_log,  # off by default: no line per HTTP request
            ws_max_size=max(65536, settings.max_message_bytes * 4),
            ws_per_message_deflate=settings.ws_compression,
            ws=WebSocketProtocol,  # websockets-sansio, reading paused only when needed
            http=http_protocol(layer),  # picows: room sockets to picows (server/ws_picows.py)
            log_config=LOGGING_CONFIG if log_config is None else log_config,
        )
    )
    stopped: list[int] = []

    def stop(sig: int, _frame: FrameType | None) -> None:
        stopped.append(sig)  # before serving: do not start; uvicorn hands signals back here
        server.should_exit = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            async with app.router.lifespan_context(app):
                if not stopped:
                    port = sock.getsockname()[1]
                    url = browser_url(settings.host, port)
                    if settings.log_format == "json":
                        line = log_json_line(
                            "info", "shengji.serve", f"listening on {url}", url=url,
                            version=__version__, share=_share_urls(settings.host, port),
                            bots_compiled=compiled(), tables_compiled=tables_compiled(),
                            ws_layer=layer,
                        )
                        print(line, flush=True)
                    else:
                        print(f"open {url} in a browser", flush=True)
                        _print_share(settings.host, port)
                        print(build_note(), flush=True)
                        print(f"room sockets: {layer}", flush=True)
                    await server.serve(sockets=[sock])
        except Exception as e:
            raise startup.StartupError(startup.explain(e, settings)) from e
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def _share_urls(host: str, port: int) -> list[str]:
    """The URLs players on the network open (server/http/lan.py)."""
    from shengji.server.http.lan import share_urls

    return share_urls(host, port)


def _print_share(host: str, port: int) -> None:
    """Say what the other players open: the LAN address (``--host 0.0.0.0``), or that
    only this machine can connect."""
    from shengji.server.http.lan import is_loopback

    for url in _share_urls(host, port):
        print(f"players on your network open {url}", flush=True)
    if is_loopback(host):
        print(
            "only this machine can connect; to play with others on your network, "
            "run: shengji serve --host 0.0.0.0",
            flush=True,
        )


def _fail(
    exc: BaseException, line: str, code: int, debug: bool, err: TextIO, as_json: bool = False
) -> int:
    if as_json:  # one JSON line on stdout, like every other line of a JSON-logging server
        from shengji.server.http.jsonlog import log_json_line

        fields: dict[str, Any] = {"exit": code}
        if debug:
            fields["exc"] = "".join(traceback.format_exception(exc))
        print(log_json_line("error", "shengji.serve", line, **fields), flush=True)
        return code
    if debug:
        traceback.print_exception(exc, file=err)
    err.write(f"shengji serve: {line}\n")
    err.flush()
    return code
