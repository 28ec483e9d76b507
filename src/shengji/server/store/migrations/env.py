"""Alembic's environment: runs the revisions on the connection server/store/schema.py hands it
(``config.attributes["connection"]``, a synchronous connection of the server's async
engine, inside its transaction). Loaded by Alembic only."""

from __future__ import annotations

from alembic import context

from shengji.server.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError(
        "run migrations through shengji (`shengji db upgrade`, server/store/schema.py), "
        "which hands Alembic a connection"
    )
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters a table by copying it
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
