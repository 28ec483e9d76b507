"""``shengji db``: the server database's schema (server/store/schema.py).

    shengji db upgrade --data-dir ./shengji-data      # to the newest schema, data kept
    shengji db upgrade --database-url postgresql+asyncpg://shengji@db/shengji
    shengji db current --data-dir ./shengji-data      # its version, and what to do

A server does not start on a database with an older schema (a one-line error names the
command); ``upgrade`` moves it to the newest, and a database made before migrations
(shengji 0.1.0 or before) first gets the tables it lacks. Stop the servers that use the
database first (a running one keeps writing in the old shape); on SQLite, ``upgrade``
refuses while a server holds the data dir.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import TYPE_CHECKING, TextIO

from shengji.cli.db_flags import add_database_flags, database_overrides, database_problem

if TYPE_CHECKING:
    from shengji.server.settings import Settings


def add_db(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """The ``db`` subcommand and its actions (the caller sets its function)."""
    p = sub.add_parser(
        "db",
        help="server admin: the database's schema version; upgrade it",
        description="The server database's schema: show its version, upgrade it.",
    )
    acts = p.add_subparsers(dest="db_command", required=True)
    u = acts.add_parser("upgrade", help="move the database to this shengji's schema")
    c = acts.add_parser("current", help="the database's schema version and what to do")
    c.add_argument("--json", action="store_true", help="one JSON object")
    for a in (u, c):
        add_database_flags(a)
    return p


def db_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``shengji db <action>``; 0 on success, 1 on a failure (one line on ``err``)."""
    from pydantic import ValidationError

    from shengji.server.settings import Settings

    overrides = database_overrides(args)
    try:
        settings = Settings(**overrides)
    except ValidationError as e:
        err.write(f"shengji db: {e.errors()[0]['msg']}\n")
        return 2
    problem = database_problem(settings, "db")
    if problem is not None:
        err.write(problem + "\n")
        return 1
    return asyncio.run(_run(args, settings, out, err))


async def _run(args: argparse.Namespace, settings: Settings, out: TextIO, err: TextIO) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.ext.asyncio import create_async_engine

    from shengji.server.store import schema
    from shengji.server.store.datadir_lock import DataDirInUse, DataDirLock

    url = settings.resolved_database_url()
    shown = make_url(url).render_as_string(hide_password=True)
    try:  # a server using the SQLite file holds its lock: upgrade only once it stopped
        lock = DataDirLock.acquire(url) if args.db_command == "upgrade" else None
    except DataDirInUse as e:
        who = f" (pid {e.holder})" if e.holder else ""
        err.write(
            f"shengji db: the data dir {e.path.parent} is in use by a shengji server{who}: "
            "stop it before upgrading\n"
        )
        return 1
    engine = create_async_engine(url)
    try:
        if args.db_command == "current":
            info = schema.describe(await schema.state_of(engine))
            if args.json:
                out.write(json.dumps(info) + "\n")
            else:
                out.write(
                    f"{shown}: schema {info['revision'] or '(none)'}"
                    f"{' (tables from before migrations)' if info['legacy'] else ''}, "
                    f"newest {info['head']}; to do: {info['action']}\n"
                )
            return 0
        before, after = await schema.upgrade(engine)
    except schema.SchemaError as e:
        err.write(f"shengji db: the database {shown} {e}\n")
        return 1
    except (SQLAlchemyError, OSError) as e:
        err.write(f"shengji db: the database {shown} cannot be used ({_first_line(e)})\n")
        return 1
    finally:
        await engine.dispose()
        if lock is not None:
            lock.release()
    was = before.revision or ("the tables of shengji 0.1.0" if before.legacy else "empty")
    if before.revision == after:
        out.write(f"{shown}: already at schema {after}\n")
    else:
        out.write(f"{shown}: upgraded from {was} to schema {after}\n")
    return 0


def _first_line(e: BaseException) -> str:
    orig = getattr(e, "orig", None) or e
    return (str(orig).splitlines() or [type(orig).__name__])[0][:200]
