"""Room leases: ``room_lease`` and ``instances``; every log row gets its place in
its room's log (``pos``, the log's unique key with the room) and the lease epoch it was
written under (``epoch``).

The log's key is ``(room_id, pos)``, not ``(room_id, seq)``: a message for one seat only (a
hidden declaration, a four-deck private update) is logged under the ``seq`` of the public
message before it, so a room's log may hold several rows of one ``seq``. The rows already
there are numbered 1, 2, 3 ... per room in the order they were written (their ``id``);
nothing is moved or quarantined. (A log that two servers once both wrote, before leases,
keeps all its rows: if it does not replay, the room is quarantined at start as any room
that cannot be restored.) Older rows have no epoch (NULL).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_NUMBER_WINDOWED = """
UPDATE room_log SET pos = numbered.n
FROM (SELECT id, row_number() OVER (PARTITION BY room_id ORDER BY id) AS n FROM room_log)
     AS numbered
WHERE room_log.id = numbered.id
"""
_NUMBER_COUNTED = """
UPDATE room_log SET pos = (
  SELECT count(*) FROM room_log AS earlier
  WHERE earlier.room_id = room_log.room_id AND earlier.id <= room_log.id
)
"""
"""For SQLite older than 3.33 (no ``UPDATE ... FROM``): the same numbers, slower."""


def _number_rows() -> None:
    """``pos`` = the row's place in its room's log, in the order rows were written."""
    bind = op.get_bind()
    windowed = True
    if bind.dialect.name == "sqlite":
        version = bind.exec_driver_sql("SELECT sqlite_version()").scalar_one()
        windowed = tuple(int(x) for x in str(version).split(".")[:2]) >= (3, 33)
    op.execute(_NUMBER_WINDOWED if windowed else _NUMBER_COUNTED)


def upgrade() -> None:
    """The lease tables; the log's positions (existing rows numbered), epochs and key."""
    op.create_table(
        "room_lease",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("address", sa.String(256), nullable=True),
    )
    op.create_index("ix_room_lease_owner", "room_lease", ["owner"])
    op.create_index("ix_room_lease_expires_at", "room_lease", ["expires_at"])
    op.create_table(
        "instances",
        sa.Column("id", sa.String(128), primary_key=True),
        sa.Column("address", sa.String(256), nullable=True),
        sa.Column("started", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_instances_seen_at", "instances", ["seen_at"])
    with op.batch_alter_table("room_log") as batch:
        batch.add_column(sa.Column("pos", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("epoch", sa.BigInteger(), nullable=True))
    _number_rows()
    with op.batch_alter_table("room_log") as batch:
        batch.alter_column("pos", existing_type=sa.Integer(), nullable=False)
    op.create_index("uq_room_log_room_pos", "room_log", ["room_id", "pos"], unique=True)


def downgrade() -> None:
    """Back to 0001 (the log keeps its rows; positions and epochs are dropped)."""
    op.drop_index("uq_room_log_room_pos", table_name="room_log")
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("epoch")
        batch.drop_column("pos")
    op.drop_index("ix_instances_seen_at", table_name="instances")
    op.drop_table("instances")
    op.drop_index("ix_room_lease_expires_at", table_name="room_lease")
    op.drop_index("ix_room_lease_owner", table_name="room_lease")
    op.drop_table("room_lease")
