"""What happens next without anyone saying anything: cards are dealt, bots are asked, turn
clocks run out, the summary hold ends, gone guests lose their seats. And the one wake-up
the table needs for it.

A running table always has a next step (``next_step``): a write the shell is doing (or
will retry), a bot it asked, a wake-up it asked for, or a human to act whose clock runs
(or, in a room without a turn timer, who is there). Nothing moves while a write is out:
the next step waits for it.

Turn clocks: a human to act gets ``turn_s`` seconds (``long_turn_s`` to bury, call a
friend, bid or name trump). When a window that may be passed runs out (declaring after the
deal, 反底, a 竞标 bid) the seat passes: silence there is "no declaration", never 托管.
When any other turn runs out (play, bury, call, name) the seat goes on 托管 and the
auto-play bot moves for it until the player acts or takes back.
"""

from __future__ import annotations

from dataclasses import replace

from shengji.core.actions import SYSTEM, Pass
from shengji.core.phases import Phase
from shengji.server.table.connections import reseat, room_update
from shengji.server.table.dealing import deal_round
from shengji.server.table.effects import AskBot, WakeAt
from shengji.server.table.model import EMPTY, BotAsk, Clock, Hold, Table, evolve
from shengji.server.table.play import apply, set_auto
from shengji.server.table.seating import set_seat
from shengji.server.table.step import Step
from shengji.server.table.views import clock_info, hold_info
from shengji.server.wire import messages as wire

LONG_PHASES = frozenset({Phase.BURYING, Phase.CALLING, Phase.BIDDING, Phase.NAMING})
"""Phases whose turns get the long timer."""

PASS_ON_TIMEOUT = frozenset({Phase.DECLARING, Phase.REBURY, Phase.BIDDING})
"""Phases whose turn, run out, is a pass (不亮 / no bid) rather than 托管."""


def schedule(s: Step) -> None:
    """Take every step that is due now."""
    if s.t.closed:
        return
    if s.t.status == "waiting":
        free_gone_seats(s)
    elif s.t.playing and s.t.outbox.idle:
        advance(s)


def free_gone_seats(s: Step) -> None:
    """Between matches a seated guest gone longer than the grace time loses the seat."""
    gone = [i for i in s.t.humans() if s.t.gone_past_grace(i, s.now)]
    for seat in gone:
        name = s.t.seats[seat].name
        set_seat(s, seat, EMPTY)
        s.note("info", f"seat {seat} freed: {name} gone longer than the grace time")
    if gone:
        reseat(s)
        room_update(s)


def advance(s: Step) -> None:
    """The running match's next step, if it is due: deal a card, ask a bot, start or end a
    turn clock, end the summary hold."""
    t = s.t
    m = t.match
    assert m is not None
    h = t.hold
    if h is not None:
        still = frozenset(i for i in h.waiting if i not in t.away_since and i not in t.auto)
        if still != h.waiting:  # nobody waits for a player who left or is on 托管
            h = replace(h, waiting=still, until=h.until if still else min(h.until, s.now))
        if h.until > s.now:
            s.t = evolve(t, hold=h)
            return
        s.t = t = evolve(t, hold=None, next_card_at=max(t.next_card_at, s.now))
    actor = m.to_act
    if actor is None:
        return
    if actor == SYSTEM:
        if t.next_card_at <= s.now:
            deal_round(s)
        return
    if t.bot_controls(actor, s.now):
        s.t = evolve(t, clock=None)
        ask_bot(s, actor)
        return
    limit = t.config.options.turn_limit(m.deal.phase in LONG_PHASES) * t.config.limits.clock_scale
    if limit <= 0:
        s.t = evolve(t, clock=None)
        return
    c = t.clock
    if c is None or c.seat != actor or c.version != t.version:
        s.t = evolve(t, clock=Clock(actor, t.version, s.now, s.now + limit))
    elif c.deadline <= s.now:
        s.note("debug", f"seat {actor} ran out of time")
        s.t = evolve(t, clock=None)
        if m.deal.phase in PASS_ON_TIMEOUT and apply(s, Pass(actor), None) is not None:
            return  # silence in a window is a pass, not 托管 (a refused pass: 托管 below)
        set_auto(s, actor, True)
        ask_bot(s, actor)


def ask_bot(s: Step, seat: int) -> None:
    """Ask the seat's bot for its move, unless it was asked for this version already."""
    t = s.t
    ask = BotAsk(seat, t.version)
    if t.bot_ask == ask or t.match is None:
        return
    s.t = evolve(t, bot_ask=ask)
    name = t.bot_name(seat)
    pace = t.config.options.bot_delay_factor(len(t.humans()))
    seed = f"{t.match_seed()}/{seat}"
    s.emit(AskBot(seat, t.version, t.match_no, name, seed, t.match, delay_factor=pace))


def announce(s: Step, clock: Clock | None, hold: Hold | None) -> None:
    """Tell everyone when the turn clock or the summary hold changed during this step."""
    t = s.t
    if t.clock != clock:
        s.tell_all(wire.ClockMsg(seq=t.seq, clock=clock_info(t, s.now)))
    if t.hold != hold:
        s.tell_all(wire.HoldMsg(seq=t.seq, hold=hold_info(t, s.now)))


def due_times(t: Table, now: float) -> list[float]:
    """Every future moment at which the table has something to do by itself."""
    out: list[float] = []
    ob = t.outbox
    if ob.retry_at is not None:
        out.append(ob.retry_at)
    if t.closed:
        return out
    grace = t.grace()
    if t.status == "waiting":
        out += [since + grace for since in t.away_since.values()]
    elif t.playing and ob.idle:
        if t.hold is not None:
            out.append(t.hold.until)
        elif t.dealing():
            out.append(t.next_card_at)
        if t.clock is not None:
            out.append(t.clock.deadline)
        actor = t.to_act()
        if actor is not None and actor >= 0 and actor in t.away_since:
            out.append(t.away_since[actor] + grace)
    return [x for x in out if x > now]


def wake(s: Step) -> None:
    """Ask the shell for the next wake-up the table needs (if it changed)."""
    times = due_times(s.t, s.now)
    at = min(times) if times else None
    if at != s.t.wake:
        s.t = evolve(s.t, wake=at)
        if at is not None:
            s.emit(WakeAt(at))


def next_step(t: Table) -> str | None:
    """What the table waits for next (None: nothing, which a running table never is):
    ``"write"``, ``"retry"``, ``"bot"``, ``"wake"`` or ``"human"``."""
    ob = t.outbox
    if ob.issued is not None and ob.retry_at is None:
        return "write"
    if ob.retry_at is not None:
        return "retry"
    if t.closed or t.status != "playing":
        return "waiting room"
    if t.bot_ask is not None:
        return "bot"
    if t.wake is not None:
        return "wake"
    actor = t.to_act()
    if actor is not None and actor >= 0 and t.connected(actor):
        return "human"
    return None
