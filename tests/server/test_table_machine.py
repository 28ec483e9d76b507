"""The live table never stalls (issue 13): a hypothesis state machine drives a ``Table``
with random commands — players coming and going, acting in and out of turn, writes that
fail, bots that fail or answer nonsense, clocks that run out, restarts — and after every
step checks that

- a running table has a next step the shell is really taking: a write out (or a retry
  due), a bot asked, or a wake-up set (turn timers are on, so a human to act has one);
- no message to a seat holds another seat's hidden cards, and spectators see no hand;
- nothing sequenced is sent before it is written;
- the written log replays to the same table (seats, status, match, every seat's view);
- silence never puts a seat on 托管 in a window that may be passed (declaring after the
  deal, 反底, a 竞标 bid): a clock that runs out there is a pass; 托管 comes only from a
  turn to play, bury, call or name that ran out, or from the player asking for it.

The shell is ``tests/server/table_sim.py``: the real ``rooms.py`` does the same with I/O.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import msgspec
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from shengji.core.actions import Pass
from shengji.core.cards import parse_cards
from shengji.core.phases import Phase
from shengji.core.state import DealState
from shengji.core.views import view_for
from shengji.server.table import Table, TableOptions, next_step, restored
from shengji.server.table.commands import ClientSaid, Closed, Command, Opened, SeatBot, Tick
from shengji.server.table.effects import Send
from shengji.server.table.render import UpdateEntry
from shengji.server.wire import messages as wire
from tests.server.table_sim import Sim, config

PLAYERS = ("ann", "bob", "cat")
PACE = TableOptions(turn_s=20.0, long_turn_s=40.0, next_deal_s=15.0)


def ever_held(deal: DealState, seat: int) -> Counter[int]:
    """Every card ``seat`` held at some point of the deal (its hand, what it played, the
    kitty if it took it): what a message to it may show of its own cards."""
    out = Counter({card: n for card, n in enumerate(deal.hands[seat]) if n})  # counts
    for t in deal.tricks:
        for s, cards in t.plays:
            if s == seat:
                out.update(cards)
    for s, cards in deal.trick:
        if s == seat:
            out.update(cards)
    if deal.kitty_holder == seat:
        out.update(deal.kitty)
        out.update(deal.kitty_kept)
    return out


class Leak(AssertionError):
    """A message showed a seat something it may not see."""


def check_message(msg: wire.ServerMsg, seat: int | None, deal: DealState | None) -> None:
    """No hidden card of another seat in ``msg`` to ``seat`` (None: a spectator)."""
    events = msgspec.to_builtins(msg.events) if isinstance(msg, wire.Update) else []
    for e in events:
        kind = e["type"]
        if kind in ("card_dealt", "kitty_taken") and e["seat"] != seat:
            raise Leak(f"{kind} of seat {e['seat']} sent to seat {seat}")
        if kind == "kitty_buried" and e["cards"] and e["seat"] != seat:
            raise Leak(f"buried cards of seat {e['seat']} sent to seat {seat}")
    game = msg.game if isinstance(msg, wire.Update | wire.Snapshot) else None
    if game is None:
        return
    if seat is None:
        if game.hand:
            raise Leak("a spectator was sent a hand")
        return
    if deal is None or game.deal_no != deal.deal_no:
        return
    shown = Counter(parse_cards(game.hand))
    if shown - ever_held(deal, seat):
        raise Leak(f"seat {seat} was sent cards it never held: {shown - ever_held(deal, seat)}")


class TableMachine(RuleBasedStateMachine):
    """Random commands against one table and a fake shell."""

    def __init__(self) -> None:
        super().__init__()
        self.sim: Sim
        self.conn_ids = 0
        self.open: dict[int, str] = {}
        self.seen = 0

    @initialize(
        preset=st.sampled_from(["classic", "find-friend", "three-player", "huanle"]),
        humans=st.integers(1, 3),
    )
    def start(self, preset: str, humans: int) -> None:
        cfg = replace(config(preset, max_deals=2), options=PACE)
        self.sim = Sim(Table.empty(cfg, spare_seed="seed0"))
        self.sim.on_send = self._check_send
        self.sim.on_handle = self._check_auto
        players = cfg.ruleset.players
        humans = min(humans, players - 1)
        for i in range(humans):
            c = self._open(PLAYERS[i])
            self._say(c, wire.Sit(seat=i))
            self._say(c, wire.Ready())
        for seat in range(humans, players):
            self.sim.feed(SeatBot(seat, "random"))

    # ------------------------------------------------------------------ helpers

    def _open(self, player: str, last_seq: int | None = None) -> int:
        self.conn_ids += 1
        self.open[self.conn_ids] = player
        self.sim.feed(Opened(self.conn_ids, player, player, last_seq))
        return self.conn_ids

    def _say(self, conn: int, msg: wire.ClientMessage) -> None:
        self.sim.feed(ClientSaid(conn, msg))

    def _check_send(self, send: Send) -> None:
        m = self.sim.table.match
        for _conn, seat in send.to:
            msg = send.msg
            if isinstance(msg, UpdateEntry):
                deal = None if msg.match is None else msg.match.deal
                check_message(msg.message_for(seat), seat, deal)
            else:
                check_message(msg, seat, None if m is None else m.deal)

    def _check_auto(self, before: Table, cmd: Command, after: Table) -> None:
        """A seat goes on 托管 only when it asked, or when a turn it may not pass ran out."""
        gained = after.auto - before.auto
        m = before.match
        window = m is not None and m.deal.phase in (Phase.DECLARING, Phase.REBURY)
        if window and isinstance(cmd, Tick) and after.version > before.version:
            event("a silent seat passed the window")
        for seat in gained:
            if isinstance(cmd, ClientSaid) and isinstance(cmd.msg, wire.AutoPlay):
                conn = before.conns.get(cmd.conn)
                assert cmd.msg.on and conn is not None and conn.seat == seat
                continue
            assert isinstance(cmd, Tick), f"seat {seat} went on 托管 on {cmd}"
            assert m is not None
            phase = m.deal.phase
            assert phase not in (Phase.DECLARING, Phase.REBURY), f"托管 for silence in {phase}"
            assert not (phase is Phase.BIDDING and m.deal.is_legal(Pass(seat))), "托管 in bidding"
            event(f"a turn to {phase.value} ran out: 托管")

    # ------------------------------------------------------------------ players

    @rule(player=st.sampled_from(PLAYERS), resume=st.booleans())
    def connect(self, player: str, resume: bool) -> None:
        last = self.sim.table.sent_seq if resume else None
        self._open(player, last)

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data())
    def disconnect(self, data: st.DataObject) -> None:
        conn = data.draw(st.sampled_from(sorted(self.open)))
        del self.open[conn]
        self.sim.feed(Closed(conn))

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data(), legal=st.booleans())
    def act(self, data: st.DataObject, legal: bool) -> None:
        conn = data.draw(st.sampled_from(sorted(self.open)))
        t = self.sim.table
        viewer = t.conns.get(conn)
        m = t.match
        text = "play SA"
        if legal and viewer is not None and viewer.seat is not None and m is not None:
            actions = m.legal_actions(viewer.seat)
            if actions:
                action = actions.sample(self.sim.rng)
                text = " ".join([str(action).split()[0], *str(action).split()[2:]])
        self._say(conn, wire.Act(action=text))

    @precondition(lambda self: bool(self.open))
    @rule(
        data=st.data(),
        msg=st.sampled_from(
            [
                wire.Ping(),
                wire.Sync(),
                wire.Hint(),
                wire.Hint(bot="heuristic"),
                wire.Check(actions=["pass", "play SA"]),
                wire.Chat(text="你好"),
                wire.Nudge(),
                wire.NextDeal(),
                wire.AutoPlay(on=True),
                wire.AutoPlay(on=False),
                wire.Ready(),
                wire.Ready(ready=False),
                wire.Stand(),
                wire.Leave(),
                wire.NewMatch(),
                wire.Sit(seat=0),
                wire.Sit(seat=3),
                wire.Unseat(seat=1),
                wire.AddBot(seat=2, bot="random"),
                wire.RemoveBot(seat=2),
            ]
        ),
    )
    def say(self, data: st.DataObject, msg: wire.ClientMessage) -> None:
        conn = data.draw(st.sampled_from(sorted(self.open)))
        self._say(conn, msg)
        if isinstance(msg, wire.Leave):
            self.open.pop(conn, None)

    # ------------------------------------------------------------------ the shell's answers

    @precondition(lambda self: bool(self.sim.writes))
    @rule()
    def write_succeeds(self) -> None:
        self.sim.complete_write()

    @precondition(lambda self: bool(self.sim.writes))
    @rule()
    def write_fails(self) -> None:
        self.sim.complete_write(fail=True)

    @precondition(lambda self: bool(self.sim.asks))
    @rule(mode=st.sampled_from(["ok", "ok", "none", "bad"]))
    def bot_answers(self, mode: str) -> None:
        self.sim.answer_bot(mode)

    @precondition(lambda self: bool(self.sim.hints))
    @rule()
    def hint_answers(self) -> None:
        self.sim.answer_hint()

    @rule(dt=st.sampled_from([0.0, 0.5, 3.0, 25.0, 70.0]))
    def time_passes(self, dt: float) -> None:
        self.sim.now += dt
        if self.sim.wake is not None and self.sim.wake <= self.sim.now:
            self.sim.wake = None
        self.sim.feed(Tick())

    @rule(early=st.sampled_from([0.0005, 0.001]))
    def timer_fires_early(self, early: float) -> None:
        """The shell's timer fires a little before its time (uvloop counts milliseconds)."""
        if self.sim.wake is None:
            return
        self.sim.now = max(self.sim.now, self.sim.wake - early)
        self.sim.wake = None
        self.sim.feed(Tick())

    @rule(steps=st.integers(1, 400))
    def run_a_while(self, steps: int) -> None:
        self.sim.run(steps)

    @rule(goal=st.sampled_from(["hold", "human to act", "deal over", "match over"]))
    def run_until(self, goal: str) -> None:
        """Let the table run until something worth poking at happens (or 3000 steps)."""
        deals = len(self.sim.table.match.history) if self.sim.table.match else 0
        matches = self.sim.table.match_no

        def reached(sim: Sim) -> bool:
            t = sim.table
            if goal == "hold":
                return t.hold is not None
            if goal == "human to act":
                actor = t.to_act()
                return actor is not None and actor >= 0 and t.seats[actor].kind == "human"
            if goal == "deal over":
                return t.match is not None and len(t.match.history) > deals
            return t.match_no > matches or (t.status == "waiting" and matches > 0)

        self.sim.run(3000, until=reached)

    @precondition(lambda self: not self.sim.writes)
    @rule()
    def restart(self) -> None:
        """The server restarts: the table comes back from what was written."""
        s = self.sim
        s.table = restored(
            s.table.config, s.store.state, s.store.last_seq(), s.store.actions(), s.now, "seedR",
            last_pos=s.store.last_pos(),
        )
        s.writes, s.asks, s.hints, s.wake = [], [], [], None
        s.backlog = []
        self.open = {}
        s.feed(Tick())

    # ------------------------------------------------------------------ invariants

    @invariant()
    def has_a_next_step(self) -> None:
        t = self.sim.table
        step = next_step(t)
        for seen, what in (
            (t.status == "playing", "a match ran"),
            (t.match is not None and bool(t.match.history), "a deal ended"),
            (t.hold is not None, "a summary held the next deal"),
            (bool(t.auto), "a seat went on 托管"),
            (t.outbox.paused_since is not None, "writes failed: paused"),
            (t.finishing, "a match was being recorded"),
            (t.match_no > 1 or (t.match_no == 1 and t.status == "waiting"), "a match ended"),
        ):
            if seen:
                event(what)
        if t.status == "playing" and not t.closed:
            assert step in ("write", "retry", "bot", "wake"), (step, t.to_act(), t.clock)
        if step == "write":
            assert any(w.ticket == t.outbox.issued for w in self.sim.writes)
        if step == "retry":
            assert self.sim.wake is not None and self.sim.wake <= t.outbox.retry_at + 1e-9
        if step == "bot":
            ask = t.bot_ask
            assert ask is not None
            assert any(a.seat == ask.seat and a.version == ask.version for a in self.sim.asks)
        if step == "wake":
            assert self.sim.wake is not None and self.sim.wake == t.wake

    @invariant()
    def nothing_sent_before_written(self) -> None:
        assert not self.sim.sent_before_written, self.sim.sent_before_written[:3]

    @invariant()
    def the_log_replays_to_the_same_table(self) -> None:
        s = self.sim
        t = s.table
        if not t.outbox.idle or t.finishing:
            return
        back = restored(t.config, s.store.state, s.store.last_seq(), s.store.actions(), s.now,
                        last_pos=s.store.last_pos())
        assert back.seq == t.seq
        assert back.log_pos == t.log_pos
        assert back.seats == t.seats
        assert (back.status, back.match_no, back.drawn_seed) == (
            t.status,
            t.match_no,
            t.drawn_seed,
        )
        assert back.actions == t.actions
        if t.match is not None:
            assert back.match is not None
            assert back.match.levels == t.match.levels
            assert len(back.match.history) == len(t.match.history)
            for seat in range(t.config.ruleset.players):
                assert view_for(back.match.deal, seat) == view_for(t.match.deal, seat)


TableMachine.TestCase.settings = settings(
    max_examples=120,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_table_never_stalls = TableMachine.TestCase
