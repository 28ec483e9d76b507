"""The match at the table: actions from players and bots, the end of a deal (the summary
hold, the stakes), the end of a match (its record, the winners), hints and dry runs.

Every accepted action is applied at once and logged; its ``update`` goes out once the log
row is durable (table/outbox.py). An action that only one seat may know of (a hidden
declaration while dealing) keeps the current sequence number, so its existence stays
private.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import msgspec

from shengji.core.actions import Action, Deal, MatchAction
from shengji.core.dry_run import dry_run
from shengji.core.errors import ShengjiError
from shengji.core.events import DealEnded, Event
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, record_result
from shengji.core.seat_names import display_name
from shengji.server.table.bots import HINT_BOTS, fallback_move, seeded_rng
from shengji.server.table.client_actions import action_text, client_action
from shengji.server.table.commands import (
    BotDeclared,
    BotMoved,
    DealsSettled,
    GameSaved,
    HintReady,
)
from shengji.server.table.connections import room_update
from shengji.server.table.effects import AskHint, DealToSettle, SaveGame, SettleDeals
from shengji.server.table.model import ActionLog, Hold, Table, evolve
from shengji.server.table.render import UpdateEntry
from shengji.server.table.step import Step
from shengji.server.table.views import update_base
from shengji.server.wire import messages as wire
from shengji.server.wire.actions import TypedAction, logged, to_action
from shengji.server.wire.projection import render_events


def on_act(s: Step, conn: int, text: str | TypedAction) -> None:
    """A game action for the connection's own seat (its text, or v3: typed), parsed here
    once; refused with the reason ``check`` would give; acting ends the seat's 托管."""
    t = s.t
    seat = t.conns[conn].seat
    if seat is None:
        s.error(conn, "not-seated", "spectators cannot act")
        return
    if not t.playing:
        s.error(conn, "wrong-phase", "no match is being played")
        return
    try:
        action = client_action(text, seat) if isinstance(text, str) else to_action(text, seat)
    except ShengjiError as e:
        s.error(conn, e.reason.value, e.message)
        return
    if apply(s, action, conn) is not None and seat in s.t.auto:
        set_auto(s, seat, False)


def set_auto(s: Step, seat: int, on: bool) -> None:
    """Put a seat on 托管 (the auto-play bot moves for it) or take it back."""
    auto = s.t.auto | {seat} if on else s.t.auto - {seat}
    if auto == s.t.auto:
        return
    s.t = evolve(s.t, auto=auto, bot_ask=None if not on else s.t.bot_ask)
    s.note("debug", f"seat {seat} {'goes on' if on else 'is taken back from'} auto-play")
    room_update(s)


def apply(s: Step, action: MatchAction, conn: int | None) -> list[Event] | None:
    """Check, log (before anyone hears of it) and announce one game action; its events, or
    None when refused (the connection is told why)."""
    t = s.t
    m = t.match
    assert m is not None
    if conn is not None and t.outbox.unwritten >= t.config.limits.max_unwritten:
        s.error(conn, "storage", "the server cannot record that now; try again in a moment")
        return None
    try:
        new, events = m.apply(action)
    except ShengjiError as e:
        if conn is not None:
            s.error(conn, e.reason.value, e.message)
        return None
    announce(s, m, new, ((action, events),))
    return events


def announce(
    s: Step,
    m: MatchState,
    new: MatchState,
    done: Sequence[tuple[MatchAction, list[Event]]],
) -> None:
    """Log the actions that took the match from ``m`` to ``new`` (one row each) and send
    one update with all their events: to everyone, or with the sequence number kept when
    only one seat may see them."""
    t = s.t
    events = [e for _, evs in done for e in evs]
    public = any(e.audience is None for e in events)
    seq = t.seq + 1 if public else t.seq
    texts = tuple(str(action) for action, _ in done)
    rows = tuple(logged(action) for action, _ in done)
    rosters = t.rosters
    first_card = isinstance(done[0][0], Deal) and m.deal.n_dealt == 0
    if first_card:  # who is settled for this deal: the players seated now
        rosters = {**rosters, m.deal.deal_no: t.seat_players()}
    s.t = t = evolve(
        t,
        match=new,
        seq=seq,
        version=t.version + len(done),
        actions=t.actions.add(texts),
        rosters=rosters,
        clock=None,
    )
    ended = any(isinstance(e, DealEnded) for e in events)
    entry = UpdateEntry(
        update_base(t, new, seq), render_events(events, new), new, made_at=s.now,
        actions=len(done),
    )
    audience = None if public else events[0].audience
    s.publish_update(entry, audience, rows, state=first_card)
    if ended:
        deal_ended(s, m.deal.deal_no)


def match_done(s: Step) -> bool:
    """The match is won, or has played its ``max_deals``."""
    m = s.t.match
    if m is None:
        return False
    most = s.t.config.max_deals
    return m.is_over or (most is not None and len(m.history) >= most)


