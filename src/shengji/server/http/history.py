"""Game history and replays for the browser: finished matches listed with their
preset, result and date, and a record turned into the positions a replay viewer steps
through, so that the viewer computes no rule either.

A replay is the record played again by the engine, one position per trick: for each deal the
declarations, the auction, the kitty picked up and buried, the friend call, then position 0
(every hand as the first lead is made) and one position after each trick (its plays, winner
and points, the attackers' points and point cards, the hands left), and the deal's end (the
kitty, the deal-end summary with each seat's level change). After a match every hand is face
up; for a live match (``GET /api/rooms/{code}/replay``) a player sees only its own hand and
what its seat saw, a spectator no hand at all.

About 400 lines for a reason: the replay positions, the history listing and their HTTP
routes share one masking of hands per viewer, kept in one file so no hidden card leaks.

>>> from shengji.core.record import GameRecord
>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.driver import play_match
>>> from shengji.bots.random_bot import RandomBot
>>> rec = play_match(PRESETS["one-deck"], [RandomBot(i) for i in range(4)], 3, deals=1)[1]
>>> deal = replay_positions(rec)["deals"][0]
>>> len(deal["positions"]) == 1 + 54 // 4 - 1, deal["end"]["summary"]["deal_no"]
(True, 0)
>>> record_filename("classic", 12, 1764547200.0)
'shengji-classic-2025-12-01-game12.json'
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from fastapi import FastAPI, Header, HTTPException

from shengji.core.actions import MatchAction, Redeal
from shengji.core.cards import LEVELS, card_str, cards_str, trump_str
from shengji.core.declaring import kind_of
from shengji.core.display import fixed_teams, table_facts, trump_kinds
from shengji.core.events import (
    AuctionWon,
    DealEnded,
    DealReset,
    Declared,
    Event,
    FriendCalled,
    FriendRevealed,
    KittyBuried,
    KittyRevealed,
    KittyTaken,
    ThrowFailed,
    TrickWon,
    TrumpFixed,
    visible,
)
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay_steps
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealState, display_order
from shengji.server.table.model import Table
from shengji.server.wire.seat_view import deal_summary, finished_deal, level_names

__all__ = ["install_history", "live_record", "record_filename", "replay_positions"]


def record_filename(preset: str, game_id: int, finished: float) -> str:
    """The name a downloaded record is saved under: preset, date (UTC) and game number."""
    day = time.strftime("%Y-%m-%d", time.gmtime(finished))
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in preset) or "game"
    return f"shengji-{safe}-{day}-game{game_id}.json"


# --------------------------------------------------------------------------- positions


@dataclass
class _Deal:
    """A deal as the replay gathers it."""

    out: dict[str, Any]
    positions: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] = field(default_factory=dict)
    """What the next trick position says besides its plays (a failed throw, a friend)."""


def _hands(state: DealState, seats: tuple[int, ...]) -> list[str | None]:
    """Each seat's cards in display order (None for a seat not shown)."""
    ctx = state.ctx
    order = display_order(ctx) if ctx is not None else tuple(range(54))
    out: list[str | None] = []
    for seat in range(state.ruleset.players):
        if seat not in seats:
            out.append(None)
            continue
        h = state.hands[seat]
        out.append(cards_str([k for k in order if h[k] for _ in range(h[k])]))
    return out


def _position(
    state: DealState, trick_no: int, shown: tuple[int, ...], running: int | None = None
) -> dict[str, Any]:
    """The table after ``trick_no`` tricks (0: as the first lead is made)."""
    facts = table_facts(state, None)
    last = state.tricks[trick_no - 1] if trick_no else None
    return {
        "trick": trick_no,
        "leader": state.leader if last is None else last.leader,
        "plays": [] if last is None else [[s, cards_str(c)] for s, c in last.plays],
        "winner": None if last is None else last.winner,
        "points": 0 if last is None else last.points,
        "attacker_points": state.attacker_points if running is None else running,
        "point_cards": cards_str(facts.point_cards),
        "penalty_points": facts.penalty_points,
        "roles": list(facts.roles),
        "friend": state.friend,
        "hands": _hands(state, shown),
        "hand_sizes": list(state.hand_sizes),
        "throw": None,
        "friend_revealed": None,
    }


