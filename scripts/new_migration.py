"""Write the next migration: compare the models (server/store/storage.py) with a database at the
current head and let Alembic draft the revision.

    .venv/bin/python scripts/new_migration.py "room_log: unique (room_id, seq)"

The draft lands in src/shengji/server/store/migrations/versions/r<NNNN>_<slug>.py. Read it and
fix it by hand where needed (Alembic does not see renames, and a SQLite change of a
column runs in batch mode); tests/server/test_migrations.py then checks on SQLite and
PostgreSQL that the head equals the models.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from alembic import command
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from shengji.server.store import schema


def _draft(conn: Connection, message: str) -> None:
    cfg = schema._config()
    cfg.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    cfg.attributes["connection"] = conn
    rev_id = f"{int(schema.head_revision()) + 1:04d}"
    command.revision(cfg, message=message, autogenerate=True, rev_id=rev_id)


async def main(message: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = create_async_engine(f"sqlite+aiosqlite:///{Path(tmp) / 'head.db'}")
        try:
            await schema.prepare(engine)  # an empty database: migrated to the head
            async with engine.begin() as conn:
                await conn.run_sync(_draft, message)
        finally:
            await engine.dispose()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit('usage: scripts/new_migration.py "what changed"')
    asyncio.run(main(sys.argv[1]))
