"""The waiting room and the room's social side: seats, bots, readiness, the owner's rights,
chat, nudges; a match starts when every seat is taken and every human is ready.

The room's creator (its owner) alone may seat or remove bots, move a player out of a seat
(to watch), start a new match at once, or close the room; a room without an owner (one from
before owners) lets everyone do so.
"""

from __future__ import annotations

import json
from dataclasses import replace

from shengji.core.match import MatchState
from shengji.server.table.bots import checked_bot
from shengji.server.table.connections import reseat, room_update
from shengji.server.table.effects import CloseRoom, Disconnect, DrawSeed, Send, TrimChat
from shengji.server.table.model import EMPTY, ActionLog, ChatEntry, Seat, evolve
from shengji.server.table.owners import NOT_OWNER, may_manage, refusal
from shengji.server.table.render import UpdateEntry
from shengji.server.table.step import Step
from shengji.server.table.views import update_base
from shengji.server.wire import messages as wire
from shengji.server.wire.projection import started


def _owner_only(s: Step, conn: int, what: str) -> bool:
    """True if the connection's player has the owner's rights; else it is told why not."""
    v = s.t.conns[conn]
    if may_manage(s.t.config.owner, v.player):
        return True
    s.error(conn, NOT_OWNER, refusal(what))
    return False


owner_only = _owner_only
"""The owner's rights checked (public, for the owner's table controls: table/resets.py)."""


def _seat_no(s: Step, conn: int | None, seat: int) -> bool:
    if 0 <= seat < len(s.t.seats):
        return True
    if conn is not None:
        s.error(conn, "bad-seat", f"seats are 0..{len(s.t.seats) - 1}")
    return False


def set_seat(s: Step, seat: int, value: Seat) -> None:
    """Put ``value`` in ``seat``; a human leaving it is no longer away or on 托管."""
    t = s.t
    seats = (*t.seats[:seat], value, *t.seats[seat + 1 :])
    away = {k: v for k, v in t.away_since.items() if k != seat}
    s.t = evolve(t, seats=seats, away_since=away, auto=t.auto - {seat})


def on_sit(s: Step, conn: int, seat: int) -> None:
    """Take an empty seat (during a match: one left empty, which a bot plays)."""
    if not _seat_no(s, conn, seat):
        return
    t, v = s.t, s.t.conns[conn]
    if v.seat == seat:
        return
    if v.seat is not None and t.status == "playing":
        s.error(conn, "wrong-phase", "you cannot change seats during a match")
        return
    if t.seats[seat].kind != "empty":
        s.error(conn, "seat-taken", f"seat {seat} is taken")
        return
    if v.seat is not None:
        set_seat(s, v.seat, EMPTY)
    set_seat(s, seat, Seat("human", v.player, v.name))
    reseat(s)
    room_update(s)


def on_stand(s: Step, conn: int) -> None:
    """Leave my seat and watch (between matches)."""
    v = s.t.conns[conn]
    if v.seat is None:
        return
    if s.t.status == "playing":
        s.error(conn, "wrong-phase", "a match is running: use leave")
        return
    set_seat(s, v.seat, EMPTY)
    reseat(s)
    room_update(s)


def add_bot(s: Step, conn: int | None, seat: int, name: str) -> None:
    """Seat a bot (``conn`` None: the server itself, when the room is created)."""
    if conn is not None and not _owner_only(s, conn, "add bots"):
        return
    if not _seat_no(s, conn, seat):
        return
    try:
        name = checked_bot(name, s.t.config.limits.bot_budget_s)
    except ValueError as e:
        if conn is not None:
            s.error(conn, "unknown-bot", str(e))
        return
    if s.t.seats[seat].kind != "empty":
        if conn is not None:
            s.error(conn, "seat-taken", f"seat {seat} is taken")
        return
    set_seat(s, seat, Seat("bot", None, name, name, True))
    room_update(s)
    maybe_start(s)


def on_remove_bot(s: Step, conn: int, seat: int) -> None:
    """Take a bot out of its seat (between matches)."""
    if _owner_empties(s, conn, seat, "bot", "remove bots", "bots stay"):
        room_update(s)


def on_unseat(s: Step, conn: int, seat: int) -> None:
    """The owner moves a player out of a seat (between matches); they stay to watch."""
    if _owner_empties(
        s, conn, seat, "human", "move players out of seats", "players keep their seats"
    ):
        reseat(s)
        room_update(s)


def _owner_empties(s: Step, conn: int, seat: int, kind: str, what: str, stays: str) -> bool:
    """The owner empties ``seat`` if a ``kind`` (``bot``, ``human``) sits there and no match
    is on: True when done; else the connection is told why not (``what`` the owner would do,
    who ``stays`` while playing)."""
    if not _owner_only(s, conn, what) or not _seat_no(s, conn, seat):
        return False
    if s.t.seats[seat].kind != kind:
        who = "bot" if kind == "bot" else "player"
        s.error(conn, "bad-seat", f"no {who} in seat {seat}")
        return False
    if s.t.status == "playing":
        s.error(conn, "wrong-phase", f"{stays} until the match ends")
        return False
    set_seat(s, seat, EMPTY)
    return True


