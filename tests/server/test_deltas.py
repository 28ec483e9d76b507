"""Protocol v3's deltas: after the snapshot, the ``delta`` messages rebuild, after every
action, exactly the whole view a version-2 client is sent, for every seat and the
spectators; a version-2 client keeps getting whole views."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.core.ruleset import PRESETS
from shengji.core.state import Phase
from shengji.server.table import Table
from shengji.server.table.commands import ClientSaid, Opened
from shengji.server.table.effects import Send
from shengji.server.table.render import Deltas, UpdateEntry, seat_of
from shengji.server.wire import messages as wire
from shengji.server.wire.seat_view import game_view
from tests.server.table_sim import Sim, config


class Watch:
    """What each connection holds: the view its snapshot gave, its deltas applied, checked
    after every one against the whole view the server would have sent."""

    def __init__(self) -> None:
        self.views: dict[int, dict[str, Any] | None] = {}
        self.deltas = 0
        self.full = 0
        self.delta_bytes = 0
        self.update_bytes = 0

    def on_send(self, e: Send) -> None:
        for conn, aud in e.to:
            msg = e.msg
            if isinstance(msg, wire.Snapshot):
                game = msg.game
                self.views[conn] = None if game is None else json.loads(msgspec.json.encode(game))
            elif isinstance(msg, UpdateEntry):
                self._update(conn, aud, msg)

    def _update(self, conn: int, aud: Any, entry: UpdateEntry) -> None:
        seat = seat_of(aud)
        assert entry.match is not None
        whole = json.loads(msgspec.json.encode(game_view(entry.match, seat)))
        sent = entry.encode_for([aud])[aud]
        got = json.loads(sent)
        if not isinstance(aud, Deltas):
            assert got["t"] == "update" and got["game"] == whole  # v2: the whole view
            return
        assert got["t"] == "delta" and "game" in got
        plain = entry.encode_for([seat])[seat]
        self.delta_bytes += len(sent)
        self.update_bytes += len(plain)
        view = self.views.get(conn)
        if view is None or set(got["game"]) == set(whole):
            self.full += 1
            view = {}
        view.update(apply_delta(view, got["game"]))
        self.views[conn] = view
        self.deltas += 1
        assert view == whole, {k: (view.get(k), whole[k]) for k in whole if view.get(k) != whole[k]}


def apply_delta(view: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    """The fields a delta sets, as a client applies them (``played_suits`` replaces the
    ``played`` groups of the same suits)."""
    out = {k: v for k, v in game.items() if k != "played_suits"}
    if "played_suits" in game:
        by_suit = {g["suit"]: g for g in game["played_suits"]}
        out["played"] = [by_suit.get(g["suit"], g) for g in view["played"]]
    return out


def run_match(preset: str, seed: int, *, v2_spectator: bool = True, deals: int = 2) -> Watch:
    """A match of ``deals`` deals between humans who play random legal actions (and declare
    now and then while cards are dealt), each on a version-3 connection, watched by a
    version-3 spectator (and a version-2 one)."""
    rs = PRESETS[preset]
    n = rs.players
    sim = Sim(Table.empty(config(preset, max_deals=deals), spare_seed=f"seed{seed}"))
    watch = Watch()
    sim.on_send = watch.on_send
    rng = random.Random(seed)
    for i in range(n):
        sim.feed(Opened(i + 1, f"p{i}", f"p{i}", deltas=True))
        sim.feed(ClientSaid(i + 1, wire.Sit(seat=i)))
    sim.feed(Opened(n + 1, "watcher", "watcher", deltas=True))
    if v2_spectator:
        sim.feed(Opened(n + 2, "old", "old"))
    for i in range(n):
        sim.feed(ClientSaid(i + 1, wire.Ready()))
    for _ in range(20000):
        t = sim.table
        m = t.match
        if t.status != "playing" or m is None:
            break
        if sim.writes:
            sim.complete_write()
            continue
        actor = t.to_act()
        if m.deal.phase is Phase.DEALING and rng.random() < 0.15:
            seat = rng.randrange(n)
            legal = m.legal_actions(seat)
            if legal and legal.small:
                act(sim, seat, rng.choice(legal.small))
                continue
        if actor is not None and actor >= 0 and t.playing:
            legal = m.legal_actions(actor)
            act(sim, actor, legal.sample(rng))
            continue
        if not sim.run(1):
            break
    assert watch.deltas > 0
    return watch


def act(sim: Sim, seat: int, action: Any) -> None:
    parts = str(action).split()
    sim.feed(ClientSaid(seat + 1, wire.Act(action=" ".join([parts[0], *parts[2:]]))))


@settings(
    max_examples=len(PRESETS),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_deltas_rebuild_every_whole_view(preset: str, seed: int) -> None:
    run_match(preset, seed, deals=1)


def test_every_preset_two_deals() -> None:
    for preset in sorted(PRESETS):
        watch = run_match(preset, 7)
        assert watch.full >= 2  # each deal starts with every field


def test_deltas_are_smaller_than_whole_views() -> None:
    watch = run_match("classic", 3, deals=1)
    assert watch.delta_bytes * 3 < watch.update_bytes
