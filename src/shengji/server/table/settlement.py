"""A deal looked at for settling its stakes, pure: who was on it and what it settled.

The I/O of settling (``Ledger.settle_deal``, one transaction per deal) is in
server/live/stakes.py; the table only carries these values: a ``DealSettled`` in the
command that answers a settlement, the rosters restored from a room's stored state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shengji.core.stakes import DealOutcome, Settlement


@dataclass(frozen=True)
class DealSettled:
    """One deal looked at by ``settle_new_deals``: settled now (``settlement``), or left
    unsettled because a side had no human (``settlement`` None)."""

    deal_no: int
    players: tuple[str | None, ...]
    settlement: Settlement | None

    def wire_deltas(self) -> list[int | None]:
        """The change per seat as clients are told it: None for an unrated seat (a bot, an
        empty seat) and for every seat of a deal that settled nothing."""
        s = self.settlement
        if s is None:
            return [None] * len(self.players)
        return [d if p else None for d, p in zip(s.deltas, self.players, strict=True)]


def rosters_from_state(state: dict[str, Any]) -> dict[int, list[str | None]]:
    """The rosters kept in a room's stored state (``{"rosters": {"0": ["ann", null, ...]}}``).

    >>> rosters_from_state({"rosters": {"1": ["ann", None]}})
    {1: ['ann', None]}
    """
    raw = state.get("rosters") or {}
    return {int(k): [str(p) if p else None for p in v] for k, v in raw.items()}


def human_on_each_side(o: DealOutcome, players: list[str | None]) -> bool:
    """Whether both sides of the deal had a human player (else nothing is settled).

    >>> o = DealOutcome((0, 2), (1, 3), True, 1)
    >>> human_on_each_side(o, ["ann", None, None, "bob"])
    True
    >>> human_on_each_side(o, ["ann", None, "bob", None])
    False
    """
    return any(players[s] for s in o.dealer_side) and any(players[s] for s in o.attackers)