def on_ready(s: Step, conn: int, ready: bool) -> None:
    """Ready (or not) for the next match."""
    seat = s.t.conns[conn].seat
    if seat is None:
        s.error(conn, "not-seated", "take a seat first")
        return
    set_seat(s, seat, replace(s.t.seats[seat], ready=ready))
    room_update(s)
    maybe_start(s)


def on_new_match(s: Step, conn: int) -> None:
    """The owner starts the next match now: every seated player counts as ready."""
    if not _owner_only(s, conn, "start a new match"):
        return
    t = s.t
    if t.status != "waiting":
        s.error(conn, "wrong-phase", "a match is running")
        return
    if any(x.kind == "empty" for x in t.seats):
        s.error(conn, "bad-seat", "every seat needs a player or a bot first")
        return
    s.t = evolve(t, seats=tuple(replace(x, ready=True) for x in t.seats))
    room_update(s)
    maybe_start(s)


def on_close_room(s: Step, conn: int) -> None:
    """The owner closes the room: everyone is told and disconnected."""
    if not _owner_only(s, conn, "close the room"):
        return
    close(s, "closed by its owner")


def close(s: Step, reason: str) -> None:
    """Close the room for good."""
    s.tell_all(wire.Error(seq=s.t.seq, code="no-room", message=f"the room has {reason}"))
    for c in s.t.conns:
        s.deliver(Disconnect(c, 4404))
    s.t = evolve(s.t, closed=True)
    s.note("info", reason)
    s.emit(CloseRoom(reason))


def on_chat(s: Step, conn: int, text: str) -> None:
    """A chat line to the room (kept and logged; old lines are deleted)."""
    text = text.strip()
    most = s.t.config.limits.chat_max_chars
    if not text or len(text) > most:
        s.error(conn, "bad-chat", f"chat lines are 1..{most} characters")
        return
    v = s.t.conns[conn]
    seq = s.next_seq()
    msg = wire.ChatLine(seq=seq, player=v.player, name=v.name, seat=v.seat, text=text)
    s.publish(msg, "chat", json.dumps({"player": v.player, "text": text}))
    keep = s.t.config.limits.chat_keep
    chat = (*s.t.chat, ChatEntry(seq, v.player, v.name, v.seat, text))[-keep:]
    untrimmed = s.t.chat_untrimmed + 1
    if len(chat) == keep and untrimmed >= max(1, keep // 2):
        untrimmed = 0
        s.emit(TrimChat(chat[0].seq))
    s.t = evolve(s.t, chat=chat, chat_untrimmed=untrimmed)


def on_nudge(s: Step, conn: int) -> None:
    """Remind the human whose turn it is (once every few seconds per connection)."""
    t = s.t
    actor = t.to_act()
    if actor is None or actor < 0 or t.seats[actor].kind != "human":
        s.error(conn, "wrong-phase", "nobody to nudge")
        return
    v = t.conns[conn]
    every = t.config.limits.nudge_every_s
    if s.now - v.last_nudge < every:
        s.error(conn, "rate-limited", f"one nudge every {every:g} seconds")
        return
    s.t = evolve(t, conns={**t.conns, conn: replace(v, last_nudge=s.now)})
    seq = s.next_seq()
    s.publish(wire.NudgeMsg(seq=seq, by=v.name, to=actor), "nudge")


def on_leave(s: Step, conn: int) -> None:
    """Leave the room; a seat in a running match is then played by a bot."""
    v = s.t.conns[conn]
    if v.seat is not None:
        set_seat(s, v.seat, EMPTY)
        reseat(s)
        room_update(s)
    s.deliver(Disconnect(conn))


def maybe_start(s: Step) -> None:
    """Start a match when every seat is taken and every human ready (and a seed is drawn)."""
    t = s.t
    if t.status != "waiting" or t.closed:
        return
    if any(x.kind == "empty" or (x.kind == "human" and not x.ready) for x in t.seats):
        return
    seed = t.spare_seed
    if seed is None:  # drawn at once by the shell; the start follows on ``SeedDrawn``
        s.emit(DrawSeed())
        return
    m = MatchState.new(t.config.ruleset, seed)
    s.t = evolve(
        t,
        status="playing",
        match_no=t.match_no + 1,
        match=m,
        actions=ActionLog(),
        drawn_seed=seed,
        spare_seed=None,
        rosters={},
        version=t.version + 1,
        bot_ask=None,
        declare_asks=frozenset(),
        auto=frozenset(),
        clock=None,
        hold=None,
        next_card_at=s.now,
        away_since=dict.fromkeys(t.away_since, s.now),  # the match's grace starts now
    )
    s.emit(DrawSeed())  # the next match's, ahead of time
    room_update(s)
    seq = s.next_seq()
    entry = UpdateEntry(update_base(s.t, m, seq), started(m).events, m)
    s.record("deal")
    s.deliver(Send(s.everyone(), entry, seq=seq, backlog=True))
    s.note("debug", f"match {s.t.match_no} started")
