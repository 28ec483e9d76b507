"""The database flags the admin commands share (``shengji db``, ``shengji rooms``), and the
one line they print when the database is not there or its driver is not installed.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_database_flags(p)
>>> database_overrides(p.parse_args(["--data-dir", "d"]))
{'data_dir': 'd'}
>>> missing_driver("sqlite+aiosqlite:///x.db") is None
True
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shengji.server.settings import Settings


def add_database_flags(parser: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--database-url``, as ``shengji serve`` reads them."""
    parser.add_argument("--data-dir", help="the server's data dir (default ./shengji-data)")
    parser.add_argument("--database-url", help="SQLAlchemy async URL instead of the data dir")


def database_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The flags given, as ``Settings`` overrides."""
    return {k: getattr(args, k) for k in ("data_dir", "database_url") if getattr(args, k)}


POSTGRES_INSTALL = "pip install 'shengji[postgres]'"
"""How to add the PostgreSQL driver (asyncpg)."""


def missing_driver(url: str) -> str | None:
    """What is wrong when the database ``url`` names cannot be reached for want of its
    Python driver (``postgresql+asyncpg://`` without asyncpg), in words that follow "the
    database ..."; None when the driver imports. A password in the URL is shown as ``***``."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
        shown = parsed.render_as_string(hide_password=True)
        parsed.get_dialect().import_dbapi()
    except ModuleNotFoundError as e:
        extra = f" ({POSTGRES_INSTALL})" if e.name == "asyncpg" else ""
        return f"{shown} needs the Python package {e.name!r}{extra}"
    except NoSuchModuleError:
        return f"{shown} names a database kind SQLAlchemy does not know"
    except ArgumentError as e:
        return f"URL {url[:60]!r} is not a database URL ({e})"
    return None


def database_problem(settings: Settings, command: str) -> str | None:
    """Why ``shengji <command>`` cannot open the database ``settings`` names, as the one
    line it prints: no SQLite file in the data dir (rather than make an empty one), or the
    URL's driver not installed; None when neither."""
    if not settings.database_url:
        db = Path(settings.data_dir) / "shengji.db"
        if not db.is_file():
            return f"shengji {command}: no database at {db} (check --data-dir)"
    missing = missing_driver(settings.resolved_database_url())
    return None if missing is None else f"shengji {command}: the database {missing}"
