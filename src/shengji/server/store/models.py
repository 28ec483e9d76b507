"""The server's tables (SQLAlchemy 2 declarative models); ``storage.Store`` is the one
repository that reads and writes them.

``players`` (guest name + hash of the session token), ``rooms`` (ruleset, seed, stored
state), ``room_log`` (every sequenced room message, game actions among them, written before
it is sent), ``games`` and ``game_players`` (finished matches), ``room_quarantine``;
for stakes (docs/rules.md 75–89) ``player_stakes``, ``room_stakes``, ``deal_settlements``
(the key that keeps settling idempotent) and ``stake_ledger``; ``heartbeat`` (the health
probe's row); ``room_lease`` (which process runs each room, under which fencing epoch) and
``instances`` (the processes sharing the database, with the address clients reach them at),
server/store/lease_store.py.
"""

from __future__ import annotations

import time

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class PlayerRow(Base):
    """A guest player: a name and the hash of the token its client holds."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created: Mapped[float] = mapped_column(Float)


class SavedRulesRow(Base):
    """A player's saved house rules: a name, the preset and the options over it (JSON)."""

    __tablename__ = "saved_rules"
    __table_args__ = (UniqueConstraint("player_id", "name", name="uq_saved_rules_player_name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[str] = mapped_column(Text)
    saved: Mapped[float] = mapped_column(Float)


class RoomRow(Base):
    """A room: what it plays and (in ``state``) who sits where, as JSON."""

    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    preset: Mapped[str] = mapped_column(String(32))
    ruleset: Mapped[str] = mapped_column(Text)
    seed: Mapped[str] = mapped_column(String(64))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    max_deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    state: Mapped[str] = mapped_column(Text)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)


class LogRow(Base):
    """One sequenced room message; ``kind`` ``action`` rows are replayed on restart.

    ``pos`` is the row's place in its room's log (1, 2, 3 ..., given by the room's table)
    and ``(room_id, pos)`` the log's unique key: two writers can never both append the
    same place. ``seq`` is the message's sequence number as clients see it, which a
    message for one seat only (a hidden declaration) shares with the message before it."""

    __tablename__ = "room_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    pos: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    match_no: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    epoch: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """The lease epoch it was written under (None: before leases, or an unfenced tool)."""
    __table_args__ = (
        Index("ix_room_log_room_match", "room_id", "match_no", "kind"),
        Index("uq_room_log_room_pos", "room_id", "pos", unique=True),  # one row per place
    )


class RoomLeaseRow(Base):
    """Which process runs a room: its instance id, the fencing epoch (bumped by every
    claim) and until when; ``address``: where clients reach that process."""

    __tablename__ = "room_lease"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(128), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    address: Mapped[str | None] = mapped_column(String(256), nullable=True)


class InstanceRow(Base):
    """A server process sharing the database: its address and when it was last alive."""

    __tablename__ = "instances"
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    address: Mapped[str | None] = mapped_column(String(256), nullable=True)
    started: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float, index=True)


class GameRow(Base):
    """A finished match as a GameRecord JSON document."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    match_no: Mapped[int] = mapped_column(Integer)
    record: Mapped[str] = mapped_column(Text)
    finished: Mapped[float] = mapped_column(Float)


class GamePlayerRow(Base):
    """Which player sat where in a game."""

    __tablename__ = "game_players"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)


class QuarantineRow(Base):
    """A room set aside: it could not be restored, or it failed while running. It is never
    loaded again until an admin releases it (``shengji rooms release``)."""

    __tablename__ = "room_quarantine"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


# ---------------------------------------------------------------------------- stakes

STARTING_RATING = 0
"""A new player's rating (积分); ratings may go below zero."""
STARTING_COINS = 10_000
"""A new player's game coins (游戏币); balances may go below zero (play money)."""
STARTING_BEANS = 10_000
"""A new player's 欢乐豆."""


class PlayerStakesRow(Base):
    """A player's rating and balances, and how many deals moved each."""

    __tablename__ = "player_stakes"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[int] = mapped_column(Integer, default=STARTING_RATING)
    coins: Mapped[int] = mapped_column(Integer, default=STARTING_COINS)
    beans: Mapped[int] = mapped_column(Integer, default=STARTING_BEANS)
    rating_deals: Mapped[int] = mapped_column(Integer, default=0)
    coins_deals: Mapped[int] = mapped_column(Integer, default=0)
    beans_deals: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RoomStakesRow(Base):
    """What a room plays for (``StakeRules`` as JSON); rooms without a row are plain."""

    __tablename__ = "room_stakes"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(Text)


class DealSettlementRow(Base):
    """One settled deal: its key makes settling idempotent (a replayed deal is refused)."""

    __tablename__ = "deal_settlements"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    match_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(Text)
    """The settlement as JSON: deltas per seat, base, multiplier, house take, reason."""
    at: Mapped[float] = mapped_column(Float)


class LedgerRow(Base):
    """One player's change in one deal: the delta, the balance after it and why."""

    __tablename__ = "stake_ledger"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    room_id: Mapped[int] = mapped_column(Integer)
    match_no: Mapped[int] = mapped_column(Integer)
    deal_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    delta: Mapped[int] = mapped_column(Integer)
    balance: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    __table_args__ = (
        Index("ix_stake_ledger_player", "player_id", "id"),
        UniqueConstraint("room_id", "match_no", "deal_no", "seat"),
    )


class HeartbeatRow(Base):
    """One row the health probe rewrites to learn whether the database takes writes."""

    __tablename__ = "heartbeat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)


def new_stakes(player_id: str) -> PlayerStakesRow:
    """A player's starting rating and balances."""
    return PlayerStakesRow(
        player_id=player_id,
        rating=STARTING_RATING,
        coins=STARTING_COINS,
        beans=STARTING_BEANS,
        rating_deals=0,
        coins_deals=0,
        beans_deals=0,
        updated=time.time(),
    )