def deal_ended(s: Step, deal_no: int) -> None:
    """A deal ended: settle its stakes, then hold the summary (or finish the match)."""
    t = s.t
    m = t.match
    assert m is not None
    if t.config.stakes.kind != "plain":
        settle(s, deal_no)
    if match_done(s):
        finish(s)
        return
    lim, opts = t.config.limits, t.config.options
    waiting = frozenset(
        i for i in t.humans() if t.connected(i) and i not in t.auto and i not in t.away_since
    )
    if opts.next_deal_s > 0 and waiting:
        hold = Hold(deal_no, s.now + opts.next_deal_s, waiting)
    else:
        hold = Hold(deal_no, s.now + lim.deal_end_pause_s, frozenset())
    s.t = evolve(s.t, hold=hold)


def on_next_deal(s: Step, conn: int) -> None:
    """A player has read the summary ("next deal")."""
    h, seat = s.t.hold, s.t.conns[conn].seat
    if h is None or seat is None or seat not in h.waiting:
        return
    waiting = h.waiting - {seat}
    s.t = evolve(s.t, hold=replace(h, waiting=waiting, until=h.until if waiting else s.now))


def settle(s: Step, announce: int) -> None:
    """Queue the stakes of every finished deal of the match (the database skips those
    settled before); a deal without a human on each side settles nothing."""
    t = s.t
    m = t.match
    assert m is not None
    deals = []
    for d in m.history:
        players = t.rosters.get(d.deal_no, t.seat_players())
        deals.append(DealToSettle(d.deal_no, d.result, tuple(players)))
    request = SettleDeals(t.match_no, t.config.stakes, tuple(deals), announce)
    s.t = evolve(t, outbox=t.outbox.add(request))


def on_settled(s: Step, cmd: DealsSettled, request: SettleDeals) -> None:
    """Stakes are durable: tell the room what the announced deal did to each seat."""
    for d in cmd.deals:
        if d.deal_no != request.announce:
            continue
        st = d.settlement
        seq = s.next_seq()
        msg = wire.Settled(
            seq=seq,
            match_no=request.match_no,
            deal_no=d.deal_no,
            kind=request.rules.kind,
            settled=st is not None,
            deltas=d.wire_deltas(),
            players=list(d.players),
            reason="" if st is None else st.reason,
            base=0 if st is None else st.base,
            multiplier=1 if st is None else st.multiplier,
        )
        s.publish(msg, "settled", wire.encode(msg).decode())
    done = {d.deal_no for d in cmd.deals if d.settlement is not None}
    if done:
        s.t = evolve(s.t, rosters={k: v for k, v in s.t.rosters.items() if k not in done})


def match_record(t: Table, result: dict[str, Any] | None = None) -> GameRecord:
    """The table's current match as a record (its seed is secret until the match is over:
    a record of a live match stays on the server; only what it renders leaves)."""
    return GameRecord(
        t.config.ruleset.to_dict(),
        t.match_seed(),
        None,
        list(t.actions),
        {} if result is None else result,
        [x.name or x.kind for x in t.seats],
    )


def finish(s: Step) -> None:
    """The match is over: save its record; the room waits for it (``GameSaved``)."""
    t = s.t
    m = t.match
    assert m is not None
    rec = match_record(t, record_result(m))
    humans = tuple((i, p) for i, p in enumerate(t.seat_players()) if p)
    request = SaveGame(t.match_no, rec.to_json(), humans)
    outbox = t.outbox.add(request)
    s.t = evolve(t, finishing=True, clock=None, hold=None, bot_ask=None, outbox=outbox)


def leaders(m: MatchState) -> list[int]:
    """The seats that won: the match's winners, or for a match cut short (``max_deals``)
    the seats on the highest level (none when every seat is on the same level).

    >>> from shengji.core.ruleset import PRESETS
    >>> m = MatchState.new(PRESETS["classic"], 1)
    >>> leaders(m), leaders(replace(m, levels=(2, 1, 2, 1)))
    ([], [0, 2])
    """
    if m.winners:
        return sorted(m.winners)
    best = max(m.levels)
    top = [i for i, lv in enumerate(m.levels) if lv == best]
    return [] if len(top) == len(m.levels) else top


def on_game_saved(s: Step, cmd: GameSaved) -> None:
    """The record is stored: announce the winners; the room waits for the next match."""
    t = s.t
    m = t.match
    assert m is not None
    result = msgspec.convert(record_result(m), wire.MatchResult)
    winners = leaders(m)
    names = [display_name(i, t.seats[i].name, t.seats[i].bot) for i in winners]
    seats = tuple(replace(x, ready=False) if x.kind == "human" else x for x in t.seats)
    s.t = evolve(
        t,
        status="waiting",
        match=None,
        actions=ActionLog(),
        drawn_seed=None,
        rosters={},
        finishing=False,
        version=t.version + 1,
        seats=seats,
        auto=frozenset(),
        clock=None,
        hold=None,
        vote=None,
        ended_early=False,
    )
    seq = s.next_seq()
    msg = wire.MatchOver(
        seq=seq, game=cmd.game, result=result, winners=winners, names=names, early=t.ended_early
    )
    s.publish(msg, "match_over", json.dumps({"game": cmd.game}), state=True)
    s.note("info", f"match {t.match_no} over (game {cmd.game}), won by seats {winners}")
    room_update(s)


