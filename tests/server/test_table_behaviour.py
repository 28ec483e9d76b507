"""What players expect of a live table (issue 13, item 5), on a ``Table`` driven by the
test shell: turn clocks and 托管, take back, the summary that holds the next deal, gone
guests freed from the waiting room, the owner's rights, the match's winners."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from shengji.core.phases import Phase
from shengji.core.seat_names import display_name
from shengji.server.table import Table, TableOptions
from shengji.server.table.commands import ClientSaid, Closed, Opened, SeatBot
from shengji.server.table.options import Limits
from shengji.server.table.render import UpdateEntry
from shengji.server.table.timers import LONG_PHASES, PASS_ON_TIMEOUT
from shengji.server.table.validate import OptionError
from shengji.server.wire import messages as wire
from tests.server.table_sim import Sim, config

PACE = TableOptions(turn_s=20.0, long_turn_s=45.0, next_deal_s=30.0)


def table(humans: int = 1, pace: TableOptions = PACE, **kw: object) -> Sim:
    """A classic table: ``humans`` players (ann, bob ...) in seats 0.., bots after; the
    owner is ann. Runs until the first human has to act."""
    cfg = replace(config("classic", **kw), options=pace, owner="ann")
    sim = Sim(Table.empty(cfg, spare_seed="seed"))
    names = ["ann", "bob", "cat", "dan"]
    for i in range(humans):
        sim.feed(Opened(i + 1, names[i], names[i]))
        sim.feed(ClientSaid(i + 1, wire.Sit(seat=i)))
        sim.feed(ClientSaid(i + 1, wire.Ready()))
    for seat in range(humans, 4):
        sim.feed(SeatBot(seat, "random"))
    return sim


def flush(sim: Sim) -> None:
    """Every write out and queued is done (what it held back is sent)."""
    while sim.complete_write():
        pass


def human_turn(sim: Sim, seat: int = 0) -> None:
    """Run until ``seat`` has a turn to bury or play on the clock (windows it may pass go by
    as passes when their clocks run out)."""
    sim.run(
        until=lambda s: s.table.to_act() == seat
        and s.table.clock is not None
        and s.table.match is not None
        and s.table.match.deal.phase not in PASS_ON_TIMEOUT
    )


def test_silence_in_the_declare_window_is_a_pass_not_auto_play() -> None:
    sim = table()
    sim.run(
        until=lambda s: s.table.to_act() == 0
        and s.table.clock is not None
        and s.table.match is not None
        and s.table.match.deal.phase is Phase.DECLARING
    )
    version = sim.table.version
    assert sim.tick()  # the window's clock runs out
    flush(sim)
    assert 0 not in sim.table.auto and not seat_info(sim, 0).auto
    assert sim.table.version == version + 1  # one action: seat 0 passed
    assert list(sim.table.actions)[-1] == "pass 0"
    assert not any(a.seat == 0 for a in sim.asks)  # no bot asked to move for it


def seat_info(sim: Sim, seat: int) -> wire.SeatInfo:
    rooms = [m for m in sim.messages(1, "room") if isinstance(m, wire.RoomUpdate)]
    return rooms[-1].room.seats[seat]


def play_until(sim: Sim, goal: Callable[[Sim], bool], steps: int = 20000) -> None:
    """Run the table; the humans (connection = seat + 1) play legal moves when it is their
    turn, so nobody is on 托管."""
    for _ in range(steps):
        if goal(sim):
            return
        actor = sim.table.to_act()
        idle = not sim.writes and not sim.asks
        if idle and actor is not None and actor >= 0 and sim.table.seats[actor].kind == "human":
            play_one(sim, actor + 1, actor)
            continue
        if not sim.run(1):
            return


def play_one(sim: Sim, conn: int, seat: int) -> None:
    m = sim.table.match
    assert m is not None
    legal = m.legal_actions(seat)
    action = legal.sample(sim.rng)
    text = " ".join([str(action).split()[0], *str(action).split()[2:]])
    sim.feed(ClientSaid(conn, wire.Act(action=text)))


# ------------------------------------------------------------------------------ turn clock


def test_a_human_to_act_gets_a_turn_clock_and_everyone_sees_it() -> None:
    sim = table()
    human_turn(sim)
    clock = sim.table.clock
    assert clock is not None and clock.seat == 0
    phase = sim.table.match.deal.phase if sim.table.match else None
    assert clock.deadline - clock.started == pytest.approx(45.0 if phase in LONG_PHASES else 20.0)
    told = [m for m in sim.messages(1, "clock") if isinstance(m, wire.ClockMsg)]
    assert told[-1].clock is not None and told[-1].clock.seat == 0
    assert told[-1].clock.total_ms == round((clock.deadline - clock.started) * 1000)


def test_on_timeout_the_seat_goes_on_auto_play_and_is_marked() -> None:
    sim = table()
    human_turn(sim)
    version = sim.table.version
    assert sim.tick()  # the clock runs out
    flush(sim)
    assert 0 in sim.table.auto and seat_info(sim, 0).auto
    assert sim.asks and sim.asks[-1].seat == 0 and sim.asks[-1].bot == "heuristic"
    sim.answer_bot()
    sim.run(3)
    assert sim.table.version > version  # the auto-play bot moved for seat 0


def test_take_back_and_acting_end_auto_play() -> None:
    sim = table()
    human_turn(sim)
    sim.tick()  # out of time: 托管, its bot is asked
    assert 0 in sim.table.auto and sim.asks
    version = sim.table.version
    sim.feed(ClientSaid(1, wire.AutoPlay(on=False)))  # "take back" while the bot thinks
    flush(sim)
    assert 0 not in sim.table.auto and not seat_info(sim, 0).auto
    sim.answer_bot()  # its answer comes too late: dropped
    assert sim.table.version == version and sim.table.to_act() == 0
    assert sim.table.clock is not None  # the player's own clock again
    sim.feed(ClientSaid(1, wire.AutoPlay(on=True)))  # 托管 on purpose
    flush(sim)
    assert 0 in sim.table.auto and sim.asks
    play_one(sim, 1, 0)  # the player acts before the bot: back in control
    assert 0 not in sim.table.auto and sim.table.version == version + 1
    sim.answer_bot()  # stale: dropped
    assert sim.table.version == version + 1


def test_a_private_room_has_no_turn_clock_by_default() -> None:
    pace = TableOptions.defaults(private=True)
    assert pace.turn_s == pace.long_turn_s == 0
    sim = table(pace=pace, private=True)
    sim.run(until=lambda s: s.table.to_act() == 0 and not s.writes)
    assert sim.table.clock is None and sim.table.wake is None
    assert not sim.tick()  # nothing hurries the player


def test_room_options_are_checked_with_the_field_named() -> None:
    assert TableOptions.parse({"turn_s": 0, "next_deal_s": 10}, private=False).turn_s == 0
    for bad, field in (({"turn_s": 3}, "table.turn_s"), ({"x": 1}, "table.x")):
        with pytest.raises(OptionError) as e:
            TableOptions.parse(bad, private=False)
        assert e.value.field == field


# ------------------------------------------------------------------------------ between deals


def _to_deal_end(sim: Sim) -> None:
    play_until(sim, lambda s: s.table.hold is not None)
    while sim.complete_write():  # the deal's end is written and sent
        pass


def test_the_summary_holds_the_next_deal_until_every_human_pressed() -> None:
    sim = table(humans=2, pace=replace(PACE, turn_s=0, long_turn_s=0))
    _to_deal_end(sim)
    hold = sim.table.hold
    assert hold is not None and hold.waiting == {0, 1}
    m = sim.table.match
    assert m is not None and m.deal.n_dealt == 0
    assert sim.wake == hold.until and not sim.writes and not sim.asks  # nothing else to do
    sim.feed(ClientSaid(1, wire.NextDeal()))
    sim.complete_write()
    told = [m for m in sim.messages(2, "next_deal") if isinstance(m, wire.HoldMsg)]
    assert told[-1].hold is not None and told[-1].hold.waiting == [1]
    assert sim.table.match is not None and sim.table.match.deal.n_dealt == 0
    sim.feed(ClientSaid(2, wire.NextDeal()))  # everyone has read it: dealing starts
    assert sim.table.hold is None
    sim.run(20)
    assert sim.table.match.deal.n_dealt > 0
    assert sim.messages(1, "next_deal")[-1].hold is None  # type: ignore[attr-defined]


def test_the_summary_waits_no_longer_than_its_timeout() -> None:
    sim = table(pace=replace(PACE, turn_s=0, long_turn_s=0))
    _to_deal_end(sim)
    hold = sim.table.hold
    assert hold is not None and hold.waiting == {0}
    assert sim.wake == hold.until
    sim.tick()
    sim.run(10)
    assert sim.table.hold is None and sim.table.match.deal.n_dealt > 0


def test_a_player_who_left_is_not_waited_for() -> None:
    sim = table(pace=replace(PACE, turn_s=0, long_turn_s=0))
    _to_deal_end(sim)
    sim.feed(Closed(1))
    sim.run(10)
    assert sim.table.hold is None


def test_the_deal_end_summary_rides_on_deal_ended() -> None:
    sim = table(pace=replace(PACE, turn_s=0, long_turn_s=0))
    sim.table = replace(sim.table, auto=frozenset({0}))
    summaries = []

    def look(send: object) -> None:
        msg = getattr(send, "msg", None)
        if isinstance(msg, UpdateEntry):
            for _aud, ev in msg.events:
                if isinstance(ev, wire.DealEndedEvent):
                    summaries.append(ev.summary)

    sim.on_send = look
    _to_deal_end(sim)
    sim.run(10)
    assert summaries and summaries[0] is not None and summaries[0].deal_no == 0


# ------------------------------------------------------------------------------ presence, seats


def test_a_seated_guest_gone_past_the_grace_time_loses_the_seat() -> None:
    cfg = replace(config("classic"), limits=Limits(waiting_grace_s=60.0), owner="ann")
    sim = Sim(Table.empty(cfg, spare_seed="s"))
    sim.feed(Opened(1, "ann", "ann"))
    sim.feed(Opened(2, "bob", "bob"))
    sim.feed(ClientSaid(2, wire.Sit(seat=1)))
    sim.run()
    sim.feed(Closed(2))
    assert sim.table.seats[1].kind == "human"  # not at once
    assert sim.wake == pytest.approx(sim.now + 60.0)
    sim.tick()
    sim.run()
    assert sim.table.seats[1].kind == "empty"
    assert seat_info(sim, 1).kind == "empty"  # the others are told


def test_coming_back_in_time_keeps_the_seat() -> None:
    cfg = replace(config("classic"), limits=Limits(waiting_grace_s=60.0))
    sim = Sim(Table.empty(cfg, spare_seed="s"))
    sim.feed(Opened(2, "bob", "bob"))
    sim.feed(ClientSaid(2, wire.Sit(seat=1)))
    sim.run()
    sim.feed(Closed(2))
    sim.now += 30
    sim.feed(Opened(3, "bob", "bob"))
    sim.now += 40
    sim.run()
    assert sim.table.seats[1].player == "bob" and sim.table.conns[3].seat == 1


def test_the_owner_moves_a_player_out_and_fills_the_seat_with_a_bot() -> None:
    cfg = replace(config("classic"), owner="ann")
    sim = Sim(Table.empty(cfg, spare_seed="s"))
    sim.feed(Opened(1, "ann", "ann"))
    sim.feed(Opened(2, "bob", "bob"))
    sim.feed(ClientSaid(2, wire.Sit(seat=1)))
    sim.feed(ClientSaid(2, wire.AddBot(seat=2)))  # not the owner
    sim.run()
    assert sim.messages(2, "error")[-1].code == "not-owner"  # type: ignore[attr-defined]
    sim.feed(ClientSaid(1, wire.Unseat(seat=1)))
    sim.feed(ClientSaid(1, wire.AddBot(seat=1, bot="heuristic")))
    sim.run()
    assert sim.table.seats[1].kind == "bot" and sim.table.conns[2].seat is None


# ------------------------------------------------------------------------------ match end


def test_match_end_names_the_winners_and_the_owner_starts_the_next() -> None:
    sim = table(pace=replace(PACE, turn_s=0, long_turn_s=0, next_deal_s=0), max_deals=1)
    sim.table = replace(sim.table, auto=frozenset({0}))
    sim.run(until=lambda s: s.table.status == "waiting")
    sim.run()
    over = [m for m in sim.messages(1, "match_over") if isinstance(m, wire.MatchOver)]
    assert len(over) == 1
    m = over[0]
    levels = sim.table.match.levels if sim.table.match else None
    assert levels is None  # the match is over
    top = [i for i, lv in enumerate(m.result.levels) if lv == max(m.result.levels)]
    assert m.winners == (top if len(top) < 4 else [])  # cut short: who leads
    seats = sim.table.seats
    assert m.names == [display_name(i, seats[i].name, seats[i].bot) for i in m.winners]
    assert sim.table.status == "waiting" and not sim.table.seats[0].ready
    sim.feed(ClientSaid(1, wire.NewMatch()))
    assert sim.table.status == "playing" and sim.table.match_no == 2


def test_the_owner_closes_the_room_for_everyone() -> None:
    sim = table(humans=2)
    sim.run(5)
    sim.feed(ClientSaid(2, wire.CloseRoom()))
    assert not sim.table.closed
    sim.feed(ClientSaid(1, wire.CloseRoom()))
    sim.run()
    assert sim.table.closed and {1, 2} <= sim.closed
    assert sim.messages(2, "error")[-1].code == "no-room"  # type: ignore[attr-defined]


def test_bury_and_call_get_the_long_clock() -> None:
    sim = table(pace=PACE)
    sim.run(
        until=lambda s: s.table.match is not None
        and s.table.match.deal.phase is Phase.BURYING
        and s.table.clock is not None
    )
    if sim.table.to_act() == 0:
        c = sim.table.clock
        assert c is not None and c.deadline - c.started == 45.0


def test_evolve_knows_every_field_of_a_table() -> None:
    from dataclasses import fields

    from shengji.server.table.model import TableChanges, evolve

    assert set(TableChanges.__annotations__) == {f.name for f in fields(Table)}
    t = Table.empty(config("classic"))
    assert evolve(t, seq=5, closed=True) == replace(t, seq=5, closed=True)


# ------------------------------------------------------------------------------ bot pace


@pytest.mark.parametrize(("humans", "factor"), [(1, 0.25), (2, 1.0)])
def test_a_fast_bot_pace_speeds_bots_only_for_one_human(humans: int, factor: float) -> None:
    sim = table(humans=humans, pace=replace(PACE, bot_pace=0.25))
    sim.run(until=lambda s: any(a.purpose == "move" for a in s.asks))
    moves = [a for a in sim.asks if a.purpose == "move"]
    assert moves and {a.delay_factor for a in moves} == {factor}


def test_bot_pace_is_one_of_three() -> None:
    assert TableOptions.parse({"bot_pace": 2}, private=False).bot_pace == 2.0
    with pytest.raises(OptionError, match=r"table\.bot_pace: one of 2 \(slow\), 1 \(normal\)"):
        TableOptions.parse({"bot_pace": 0.5}, private=False)