def replay_positions(
    record: GameRecord, seat: int | None = None, reveal: bool = True
) -> dict[str, Any]:
    """The record as replay positions. ``reveal``: every hand and every event (a finished
    match); otherwise what ``seat`` saw (None: a spectator) and only its own hand."""
    start = record.start()
    rs = start.ruleset
    players = rs.players
    shown: tuple[int, ...] = tuple(range(players)) if reveal else (() if seat is None else (seat,))
    deals: list[dict[str, Any]] = []
    before: MatchState = start
    redeals = 0

    def begin(m: MatchState) -> _Deal:
        d = m.deal
        return _Deal(
            {
                "deal_no": d.deal_no,
                "redeals": redeals,
                "dealer": d.dealer,
                "level": LEVELS[d.level],
                "seat_levels": level_names(m, m.levels),
                "trump": None,
                "trumps": "",
                "declarations": [],
                "auction": [],
                "target": None,
                "shown": "",
                "burials": [],
                "friend_call": None,
                "positions": [],
                "end": None,
            }
        )

    hidden = not reveal and rs.declaration == "hidden"
    cur = begin(start)
    for action, after, events in replay_steps(record):
        ended = any(isinstance(e, DealEnded) for e in events)
        deal = _deal_state(before, action, after, ended)
        seen = events if reveal else visible(events, seat)
        _on_events(cur, seen, before.deal, deal, shown, hidden)
        if any(isinstance(e, DealReset) for e in events):
            redeals += 1
            cur = begin(after)
        if ended:
            _finish(cur, deal, after, events)
            deals.append(_close(cur, deal))
            redeals = 0
            cur = begin(after)
        elif deal.phase is Phase.PLAYING and not cur.positions:
            cur.positions.append(_position(deal, 0, shown))
        before = after
    if not before.is_over and (cur.positions or before.deal.n_dealt):
        deals.append(_close(cur, before.deal))
    return {
        "format": "shengji-replay/1",
        "players": list(record.players),
        "seats": players,
        "preset": rs.name,
        "teams": list(fixed_teams(rs)),
        "result": dict(record.result),
        "revealed": reveal,
        "seat": seat,
        "deals": deals,
    }


def _deal_state(
    before: MatchState, action: MatchAction, after: MatchState, ended: bool
) -> DealState:
    """The deal ``action`` acted on, as it is after it (a finished one as it ended)."""
    if ended and not isinstance(action, Redeal):
        return finished_deal(before, action, after)
    return after.deal


def _on_events(
    cur: _Deal,
    events: list[Event],
    prev: DealState,
    deal: DealState,
    shown: tuple[int, ...],
    hidden: bool,
) -> None:
    """Gather what ``events`` (those the viewer may see) say about the deal. ``hidden``:
    hidden declarations seen by one seat, whose kind would tell what others declared."""
    out = cur.out
    buried_by: int | None = None
    for e in events:
        if isinstance(e, Declared):
            if e.rebury:
                kind = "rebury"
            elif not hidden and deal.declared and deal.declaration is not None:
                kind = kind_of(deal.declared[-1], prev.declaration, deal.declaration)
            else:
                kind = "declare"
            out["declarations"].append(
                {"seat": e.seat, "cards": cards_str(e.cards), "trump": trump_str(e.trump),
                 "kind": kind}
            )
        elif isinstance(e, TrumpFixed):
            out["trump"], out["dealer"] = trump_str(e.trump), e.dealer
            out["turned"] = None if e.turned is None else card_str(e.turned)
            ctx = deal.ctx
            out["trumps"] = "" if ctx is None else cards_str(trump_kinds(ctx))
        elif isinstance(e, AuctionWon):
            out["dealer"], out["target"], out["level"] = e.dealer, e.target, LEVELS[e.level]
        elif isinstance(e, KittyTaken):
            out["burials"].append({"seat": e.seat, "picked": cards_str(e.cards), "buried": None})
        elif isinstance(e, KittyBuried):
            if buried_by == e.seat:  # the public twin of the holder's own event
                continue
            buried_by = e.seat
            buried = cards_str(e.cards) if e.cards else None
            taken = out["burials"][-1] if out["burials"] else None
            if taken is not None and taken["seat"] == e.seat and "count" not in taken:
                taken["buried"], taken["count"] = buried, e.count
            else:  # another seat's burial: its count only
                out["burials"].append(
                    {"seat": e.seat, "picked": None, "buried": buried, "count": e.count}
                )
        elif isinstance(e, FriendCalled):
            out["friend_call"] = {"card": card_str(e.card), "nth": e.nth}
        elif isinstance(e, FriendRevealed):
            cur.pending["friend_revealed"] = e.seat
        elif isinstance(e, ThrowFailed):
            cur.pending["throw"] = {
                "seat": e.seat, "attempted": cards_str(e.attempted), "forced": cards_str(e.forced),
                "penalty": e.penalty,
            }
        elif isinstance(e, TrickWon):
            pos = _position(deal, e.trick_no, shown, e.attacker_points)
            pos.update(cur.pending)
            cur.pending = {}
            cur.positions.append(pos)
    if deal.auction is not None:
        out["auction"] = [[s, t] for s, t in deal.auction.bids]
    if deal.shown:
        out["shown"] = cards_str(deal.shown)


