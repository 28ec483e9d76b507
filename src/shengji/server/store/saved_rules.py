"""A player's saved house rules (``saved_rules``): named ``{preset, options}`` rule sets
the create-room form saves and loads (``/api/me/rules``). The caller checks them first
(``server/table/rule_fields.check_rules``); this keeps at most ``MAX_SAVED`` per player.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import delete, func, select

from shengji.server.store.models import SavedRulesRow
from shengji.server.store.repository import Repository, reports_health

MAX_SAVED = 50
"""Rule sets one player may keep."""


class TooManySaved(Exception):
    """The player keeps ``MAX_SAVED`` rule sets already."""


class SavedRules(Repository):
    """The ``saved_rules`` table."""

    async def of_player(self, pid: str) -> list[dict[str, Any]]:
        """``[{"name", "preset", "options", "saved"}]``, by name."""
        async with self.sessions() as s:
            rows = (await s.execute(
                select(SavedRulesRow).where(SavedRulesRow.player_id == pid)
                .order_by(SavedRulesRow.name)
            )).scalars().all()
        return [{"name": r.name, "preset": r.preset, "options": json.loads(r.options),
                 "saved": r.saved} for r in rows]

    @reports_health
    async def save(self, pid: str, name: str, preset: str, options: dict[str, Any]) -> None:
        """Keep (or replace) the rule set ``name`` of player ``pid``."""
        text = json.dumps(options, sort_keys=True, separators=(",", ":"))
        async with self.sessions.begin() as s:
            row = (await s.execute(select(SavedRulesRow).where(
                SavedRulesRow.player_id == pid, SavedRulesRow.name == name
            ))).scalar_one_or_none()
            if row is None:
                n = (await s.execute(select(func.count()).select_from(SavedRulesRow).where(
                    SavedRulesRow.player_id == pid))).scalar_one()
                if n >= MAX_SAVED:
                    raise TooManySaved(f"you keep {n} rule sets, the most one player may")
                s.add(SavedRulesRow(player_id=pid, name=name, preset=preset, options=text,
                                    saved=time.time()))
            else:
                row.preset, row.options, row.saved = preset, text, time.time()

    @reports_health
    async def remove(self, pid: str, name: str) -> bool:
        """Forget the rule set ``name``; whether there was one."""
        async with self.sessions.begin() as s:
            done = await s.execute(delete(SavedRulesRow).where(
                SavedRulesRow.player_id == pid, SavedRulesRow.name == name))
        return bool(getattr(done, "rowcount", 0))
