"""Connections coming and going: the welcome, a resume or a snapshot, presence, away marks.

A seated player who disconnects is marked away on their seat plate for everyone within the
presence interval (``presence.away``); coming back clears it. While the match runs a
stand-in bot plays the seat once the player has been gone the grace time; between matches
the seat is freed then (table/timers.py).
"""

from __future__ import annotations

from dataclasses import replace

from shengji.server.table.commands import Closed, Opened
from shengji.server.table.effects import Disconnect, PresenceChanged, Replay, Send
from shengji.server.table.model import Table, Viewer, evolve
from shengji.server.table.step import Step
from shengji.server.table.views import room_info, snapshot
from shengji.server.wire import messages as wire


def room_update(s: Step) -> None:
    """Tell everyone the room changed (seats, marks, status); its state is logged with it."""
    seq = s.next_seq()
    s.publish(wire.RoomUpdate(seq=seq, room=room_info(s.t, s.now)), "room", state=True)


def can_resume(t: Table, last_seq: int, seat: int | None) -> bool:
    """Whether a client that saw up to ``last_seq`` can be sent what it missed: the shell
    still keeps it, and nothing only this seat got came at or after it."""
    if last_seq < t.log_floor or last_seq > t.seq:
        return False
    floor = max(t.log_floor, t.seq - t.config.limits.log_size)
    if last_seq < floor:
        return False
    return seat is None or t.last_private.get(seat, -1) < last_seq


def on_opened(s: Step, cmd: Opened) -> None:
    """Welcome a connection: back in its seat, then what it missed or a snapshot."""
    t = s.t
    seat = t.seat_of(cmd.player)
    if seat is None and cmd.player != t.config.owner:  # players and the owner always get in
        watching = sum(1 for v in t.conns.values() if v.seat is None)
        if watching >= t.config.limits.max_spectators:
            msg = f"this room has {watching} spectators, the most it takes; try again later"
            err = wire.Error(seq=t.seq, code="room-full", message=msg)
            s.deliver(Send(((cmd.conn, None),), err))
            s.deliver(Disconnect(cmd.conn, 4429))
            return
    viewer = Viewer(
        cmd.player, cmd.name, seat, delta_presence=cmd.delta_presence, deltas=cmd.deltas
    )
    away = {k: v for k, v in t.away_since.items() if k != seat}
    s.t = t = evolve(
        t, conns={**t.conns, cmd.conn: viewer}, away_since=away, unattended_since=None
    )
    if t.outbox.paused_since is not None:  # it learns why nothing moves, at once
        s.emit(Send(((cmd.conn, seat),), wire.Paused(seq=t.sent_seq, reason="storage")))
    resume = cmd.last_seq is not None and can_resume(t, cmd.last_seq, seat)
    welcome = wire.Welcome(
        seq=t.seq, room=t.config.code, player=cmd.player, name=cmd.name, seat=seat, resume=resume
    )
    if resume and cmd.last_seq is not None:
        s.deliver(Replay(cmd.conn, seat, cmd.last_seq, welcome, snapshot(t, seat, s.now)))
    else:
        s.tell(cmd.conn, welcome)
        s.tell(cmd.conn, snapshot(t, seat, s.now))
    s.emit(PresenceChanged())  # the away mark goes


def on_closed(s: Step, cmd: Closed) -> None:
    """A connection went: its seat is marked away if no other connection plays it."""
    t = s.t
    viewer = t.conns.get(cmd.conn)
    if viewer is None:
        return
    conns = {c: v for c, v in t.conns.items() if c != cmd.conn}
    s.t = t = evolve(t, conns=conns, unattended_since=None if conns else s.now)
    seat = viewer.seat
    if seat is not None and not t.connected(seat) and t.seats[seat].kind == "human":
        s.t = evolve(t, away_since={**t.away_since, seat: s.now})
    s.emit(PresenceChanged())  # everyone sees the seat "away" (presence, coalesced)


def reseat(s: Step) -> None:
    """After seats changed: each connection sees from the seat its player holds now."""
    t = s.t
    conns = {c: replace(v, seat=t.seat_of(v.player)) for c, v in t.conns.items()}
    if conns != t.conns:
        s.t = evolve(t, conns=conns)
        s.emit(PresenceChanged())
        if t.match is not None:  # a delta client's view is another seat's now: whole again
            for c, v in conns.items():
                if v.deltas and v.seat != t.conns[c].seat:
                    s.tell(c, snapshot(s.t, v.seat, s.now))
