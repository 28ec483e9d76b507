"""``shengji rooms``: look after a server's rooms from the command line.

    shengji rooms quarantined --data-dir ./shengji-data      # rooms set aside, and why
    shengji rooms release 3fQx --data-dir ./shengji-data     # try one again at next start
    shengji rooms release --data-dir ./shengji-data -- -x9Q # a code that begins with -

A room is quarantined when it could not be restored at start or failed while running
(server/live/quarantine.py); the server never loads it again until it is released. Reading the
list is safe while the server runs (SQLite allows readers beside the writer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any, TextIO

from shengji.cli.db_flags import add_database_flags, database_overrides, database_problem


def add_rooms(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """The ``rooms`` subcommand and its actions (the caller sets its function)."""
    p = sub.add_parser(
        "rooms",
        help="server admin: list quarantined rooms, release one",
        description="Look after a server's rooms (the server may be running).",
    )
    acts = p.add_subparsers(dest="rooms_command", required=True)
    q = acts.add_parser("quarantined", help="rooms set aside after a failure, and why")
    q.add_argument("--json", action="store_true", help="one JSON array")
    r = acts.add_parser("release", help="let a quarantined room be restored at the next start")
    r.add_argument("code", help="the room's code (or a unique beginning of it)")
    for a in (q, r):
        add_database_flags(a)
    return p


def rooms_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``shengji rooms <action>``; 0 on success, 1 when there is nothing to act on."""
    from shengji.server.settings import Settings

    overrides = database_overrides(args)
    settings = Settings(**overrides)
    problem = database_problem(settings, "rooms")
    if problem is not None:
        err.write(problem + "\n")
        return 1
    return asyncio.run(_run(args, settings, out, err))


async def _run(args: argparse.Namespace, settings: Any, out: TextIO, err: TextIO) -> int:
    from shengji.cli.startup_errors import schema_line
    from shengji.server.store.schema import SchemaError
    from shengji.server.store.storage import Store

    store = Store(settings.resolved_database_url())
    try:
        await store.start()
    except SchemaError as e:
        await store.close()
        err.write(f"shengji rooms: {schema_line(e, settings)}\n")
        return 1
    try:
        if args.rooms_command == "release":
            if await store.rooms.release(args.code):
                out.write(f"released {args.code}: the server restores it at its next start\n")
                return 0
            err.write(f"shengji rooms: no quarantined room (or several) matches {args.code!r}\n")
            return 1
        rows = await store.rooms.quarantined()
    finally:
        await store.close()
    if args.json:
        out.write(json.dumps(rows, ensure_ascii=False) + "\n")
    elif not rows:
        out.write("no quarantined rooms\n")
    else:
        for row in rows:
            out.write(_line(row) + "\n")
    return 0


def _line(row: dict[str, Any]) -> str:
    """``<code>  #<id>  <preset>  <when>  <reason>``."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["at"]))
    return f"{row['code']}  #{row['id']}  {row['preset']}  {when}  {row['reason']}"