def _finish(cur: _Deal, final: DealState, after: MatchState, events: list[Event]) -> None:
    kitty = next((e for e in events if isinstance(e, KittyRevealed)), None)
    end = next(e for e in events if isinstance(e, DealEnded))
    summary = deal_summary(final, after)
    cur.out["end"] = {
        "attacker_points": end.attacker_points,
        "defender_levels": end.defender_levels,
        "attacker_levels": end.attacker_levels,
        "attackers_take_over": end.attackers_take_over,
        "stake": end.stake,
        "kitty": None
        if kitty is None
        else {
            "cards": cards_str(kitty.cards),
            "points": kitty.points,
            "multiplier": kitty.multiplier,
            "attacker_gain": kitty.attacker_gain,
        },
        "summary": msgspec.to_builtins(summary),
    }


def _close(cur: _Deal, deal: DealState) -> dict[str, Any]:
    out = cur.out
    out["positions"] = cur.positions
    if out["trump"] is None and deal.trump is not None:
        out["trump"] = trump_str(deal.trump)
    return out


# --------------------------------------------------------------------------- listings


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


# --------------------------------------------------------------------------- live matches


def live_record(table: Table) -> GameRecord | None:
    """The match a table is playing, as a record (its secret seed stays on the server: only
    positions rendered from it leave). None between matches."""
    if table.match is None or not table.playing:
        return None
    return GameRecord(
        table.config.ruleset.to_dict(),
        table.match_seed(),
        None,
        list(table.actions),
        {},
        [s.name or s.kind for s in table.seats],
    )


# --------------------------------------------------------------------------- routes

Viewer = Callable[[str | None], Awaitable[Any]]
"""The signed-in player of an ``Authorization`` header (None: nobody)."""


def install_history(app: FastAPI, store: Callable[[], Any], lobby: Callable[[], Any],
                    viewer: Viewer, routed: Callable[[], Any] = lambda: None) -> None:
    """The history routes: ``GET /api/games`` (recent public matches),
    ``GET /api/games/{id}/replay`` (a finished match's positions; a private room's only to
    its players, 404 to anyone else) and ``GET /api/rooms/{code}/replay`` (the match being
    played, as the asking seat saw it; ``routed()``: the router that asks a room's owner
    on another process, or None)."""

    @app.get("/api/games")
    async def recent_games(limit: int = 30) -> dict[str, Any]:
        if not 1 <= limit <= 100:
            raise HTTPException(400, "limit is 1..100")
        rows = await store().games.listed(None, include_private=False, limit=limit)
        return {"games": [game_entry(r) for r in rows]}

    @app.get("/api/games/{gid}/replay")
    async def game_replay(gid: int, authorization: str | None = Header(default=None)) -> Any:
        player = await viewer(authorization)
        text = await store().games.record_for(gid, None if player is None else player.id)
        if text is None:
            raise HTTPException(404, "no such game")
        try:
            record = GameRecord.from_json(text)
            positions = replay_positions(record)
        except Exception as e:  # a record the engine cannot replay: say so, never a 500
            raise HTTPException(422, f"this record cannot be replayed: {e}") from e
        positions["game"] = gid
        return positions

    @app.get("/api/rooms/{code}/replay")
    async def live_replay(code: str, authorization: str | None = Header(default=None)) -> Any:
        room = await lobby().load(code)  # an unloaded idle room comes back from its log
        router = routed()
        if room is None and router is None:
            raise HTTPException(404, "no such room")
        player = await viewer(authorization)
        pid = None if player is None else player.id
        if room is None:
            return await router.ask(code, "replay", pid)  # its owner answers
        return live_positions(room, pid)


def live_positions(room: Any, player: str | None) -> dict[str, Any]:
    """The match ``room`` is playing as ``player``'s seat saw it (a spectator: no hand);
    ``HTTPException(404)`` between matches."""
    table: Table = room.table
    record = live_record(table)
    if record is None:
        raise HTTPException(404, "no match is being played")
    seat = None if player is None else table.seat_of(player)
    positions = replay_positions(record, seat, reveal=False)
    positions["room"] = room.code
    return positions
