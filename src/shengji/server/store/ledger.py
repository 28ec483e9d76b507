"""Stakes: players' ratings and balances, the ledger (one row per player and deal), and
settling a deal exactly once (``settle_deal``: one transaction, keyed by room, match, deal).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from shengji.core.stakes import Settlement, StakeRules, settle
from shengji.core.state import DealResult
from shengji.server.store.lease_rules import LeaseLost
from shengji.server.store.models import (
    DealSettlementRow,
    LedgerRow,
    PlayerRow,
    PlayerStakesRow,
    RoomStakesRow,
)
from shengji.server.store.models import new_stakes as _new_stakes
from shengji.server.store.repository import Repository, reports_health


class Ledger(Repository):
    """The ``player_stakes``, ``ledger``, ``deal_settlements`` tables (and ``room_stakes``
    read back)."""

    @reports_health
    async def settle_deal(
        self,
        room_id: int,
        match_no: int,
        deal_no: int,
        result: DealResult,
        rules: StakeRules,
        players: Sequence[str | None],
    ) -> Settlement | None:
        """Apply a finished deal's stakes to the players' rating or balance, with one ledger
        row per player, in ONE transaction. A deal already settled (same room, match and
        deal) changes nothing: None. ``players`` per seat, None for an unrated seat (a bot).
        ``LeaseLost`` if another process runs the room now (it settles the deal).
        """
        if rules.kind == "plain":
            return None
        kind = rules.kind
        now = time.time()
        try:
            async with self.sessions.begin() as s:
                if await self.fences.refused(s, [room_id]):
                    raise LeaseLost(room_id)
                # The key first: it refuses a second settlement of the deal and (SQLite)
                # takes the write lock before anything is read.
                key = DealSettlementRow(
                    room_id=room_id,
                    match_no=match_no,
                    deal_no=deal_no,
                    kind=kind,
                    detail="",
                    at=now,
                )
                s.add(key)
                await s.flush()
                humans = sorted({p for p in players if p})
                rows = {
                    r.player_id: r
                    for r in (
                        await s.execute(
                            select(PlayerStakesRow)
                            .where(PlayerStakesRow.player_id.in_(humans))
                            .with_for_update()
                        )
                    ).scalars()
                }
                for new in humans:
                    if new not in rows:  # a player from before stakes existed
                        rows[new] = _new_stakes(new)
                        s.add(rows[new])
                settlement = settle(result, rules, [rows[p].rating if p else None for p in players])
                for seat, pid in enumerate(players):
                    if not pid:
                        continue
                    row, delta = rows[pid], settlement.deltas[seat]
                    balance = getattr(row, kind) + delta
                    setattr(row, kind, balance)
                    setattr(row, f"{kind}_deals", getattr(row, f"{kind}_deals") + 1)
                    row.updated = now
                    s.add(
                        LedgerRow(
                            player_id=pid,
                            room_id=room_id,
                            match_no=match_no,
                            deal_no=deal_no,
                            seat=seat,
                            kind=kind,
                            delta=delta,
                            balance=balance,
                            reason=settlement.reason,
                            at=now,
                        )
                    )
                key.detail = json.dumps(
                    {
                        "players": list(players),
                        "deltas": list(settlement.deltas),
                        "base": settlement.base,
                        "multiplier": settlement.multiplier,
                        "house": settlement.house,
                        "reason": settlement.reason,
                        "rules": rules.to_dict(),
                    }
                )
        except IntegrityError:
            if deal_no in await self.settled_deals(room_id, match_no):
                return None
            raise
        return settlement

    async def settled_deals(self, room_id: int, match_no: int) -> set[int]:
        """Deal numbers of a room's match whose stakes are settled."""
        async with self.sessions() as s:
            rows = await s.execute(
                select(DealSettlementRow.deal_no).where(
                    DealSettlementRow.room_id == room_id, DealSettlementRow.match_no == match_no
                )
            )
            return set(rows.scalars())

    async def of_room(self, room_id: int) -> dict[str, Any] | None:
        """What a room plays for (``StakeRules.to_dict``), None for a plain room."""
        async with self.sessions() as s:
            row = await s.get(RoomStakesRow, room_id)
        return None if row is None else dict(json.loads(row.rules))

    async def leaderboard(self, kind: str, limit: int = 50) -> list[dict[str, Any]]:
        """Players by rating, coins or 欢乐豆, highest first; only those with a settled deal
        of that kind. ``[{"rank", "player", "name", "value", "deals"}]``."""
        if kind not in ("rating", "coins", "beans"):
            raise ValueError("kind is rating, coins or beans")
        value = getattr(PlayerStakesRow, kind)
        deals = getattr(PlayerStakesRow, f"{kind}_deals")
        async with self.sessions() as s:
            rows = (
                await s.execute(
                    select(PlayerStakesRow.player_id, PlayerRow.name, value, deals)
                    .join(PlayerRow, PlayerRow.id == PlayerStakesRow.player_id)
                    .where(deals > 0)
                    .order_by(value.desc(), deals.desc(), PlayerStakesRow.player_id)
                    .limit(limit)
                )
            ).all()
        return [
            {"rank": i + 1, "player": r[0], "name": r[1], "value": r[2], "deals": r[3]}
            for i, r in enumerate(rows)
        ]

    async def of_player(self, player_id: str, limit: int = 20) -> dict[str, Any]:
        """A player's rating, balances, deal counts and last ``limit`` ledger rows (newest
        first); starting values for a player who has none yet."""
        async with self.sessions() as s:
            row = await s.get(PlayerStakesRow, player_id)
            ledger = (
                await s.execute(
                    select(LedgerRow)
                    .where(LedgerRow.player_id == player_id)
                    .order_by(LedgerRow.id.desc())
                    .limit(limit)
                )
            ).scalars()
            recent = [
                {
                    "kind": r.kind,
                    "delta": r.delta,
                    "balance": r.balance,
                    "reason": r.reason,
                    "room_id": r.room_id,
                    "match_no": r.match_no,
                    "deal_no": r.deal_no,
                    "seat": r.seat,
                    "at": r.at,
                }
                for r in ledger
            ]
        row = row or _new_stakes(player_id)
        return {
            "rating": row.rating,
            "coins": row.coins,
            "beans": row.beans,
            "deals": {k: getattr(row, f"{k}_deals") for k in ("rating", "coins", "beans")},
            "ledger": recent,
        }
