"""Game history as clients read it: finished matches listed with their preset, result and
date, a download's file name, and a match replayed as the very updates the table sent one
audience (``projection.replay_updates``), so that the replay viewer shows the table itself.

A ``Replay`` holds those updates in order (the events the audience saw and its whole
``GameView`` after each) and where each deal starts among them. A finished match can be
watched from any seat, or as a spectator; the match being played only as the asking
seat saw it (a spectator: as spectators see it).

>>> from shengji.core.record import GameRecord
>>> from shengji.core.ruleset import PRESETS
>>> rec = GameRecord(PRESETS["classic"].to_dict(), 5, 0, ["deal"] * 8)
>>> rep = replay_of(rec, seat=1)
>>> rep.format, len(rep.updates), rep.updates[-1].game.hand, rep.deals
('shengji-replay/2', 3, 'S7 CA', [ReplayDeal(deal_no=0, redeals=0, first=0)])
>>> record_filename("classic", 12, 1764547200.0)
'shengji-classic-2025-12-01-game12.json'
"""

from __future__ import annotations

import json
import time
from typing import Any

import msgspec

from shengji.core.cards import LEVELS
from shengji.core.display import fixed_teams
from shengji.core.record import GameRecord
from shengji.core.ruleset import Ruleset
from shengji.server.wire import messages as wire
from shengji.server.wire.projection import replay_updates

__all__ = [
    "NoMatch",
    "Replay",
    "ReplayDeal",
    "game_entry",
    "leading_seats",
    "live_replay",
    "record_filename",
    "replay_of",
]

FORMAT = "shengji-replay/2"
"""The replay's JSON format (``/1``: per-trick positions, retired with the viewer that
read them)."""


class NoMatch(LookupError):
    """A room between matches has nothing to replay."""


class ReplayDeal(msgspec.Struct, kw_only=True):
    """Where a deal (or a deal dealt again) starts among a replay's updates."""

    deal_no: int
    redeals: int
    first: int
    """Index into ``Replay.updates`` of its first step: the update that starts it
    (``deal_started``), or the one after, when that update also ends the deal before
    (``deal_ended``, whose step belongs to the deal it ends)."""


class Replay(msgspec.Struct, kw_only=True):
    """A match as one audience saw it: the updates the table sent it, in order."""

    format: str = FORMAT
    preset: str
    players: list[str]
    seats: int
    teams: list[int]
    result: dict[str, Any]
    seat: int | None
    """The audience: a seat, or None for a spectator."""
    revealed: bool
    """A finished match: any seat may be watched (``?seat=``)."""
    room: wire.RoomInfo
    """The table as the viewer draws it: the ruleset and a plate per seat, named."""
    deals: list[ReplayDeal]
    updates: list[wire.Update]
    game: int | None = None
    """The finished match's id (``/api/games/{id}/replay``)."""
    code: str | None = None
    """The room of a match being played (``/api/rooms/{code}/replay``)."""


def record_filename(preset: str, game_id: int, finished: float) -> str:
    """The name a downloaded record is saved under: preset, date (UTC) and game number."""
    day = time.strftime("%Y-%m-%d", time.gmtime(finished))
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in preset) or "game"
    return f"shengji-{safe}-{day}-game{game_id}.json"


def _room(record: GameRecord, rs: Ruleset, code: str) -> wire.RoomInfo:
    names = list(record.players)
    return wire.RoomInfo(
        code=code,
        preset=rs.name,
        ruleset=rs.to_dict(),
        status="playing",
        match_no=0,
        max_deals=None,
        private=False,
        seats=[
            wire.SeatInfo(seat=i, kind="human", name=names[i] if i < len(names) else None)
            for i in range(rs.players)
        ],
        spectators=0,
        teams=list(fixed_teams(rs)),
    )


