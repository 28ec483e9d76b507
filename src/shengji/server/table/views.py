"""What clients are shown of a table besides updates: the room (seats, presence marks, 托管),
a snapshot of everything a seat may see, the turn clock and the summary hold.
"""

from __future__ import annotations

from shengji.core.display import fixed_teams
from shengji.core.match import MatchState
from shengji.server.table.model import Table
from shengji.server.wire import messages as wire
from shengji.server.wire.projection import update_of
from shengji.server.wire.seat_view import game_view

__all__ = ["clock_info", "game_view", "hold_info", "room_info", "snapshot", "update_base"]


def room_info(t: Table, now: float) -> wire.RoomInfo:
    """The room as the lobby and its members see it."""
    cfg = t.config
    connected = {v.seat for v in t.conns.values() if v.seat is not None}
    playing = t.status == "playing"
    return wire.RoomInfo(
        code=cfg.code,
        preset=cfg.preset,
        ruleset=cfg.ruleset.to_dict(),
        status=t.status,
        match_no=t.match_no,
        max_deals=cfg.max_deals,
        private=cfg.private,
        seats=[
            wire.SeatInfo(
                seat=i,
                kind=s.kind,
                name=s.name,
                player=s.player,
                bot=s.bot,
                ready=s.ready,
                connected=i in connected,
                substitute=playing and s.kind != "bot" and t.bot_controls(i, now),
                away=s.kind == "human" and i not in connected,
                auto=i in t.auto,
            )
            for i, s in enumerate(t.seats)
        ],
        spectators=sum(1 for v in t.conns.values() if v.seat is None),
        stakes=wire.render_stakes(cfg.stakes),
        teams=list(fixed_teams(cfg.ruleset)),
        owner=cfg.owner,
        options=cfg.options.to_dict(),
    )


def update_base(t: Table, m: MatchState, seq: int) -> wire.Update:
    """An ``update`` for the match ``m`` (events are added per seat)."""
    return update_of(m, seq, t.match_no)


def clock_info(t: Table, now: float) -> wire.ClockInfo | None:
    """The turn clock as clients see it (milliseconds left)."""
    c = t.clock
    if c is None:
        return None
    return wire.ClockInfo(
        seat=c.seat,
        ms_left=max(0, round((c.deadline - now) * 1000)),
        total_ms=round((c.deadline - c.started) * 1000),
    )


def hold_info(t: Table, now: float) -> wire.HoldInfo | None:
    """The summary hold as clients see it."""
    h = t.hold
    if h is None:
        return None
    return wire.HoldInfo(
        deal_no=h.deal_no,
        waiting=sorted(h.waiting),
        ms_left=max(0, round((h.until - now) * 1000)),
    )


def snapshot(t: Table, seat: int | None, now: float) -> wire.Snapshot:
    """Everything ``seat`` (None: a spectator) may see now."""
    m = t.match
    return wire.Snapshot(
        seq=t.seq,
        room=room_info(t, now),
        game=None if m is None else game_view(m, seat),
        chat=[
            wire.ChatEntry(seq=c.seq, name=c.name, seat=c.seat, text=c.text) for c in t.chat
        ],
        clock=clock_info(t, now),
        hold=hold_info(t, now),
    )
