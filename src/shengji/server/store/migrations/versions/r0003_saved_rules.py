"""Saved house rules: ``saved_rules``, a player's named rule sets (a preset and the
options over it, as the create-room form's rules file holds them). Nothing else changes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The ``saved_rules`` table (empty)."""
    op.create_table(
        "saved_rules",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("saved", sa.Float(), nullable=False),
        sa.UniqueConstraint("player_id", "name", name="uq_saved_rules_player_name"),
    )
    op.create_index("ix_saved_rules_player_id", "saved_rules", ["player_id"])


def downgrade() -> None:
    """Back to 0002: the saved rule sets are dropped."""
    op.drop_index("ix_saved_rules_player_id", table_name="saved_rules")
    op.drop_table("saved_rules")