def replay_of(
    record: GameRecord, seat: int | None = None, revealed: bool = True, code: str = ""
) -> Replay:
    """The record's match as ``seat`` (None: a spectator) was sent it, update by update.
    ``revealed``: a finished match (the viewer may pick any seat)."""
    rs = Ruleset.from_dict(record.ruleset)
    if seat is not None and not 0 <= seat < rs.players:
        raise ValueError(f"seat is 0..{rs.players - 1}")
    updates: list[wire.Update] = []
    deals: list[ReplayDeal] = []
    redeals = 0
    for up in replay_updates(record):
        if not up.sent_to(seat):
            continue
        msg = up.update_for(seat, seq=len(updates) + 1)
        # a deal that ends starts the next in the same update: the summary over the next
        # deal's empty felt is the end of the one before; the next begins a step later
        ends = any(isinstance(e, wire.DealEndedEvent) for e in msg.events)
        for e in msg.events:
            if isinstance(e, wire.DealResetEvent):
                redeals = e.redeals
            elif isinstance(e, wire.DealStartedEvent):
                redeals = 0 if not deals or deals[-1].deal_no != e.deal_no else redeals
                first = len(updates) + int(ends)
                deals.append(ReplayDeal(deal_no=e.deal_no, redeals=redeals, first=first))
        updates.append(msg)
    if deals and deals[-1].first >= len(updates):
        deals.pop()  # the match ended there: the deal it would deal next has no step
    return Replay(
        preset=rs.name,
        players=list(record.players),
        seats=rs.players,
        teams=list(fixed_teams(rs)),
        result=dict(record.result),
        seat=seat,
        revealed=revealed,
        room=_room(record, rs, code),
        deals=deals,
        updates=updates,
    )


def live_replay(record: GameRecord | None, seat: int | None, code: str) -> Replay:
    """The match being played in room ``code`` as ``seat`` saw it; ``NoMatch`` between
    matches."""
    if record is None:
        raise NoMatch("no match is being played")
    rep = replay_of(record, seat, revealed=False, code=code)
    rep.code = code
    return rep


def leading_seats(ruleset: Any, levels: Any) -> list[int]:
    """The winners of a match cut short (its deals played, or ended early by the owner), as
    the table announced them: the seats on the highest level of the ruleset's sequence; none
    when every seat is on the same level (or the record cannot say).

    >>> from shengji.core.ruleset import PRESETS
    >>> rs = PRESETS["tournament"].to_dict()
    >>> leading_seats(rs, ["10", "5", "10", "5"]), leading_seats(rs, ["2", "2", "2", "2"])
    ([0, 2], [])
    """
    try:
        order = [LEVELS[i] for i in Ruleset.from_dict(ruleset).level_sequence]
        at = [order.index(str(lv)) for lv in levels]
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        return []
    top = [seat for seat, k in enumerate(at) if k == max(at)] if at else []
    return [] if len(top) == len(at) else top


def game_entry(row: dict[str, Any]) -> dict[str, Any]:
    """One finished match for the history page: ``row`` holds ``id``, ``match_no``,
    ``finished``, ``preset``, ``private``, ``record`` (JSON) and maybe ``seat``."""
    try:
        rec = json.loads(row["record"])
    except (TypeError, ValueError):
        rec = {}
    result = rec.get("result") if isinstance(rec, dict) else None
    result = result if isinstance(result, dict) else {}
    ruleset = rec.get("ruleset") if isinstance(rec, dict) else None
    players = rec.get("players") if isinstance(rec, dict) else None
    entry = {
        "id": row["id"],
        "match_no": row["match_no"],
        "finished": row["finished"],
        "preset": row["preset"],
        "private": bool(row.get("private", False)),
        "players": players if isinstance(players, list) else [],
        "seats": ruleset.get("players") if isinstance(ruleset, dict) else None,
        "deals": result.get("deals"),
        "winners": result.get("winners") or leading_seats(ruleset, result.get("levels")),
        "levels": result.get("levels", []),
        "filename": record_filename(str(row["preset"]), int(row["id"]), float(row["finished"])),
    }
    if "seat" in row:
        entry["seat"] = row["seat"]
    return entry
