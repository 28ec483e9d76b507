"""The database flags the admin commands share (``shengji db``, ``shengji rooms``).

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_database_flags(p)
>>> database_overrides(p.parse_args(["--data-dir", "d"]))
{'data_dir': 'd'}
"""

from __future__ import annotations

import argparse
from typing import Any


def add_database_flags(parser: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--database-url``, as ``shengji serve`` reads them."""
    parser.add_argument("--data-dir", help="the server's data dir (default ./shengji-data)")
    parser.add_argument("--database-url", help="SQLAlchemy async URL instead of the data dir")


def database_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The flags given, as ``Settings`` overrides."""
    return {k: getattr(args, k) for k in ("data_dir", "database_url") if getattr(args, k)}
