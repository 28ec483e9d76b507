"""The first schema: the tables ``create_all`` made up to shengji 0.1.0.

A database from before migrations (tables made by ``create_all``, no ``alembic_version``)
holds some or all of these tables, with exactly these columns (tables were only ever
added): the tables it lacks are created and the ones it has are kept, so it reaches this
revision with its data (server/store/schema.py checks the columns before it runs).

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _players() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)


def _rooms() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.Text(), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("max_deals", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.String(32), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_rooms_code", "rooms", ["code"], unique=True)


def _room_log() -> None:
    op.create_table(
        "room_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_room_log_room_match", "room_log", ["room_id", "match_no", "kind"])


def _games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=False),
    )


def _game_players() -> None:
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def _room_quarantine() -> None:
    op.create_table(
        "room_quarantine",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def _player_stakes() -> None:
    op.create_table(
        "player_stakes",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("coins", sa.Integer(), nullable=False),
        sa.Column("beans", sa.Integer(), nullable=False),
        sa.Column("rating_deals", sa.Integer(), nullable=False),
        sa.Column("coins_deals", sa.Integer(), nullable=False),
        sa.Column("beans_deals", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )


def _room_stakes() -> None:
    op.create_table(
        "room_stakes",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("rules", sa.Text(), nullable=False),
    )


def _deal_settlements() -> None:
    op.create_table(
        "deal_settlements",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("match_no", sa.Integer(), primary_key=True),
        sa.Column("deal_no", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def _stake_ledger() -> None:
    op.create_table(
        "stake_ledger",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.UniqueConstraint("room_id", "match_no", "deal_no", "seat"),
    )
    op.create_index("ix_stake_ledger_player", "stake_ledger", ["player_id", "id"])


def _heartbeat() -> None:
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )


TABLES: dict[str, Callable[[], None]] = {
    "players": _players,
    "rooms": _rooms,
    "room_log": _room_log,
    "games": _games,
    "game_players": _game_players,
    "room_quarantine": _room_quarantine,
    "player_stakes": _player_stakes,
    "room_stakes": _room_stakes,
    "deal_settlements": _deal_settlements,
    "stake_ledger": _stake_ledger,
    "heartbeat": _heartbeat,
}
"""Every table of this revision, parents before children (foreign keys)."""

COLUMNS: dict[str, frozenset[str]] = {
    "players": frozenset({"id", "name", "token_hash", "created"}),
    "rooms": frozenset(
        {"id", "code", "preset", "ruleset", "seed", "private", "max_deals", "created_by",
         "state", "closed", "created"}
    ),
    "room_log": frozenset({"id", "room_id", "seq", "match_no", "kind", "data", "at"}),
    "games": frozenset({"id", "room_id", "match_no", "record", "finished"}),
    "game_players": frozenset({"game_id", "seat", "player_id"}),
    "room_quarantine": frozenset({"room_id", "reason", "at"}),
    "player_stakes": frozenset(
        {"player_id", "rating", "coins", "beans", "rating_deals", "coins_deals",
         "beans_deals", "updated"}
    ),
    "room_stakes": frozenset({"room_id", "rules"}),
    "deal_settlements": frozenset({"room_id", "match_no", "deal_no", "kind", "detail", "at"}),
    "stake_ledger": frozenset(
        {"id", "player_id", "room_id", "match_no", "deal_no", "seat", "kind", "delta",
         "balance", "reason", "at"}
    ),
    "heartbeat": frozenset({"id", "at"}),
}
"""The columns of each table: what a database from before migrations must have."""


def upgrade() -> None:
    """Create the tables the database lacks (all of them in an empty one)."""
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for name, create in TABLES.items():
        if name not in existing:
            create()


def downgrade() -> None:
    """Drop every table of the first schema (children first)."""
    for name in reversed(TABLES):
        op.drop_table(name)
