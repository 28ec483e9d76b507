"""Stakes in rooms: what a room plays for, and settling each finished deal exactly once.

A rating (积分), coin (游戏币) or 欢乐豆 room settles every finished deal
(``core.stakes.settle``) through ``Ledger.settle_deal``: one transaction per deal holding the
players' new rating or balance and their ledger rows, keyed by room, match and deal, so a
deal is never settled twice. ``settle_deals`` runs when a deal ends and when a restored room
starts, so a crash between a deal's last action and its settlement is made good on restart.

Bots are unrated (docs/rules.md, decision 84): only human seats are settled (a human whose
seat a stand-in bot plays for a while still counts), and a deal is settled only when each
side has a human, so nobody gains rating or coins by beating bots.

Who is settled for a deal is fixed when its first card is dealt (decisions 130–134): the
deal's *roster*, the player per seat then (the table fixes it with that card:
``table.play``), kept in the room's row before that card is sent. A player who leaves during
the deal is still on it and pays (or gains); someone who takes the vacated seat is not on it
and is never charged for it, only for the deals whose first card finds them seated.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, MutableMapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from shengji.core.match import MatchState
from shengji.core.stakes import PLAIN, StakeRules, deal_outcome
from shengji.core.state import DealResult
from shengji.server.table.settlement import DealSettled, human_on_each_side

if TYPE_CHECKING:
    from shengji.server.store.storage import Store


class SeatLike(Protocol):
    """What settling reads of a seat."""

    @property
    def kind(self) -> str: ...

    @property
    def player(self) -> str | None: ...


class Room(Protocol):
    """What settling reads of a room (its stakes, match, seats and rosters)."""

    @property
    def stakes(self) -> StakeRules: ...

    @property
    def match(self) -> MatchState | None: ...

    @property
    def match_no(self) -> int: ...

    @property
    def rid(self) -> int: ...

    @property
    def code(self) -> str: ...

    @property
    def store(self) -> Store: ...

    @property
    def seats(self) -> Sequence[SeatLike]: ...

    @property
    def rosters(self) -> MutableMapping[int, list[str | None]]: ...

log = logging.getLogger("shengji.server.stakes")

__all__ = [
    "PLAIN",
    "StakeRules",
    "roster_of",
    "seat_players",
    "settle_deals",
    "settle_listed",
    "settle_new_deals",
]


def seat_players(room: Room) -> list[str | None]:
    """The player id per seat; None for a bot or an empty seat (a vacated seat a bot plays)."""
    return [s.player if s.kind == "human" and s.player else None for s in room.seats]


def roster_of(room: Room, deal_no: int) -> list[str | None]:
    """The players settled for deal ``deal_no``: its roster; for a deal dealt before rosters
    were kept (a room restored from an older server), the seats now."""
    fixed = room.rosters.get(deal_no)
    return list(fixed) if fixed is not None else seat_players(room)


async def settle_deals(room: Room) -> int:
    """Settle the finished deals of the room's match that are not settled yet; returns how
    many were settled now. Failures are logged (a restart tries again), never raised."""
    return sum(1 for d in await settle_new_deals(room) if d.settlement is not None)


async def settle_new_deals(room: Room) -> list[DealSettled]:
    """Settle the finished deals of the room's match that are not settled yet; returns each
    deal settled now and each unsettled one a side without a human leaves out (these come
    back every call). Failures are logged (a restart tries again), never raised."""
    try:
        return await settle_unsettled(room)
    except Exception:
        log.exception("room %s: stakes not settled (retried on restart)", room.code[:6])
        return []


async def settle_unsettled(room: Room) -> list[DealSettled]:
    """``settle_new_deals`` that raises what the database raised (the room retries a
    storage fault: settling a deal twice changes nothing)."""
    rules: StakeRules = room.stakes
    m = room.match
    if rules.kind == "plain" or m is None or not m.history:
        return []
    done = await room.store.ledger.settled_deals(room.rid, room.match_no)
    for deal_no in done:
        room.rosters.pop(deal_no, None)  # never needed again
    listed = [(d.deal_no, d.result, roster_of(room, d.deal_no)) for d in m.history]
    return await settle_listed(room.store, room.rid, room.match_no, rules, listed, done)


async def settle_listed(
    store: Store,
    room_id: int,
    match_no: int,
    rules: StakeRules,
    deals: Iterable[tuple[int, DealResult, Sequence[str | None]]],
    done: set[int] | None = None,
) -> list[DealSettled]:
    """Settle each ``(deal_no, result, players)`` not settled yet (``done``: the deal
    numbers settled before, read from the store when not given); returns each deal settled
    now and each one left unsettled because a side has no human. Raises what the database
    raised (settling a deal twice changes nothing, so a retry is safe)."""
    if done is None:
        done = await store.ledger.settled_deals(room_id, match_no)
    out: list[DealSettled] = []
    for deal_no, result, seated in deals:
        if deal_no in done:
            continue
        players = list(seated)
        if not human_on_each_side(deal_outcome(result, len(players)), players):
            out.append(DealSettled(deal_no, tuple(players), None))
            continue
        s = await store.ledger.settle_deal(room_id, match_no, deal_no, result, rules, players)
        if s is not None:
            out.append(DealSettled(deal_no, tuple(players), s))
    return out


def stakes_info(rules: StakeRules) -> dict[str, Any]:
    """What the lobby shows of a room's stakes (``StakeRules.to_dict``)."""
    return dict(rules.to_dict())
