"""Players: guests with a name and a session token (only its hash is stored).

>>> hash_token("t") == hash_token("t") != hash_token("u")
True
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from dataclasses import dataclass

from sqlalchemy import select

from shengji.server.store.models import PlayerRow
from shengji.server.store.models import new_stakes as _new_stakes
from shengji.server.store.repository import Repository, reports_health


def hash_token(token: str) -> str:
    """What is stored of a session token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Player:
    """A player as the server knows it."""

    id: str
    name: str


class Players(Repository):
    """The ``players`` table (and each new player's starting stakes row)."""

    @reports_health
    async def create(self, name: str) -> tuple[Player, str]:
        """A new guest and its session token (shown once)."""
        token = secrets.token_urlsafe(32)
        pid = uuid.uuid4().hex
        async with self.sessions.begin() as s:
            s.add(PlayerRow(id=pid, name=name, token_hash=hash_token(token), created=time.time()))
            await s.flush()
            s.add(_new_stakes(pid))
        return Player(pid, name), token

    async def by_token(self, token: str) -> Player | None:
        """The player holding ``token``."""
        async with self.sessions() as s:
            row = (
                await s.execute(select(PlayerRow).where(PlayerRow.token_hash == hash_token(token)))
            ).scalar_one_or_none()
        return None if row is None else Player(row.id, row.name)

    async def get(self, pid: str) -> Player | None:
        """A player by id."""
        async with self.sessions() as s:
            row = await s.get(PlayerRow, pid)
        return None if row is None else Player(row.id, row.name)