def on_bot_moved(s: Step, cmd: BotMoved) -> None:
    """A bot's move for the seat it was asked about; stale answers are dropped (the table
    asks again if it must), a failed or illegal one is replaced by a random legal move."""
    t = s.t
    ask = t.bot_ask
    if ask is None or ask.seat != cmd.seat or ask.version != cmd.version:
        return
    s.t = t = evolve(t, bot_ask=None)
    m = t.match
    if m is None or not t.playing or t.version != cmd.version or t.to_act() != cmd.seat:
        return
    if not t.bot_controls(cmd.seat, s.now):
        return  # its player came back (or took it back) while the bot was thinking
    action = cmd.action
    if action is not None:  # applied once: an illegal move changes nothing and is refused
        if apply(s, action, None) is not None:
            return
        s.note("warning", f"bot move {action} refused; a random legal move instead")
    fallback = fallback_move(m.deal, cmd.seat, seeded_rng(t.match_seed(), t.version))
    if fallback is not None:
        apply(s, fallback, None)


def on_bot_declared(s: Step, cmd: BotDeclared) -> None:
    """A bot's declaration while dealing, if it is still legal."""
    t = s.t
    s.t = t = evolve(t, declare_asks=t.declare_asks - {cmd.seat})
    m = t.match
    if (
        cmd.action is None
        or m is None
        or not t.playing
        or cmd.match_no != t.match_no
        or m.deal.phase is not Phase.DEALING
        or not t.bot_controls(cmd.seat, s.now)
    ):
        return
    apply(s, cmd.action, None)  # an illegal one changes nothing


def on_hint(s: Step, conn: int, bot: str | None) -> None:
    """One legal action for the connection's seat (a bot's choice when ``bot`` is named);
    refused where the room's rules offer no hints (tournament: "不许提示")."""
    t = s.t
    if not t.config.ruleset.player_aids:
        s.error(conn, "no-aids", "this room's rules offer no hints (不许提示)")
        return
    v = t.conns[conn]
    seat, m = v.seat, t.match
    action: Action | None = None
    if seat is not None and m is not None and t.playing:
        legal = m.legal_actions(seat)
        if legal:
            if m.deal.phase is Phase.DEALING:
                action = legal.small[0] if legal.small else None
            elif bot:
                if bot not in HINT_BOTS:
                    s.error(conn, "unknown-bot", f"hints come from {', '.join(HINT_BOTS)}")
                    return
                if not v.hinting:  # one at a time per connection
                    s.t = evolve(t, conns={**t.conns, conn: replace(v, hinting=True)})
                    seed = f"{t.match_seed()}/hint/{seat}"
                    s.emit(AskHint(conn, seat, bot, seed, m))
                return
            else:
                action = legal.sample(seeded_rng(t.match_seed(), t.version, conn))
    send_hint(s, conn, action)


def on_hint_ready(s: Step, cmd: HintReady) -> None:
    """A bot's hint came back."""
    v = s.t.conns.get(cmd.conn)
    if v is None:
        return
    s.t = evolve(s.t, conns={**s.t.conns, cmd.conn: replace(v, hinting=False)})
    send_hint(s, cmd.conn, cmd.action)


def send_hint(s: Step, conn: int, action: Action | None) -> None:
    """Tell a connection the hint."""
    text = None if action is None else action_text(action)
    s.tell(conn, wire.HintMsg(seq=s.t.seq, action=text))


def on_check(s: Step, conn: int, actions: list[str]) -> None:
    """Dry-run ``actions`` for the connection's seat; nothing changes. The answer comes from
    what the seat may know (``core.dry_run``): a throw is ``ok`` with the note ``"throw"``
    (checked against the other hands only when played), never its fate."""
    t = s.t
    seat, m = t.conns[conn].seat, t.match
    results: list[wire.CheckResult] = []
    for text in actions[:16]:
        code: str | None = None
        message: str | None = None
        note: str | None = None
        if seat is None:
            code, message = "not-seated", "spectators cannot act"
        elif m is None or not t.playing:
            code, message = "wrong-phase", "no match is being played"
        else:
            try:
                note = dry_run(m.deal, client_action(text, seat))
            except ShengjiError as e:
                code, message = e.reason.value, e.message
        results.append(
            wire.CheckResult(action=text, ok=code is None, code=code, message=message, note=note)
        )
    s.tell(conn, wire.Checked(seq=t.seq, results=results))
