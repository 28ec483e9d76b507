"""``handle(table, command, now) -> (table, effects)``: the one way a table changes.

The core's ``apply → (state, events)``, one level up: a command in (a client's message, a
wake-up, a bot's answer, a connection opened or closed, a write done or failed), a new
table and the effects the room's shell must carry out, in order. Pure: no I/O, no clock,
no randomness but what the table's state seeds.

>>> from shengji.server.table.model import evolve, TableConfig
>>> t = Table.empty(TableConfig.for_tests(), spare_seed="x")
>>> t, fx = handle(t, Opened(1, "ann", "ann"), now=0.0)
>>> [type(e).__name__ for e in fx]
['PresenceChanged', 'Send', 'Send']
>>> t, fx = handle(t, ClientSaid(1, wire.Sit(seat=0)), now=1.0)
>>> [type(e).__name__ for e in fx], t.seats[0].name
(['PresenceChanged', 'Write'], 'ann')
"""

from __future__ import annotations

from shengji.server.table.commands import (
    BotDeclared,
    BotMoved,
    ClientSaid,
    Closed,
    Command,
    DealsSettled,
    GameSaved,
    HintReady,
    Opened,
    SeatBot,
    SeedDrawn,
    StorageBack,
    Tick,
    WriteFailed,
    Written,
)
from shengji.server.table.connections import on_closed, on_opened
from shengji.server.table.effects import Effect, SaveGame, SettleDeals
from shengji.server.table.flow import drain, failed, retry_due, retry_now, written
from shengji.server.table.model import Table, evolve
from shengji.server.table.play import (
    on_act,
    on_bot_declared,
    on_bot_moved,
    on_check,
    on_game_saved,
    on_hint,
    on_hint_ready,
    on_next_deal,
    on_settled,
    set_auto,
)
from shengji.server.table.resets import on_end_match, on_reset_deal, on_vote, tell_open_vote
from shengji.server.table.seating import (
    add_bot,
    maybe_start,
    on_chat,
    on_close_room,
    on_leave,
    on_new_match,
    on_nudge,
    on_ready,
    on_remove_bot,
    on_sit,
    on_stand,
    on_unseat,
)
from shengji.server.table.step import Step
from shengji.server.table.timers import announce, schedule, wake
from shengji.server.table.views import snapshot
from shengji.server.wire import messages as wire


def handle(table: Table, command: Command, now: float) -> tuple[Table, list[Effect]]:
    """The table after ``command`` at loop time ``now``, and what the shell must do."""
    s = Step(table, now)
    match command:
        case ClientSaid(conn=conn, msg=msg):
            on_client(s, conn, msg)
        case Opened():
            on_opened(s, command)
            tell_open_vote(s, command.conn)
        case Closed():
            on_closed(s, command)
        case Tick():
            # the shell's timer fired (or it looks again): it holds no wake-up now, so the
            # next one is asked for even if it is the same moment. A loop may fire a timer
            # a little before its time (uvloop counts whole milliseconds): the card not yet
            # due, the table would otherwise wait for a timer nobody set.
            s.t = evolve(s.t, wake=None)
            retry_due(s)
        case StorageBack():
            retry_now(s)
        case BotMoved():
            on_bot_moved(s, command)
        case BotDeclared():
            on_bot_declared(s, command)
        case HintReady():
            on_hint_ready(s, command)
        case Written(ticket=ticket):
            written(s, ticket)
        case GameSaved(ticket=ticket):
            if isinstance(written(s, ticket), SaveGame):
                on_game_saved(s, command)
        case DealsSettled(ticket=ticket):
            request = written(s, ticket)
            if isinstance(request, SettleDeals):
                on_settled(s, command, request)
        case WriteFailed(ticket=ticket, reason=reason):
            failed(s, ticket, reason)
        case SeedDrawn(seed=seed):
            s.t = evolve(s.t, spare_seed=seed)
            maybe_start(s)
        case SeatBot(seat=seat, bot=bot):
            add_bot(s, None, seat, bot)
    schedule(s)
    announce(s, table.clock, table.hold)
    drain(s)
    wake(s)
    return s.t, s.fx


def on_client(s: Step, conn: int, msg: wire.ClientMessage) -> None:
    """A message from a connection of this room."""
    if conn not in s.t.conns or s.t.closed:
        return
    match msg:
        case wire.Act(action=text):
            on_act(s, conn, text)
        case wire.Ping():
            s.tell(conn, wire.Pong(seq=s.t.seq))
        case wire.Hint(bot=bot):
            on_hint(s, conn, bot)
        case wire.Check(actions=actions):
            on_check(s, conn, actions)
        case wire.Sync():
            s.tell(conn, snapshot(s.t, s.t.conns[conn].seat, s.now))
        case wire.Sit(seat=seat):
            on_sit(s, conn, seat)
        case wire.Stand():
            on_stand(s, conn)
        case wire.AddBot(seat=seat, bot=bot):
            add_bot(s, conn, seat, bot)
        case wire.RemoveBot(seat=seat):
            on_remove_bot(s, conn, seat)
        case wire.Unseat(seat=seat):
            on_unseat(s, conn, seat)
        case wire.Ready(ready=ready):
            on_ready(s, conn, ready)
        case wire.Chat(text=text):
            on_chat(s, conn, text)
        case wire.Nudge():
            on_nudge(s, conn)
        case wire.Leave():
            on_leave(s, conn)
        case wire.AutoPlay(on=on):
            on_auto(s, conn, on)
        case wire.NextDeal():
            on_next_deal(s, conn)
        case wire.NewMatch():
            on_new_match(s, conn)
        case wire.CloseRoom():
            on_close_room(s, conn)
        case wire.ResetDeal():
            on_reset_deal(s, conn)
        case wire.Vote(yes=yes):
            on_vote(s, conn, yes)
        case wire.EndMatch():
            on_end_match(s, conn)
        case _:
            s.error(conn, "bad-message", f"{type(msg).__name__.lower()} is not expected now")


def on_auto(s: Step, conn: int, on: bool) -> None:
    """A player puts their seat on 托管, or takes it back."""
    seat = s.t.conns[conn].seat
    if seat is None:
        s.error(conn, "not-seated", "take a seat first")
        return
    if not s.t.playing:
        s.error(conn, "wrong-phase", "no match is being played")
        return
    set_auto(s, seat, on)
