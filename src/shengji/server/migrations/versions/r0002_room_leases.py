"""Room leases (issue 16): ``room_lease`` and ``instances``; one log row per (room, seq),
each with the lease epoch it was written under.

Before leases, two processes on one database could both run a room and write its sequence
numbers twice. Such rows cannot stay under the new unique key: every row after the first
of a (room, seq) is moved to ``room_log_duplicates`` (nothing is deleted) and its room is
quarantined (``shengji rooms quarantined`` names it; an admin may release it).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_LATER_DUPLICATES = (
    "FROM room_log WHERE id NOT IN "
    "(SELECT min(id) FROM room_log GROUP BY room_id, seq)"
)


def upgrade() -> None:
    """The lease tables; duplicated log rows set aside; the log's unique key."""
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
    op.create_table(
        "room_log_duplicates",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    cols = "id, room_id, seq, match_no, kind, data, at"
    op.execute(f"INSERT INTO room_log_duplicates ({cols}) SELECT {cols} {_LATER_DUPLICATES}")
    op.execute(
        sa.text(
            "INSERT INTO room_quarantine (room_id, reason, at) "
            "SELECT DISTINCT room_id, :why, :at FROM room_log_duplicates "
            "WHERE room_id NOT IN (SELECT room_id FROM room_quarantine)"
        ).bindparams(
            why="migration 0002: its log had sequence numbers written twice (two servers "
            "ran it); the later rows are in room_log_duplicates",
            at=time.time(),
        )
    )
    op.execute(f"DELETE {_LATER_DUPLICATES}")
    op.create_index("uq_room_log_room_seq", "room_log", ["room_id", "seq"], unique=True)
    op.add_column("room_log", sa.Column("epoch", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    """Back to 0001 (the set-aside rows return to the log)."""
    with op.batch_alter_table("room_log") as batch:
        batch.drop_column("epoch")
    op.drop_index("uq_room_log_room_seq", table_name="room_log")
    cols = "id, room_id, seq, match_no, kind, data, at"
    op.execute(f"INSERT INTO room_log ({cols}) SELECT {cols} FROM room_log_duplicates")
    op.drop_table("room_log_duplicates")
    op.drop_index("ix_instances_seen_at", table_name="instances")
    op.drop_table("instances")
    op.drop_index("ix_room_lease_expires_at", table_name="room_lease")
    op.drop_index("ix_room_lease_owner", table_name="room_lease")
    op.drop_table("room_lease")
