"""Which optional parts of shengji are installed.

``pip install shengji`` is the core: the rules engine, the judge, the bots and the
``judge`` / ``demo`` / ``arena`` / ``ladder`` / ``replay`` / ``play`` commands, with the
standard library and ``rich`` (the arena's progress bar). The server commands (``serve``,
``rooms``, ``db``) need the ``server`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic ...):
``pip install 'shengji[server]'``. Without it they say so in one line, not a traceback.

>>> requirement_name('sqlalchemy[asyncio]>=2.0.36,<3; extra == "server"')
'sqlalchemy'
>>> extra_of('alembic>=1.14; extra == "server"'), extra_of("fastapi>=0.115")
('server', None)
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re

SERVER_INSTALL = "pip install 'shengji[server]'"
"""How to add the server's packages."""

FALLBACK_MODULES = (
    "fastapi",
    "uvicorn",
    "websockets",
    "msgspec",
    "sqlalchemy",
    "aiosqlite",
    "pydantic_settings",
    "limits",
    "alembic",
    "prometheus_client",
)
"""What the server imports, checked when shengji runs from a source tree without its
package metadata (``PYTHONPATH=src``)."""


def requirement_name(requirement: str) -> str:
    """The distribution a requirement string names."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match.group(1) if match else requirement.strip()


def extra_of(requirement: str) -> str | None:
    """The extra a requirement belongs to (``extra == "server"``), None for a core one."""
    match = re.search(r"""extra\s*==\s*['"]([^'"]+)['"]""", requirement)
    return match.group(1) if match else None


def missing_for(extra: str) -> list[str]:
    """The distributions of ``extra`` that are not installed, in pyproject's order."""
    try:
        requirements = importlib.metadata.requires("shengji") or []
    except importlib.metadata.PackageNotFoundError:
        return [m for m in FALLBACK_MODULES if importlib.util.find_spec(m) is None]
    missing: list[str] = []
    for req in requirements:
        name = requirement_name(req)
        if extra_of(req) != extra or name == "shengji" or name in missing:
            continue
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def server_missing_line(command: str) -> str | None:
    """One line for ``shengji <command>`` when the server's packages are not installed;
    None when they are."""
    missing = missing_for("server")
    if not missing:
        return None
    shown = ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "")
    return (
        f"shengji {command}: the server's packages are not installed ({shown}): "
        f"{SERVER_INSTALL}"
    )
