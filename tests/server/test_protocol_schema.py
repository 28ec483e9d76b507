"""The protocol's JSON Schema (``shengji protocol-schema``) is valid draft 2020-12, names
every message a client or the server may send, and every message a real table sends
validates against it."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from typing import Any

import msgspec
import pytest
from jsonschema import Draft202012Validator

from shengji.core.events import Event
from shengji.core.stakes import StakeRules
from shengji.server.table import Table, TableOptions
from shengji.server.table.commands import ClientSaid, Opened, SeatBot
from shengji.server.table.effects import Send
from shengji.server.table.render import UpdateEntry
from shengji.server.wire import messages as wire
from shengji.server.wire.events import WIRE_EVENTS
from shengji.server.wire.schema import protocol_schema
from tests.server.table_sim import Sim, config

SCHEMA = protocol_schema()


def _subclasses(cls: type) -> set[type]:
    out = set()
    for sub in cls.__subclasses__():
        out |= {sub, *_subclasses(sub)}
    return out


def _tags(union: dict[str, Any]) -> set[str]:
    refs = [x["$ref"].rsplit("/", 1)[1] for x in union["anyOf"]]
    return {SCHEMA["$defs"][r]["properties"]["t"]["enum"][0] for r in refs}


def test_the_schema_is_valid_json_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_names_every_message_and_event() -> None:
    server = {c.__struct_config__.tag for c in _subclasses(wire.ServerMsg)}
    client = {c.__struct_config__.tag for c in _subclasses(wire.ClientMsg)}
    assert _tags(SCHEMA["$defs"]["ServerMessage"]) == server
    assert _tags(SCHEMA["$defs"]["ClientMessage"]) == client
    for cls in WIRE_EVENTS.values():
        assert cls.__name__ in SCHEMA["$defs"]


def test_every_core_event_has_its_wire_struct_with_the_same_fields() -> None:
    for core in _subclasses(Event):
        struct = WIRE_EVENTS[core]
        mine = {f for f in core.__dataclass_fields__ if f != "audience"}
        extra = {"summary"} if struct is wire.DealEndedEvent else set()
        assert set(struct.__struct_fields__) == mine | extra, core.__name__


def test_the_cli_prints_the_schema() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "shengji", "protocol-schema"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(out.stdout) == json.loads(json.dumps(SCHEMA))


def _is(kind: str) -> Draft202012Validator:
    schema = dict(SCHEMA)
    del schema["oneOf"]
    schema["$ref"] = f"#/$defs/{kind}"
    return Draft202012Validator(schema)


SERVER = _is("ServerMessage")
CLIENT = _is("ClientMessage")


@pytest.mark.parametrize("preset", ["classic", "find-friend", "three-player"])
def test_what_a_real_table_sends_validates(preset: str) -> None:
    cfg = replace(
        config(preset, max_deals=2),
        options=TableOptions(turn_s=10, long_turn_s=20, next_deal_s=10),
        stakes=StakeRules("coins", coefficient=100),
    )
    sim = Sim(Table.empty(cfg, spare_seed="s"))
    seen: dict[str, int] = {}

    def check(send: Send) -> None:
        for _conn, seat in send.to:
            msg = send.msg.message_for(seat) if isinstance(send.msg, UpdateEntry) else send.msg
            data = json.loads(wire.encode(msg))
            SERVER.validate(data)
            seen[data["t"]] = seen.get(data["t"], 0) + 1

    sim.on_send = check
    said: list[wire.ClientMessage] = [
        wire.Sit(seat=0),
        wire.Ready(),
        wire.Chat(text="好"),
        wire.Hint(),
        wire.Check(actions=["pass"]),
        wire.Ping(),
        wire.Sync(),
    ]
    sim.feed(Opened(1, "ann", "ann"))
    sim.feed(Opened(2, "bob", "bob", deltas=True))  # protocol 3: deltas
    sim.feed(ClientSaid(2, wire.Sit(seat=1)))
    sim.feed(ClientSaid(2, wire.Ready()))
    for msg in said:
        CLIENT.validate(json.loads(msgspec.json.encode(msg)))
        sim.feed(ClientSaid(1, msg))
    for seat in range(2, cfg.ruleset.players):
        sim.feed(SeatBot(seat, "random"))
    sim.complete_write(fail=True)  # paused ...
    sim.run(until=lambda s: s.table.clock is not None)
    sim.feed(ClientSaid(1, wire.Nudge()))
    sim.run(until=lambda s: s.table.status == "waiting" and s.table.match_no == 1)
    sim.run()  # the match_over and room messages, once written
    assert sim.table.match_no == 1 and sim.table.status == "waiting"
    for t in ("welcome", "snapshot", "update", "delta", "room", "chat", "nudge", "hint", "checked"):
        assert seen.get(t), t
    for t in ("paused", "resumed", "clock", "next_deal", "match_over", "settled", "pong"):
        assert seen.get(t), t


def test_the_rest_validate_too() -> None:
    entry = wire.PresenceEntry(player="p", name="ann", seat=0)
    for msg in (
        wire.Presence(seq=1, players=[entry], away=[2]),
        wire.PresenceDelta(seq=2, joined=[entry], left=["q"], away=[]),
        wire.Error(seq=3, code="bad-message", message="x"),
    ):
        SERVER.validate(json.loads(wire.encode(msg)))
    for bad in ({"t": "update", "v": 2, "seq": 1}, {"t": "nope", "v": 2, "seq": 1}):
        assert not SERVER.is_valid(bad)
    delta = {"t": "delta", "v": 3, "seq": 4, "events": [], "game": {"to_act": 1}}
    assert SERVER.is_valid(delta)
    assert not SERVER.is_valid({**delta, "game": {"to_act": "one"}})
    assert not SERVER.is_valid({**delta, "game": {"nonsense": 1}})


def test_typed_actions_validate() -> None:
    for action in (
        wire.PlayCards(cards="SA SA"),
        wire.BuryCards(cards="S3 S4"),
        wire.DeclareCards(cards="H2"),
        wire.PassTurn(),
        wire.BidTarget(target=120),
        wire.NameSuit(suit="H"),
        wire.CallCard(nth=1, card="HA"),
    ):
        CLIENT.validate(json.loads(msgspec.json.encode(wire.Act(action=action))))
    bad = {"t": "act", "v": 3, "action": {"type": "play", "seat": 0, "cards": "SA"}}
    assert not CLIENT.is_valid(bad)
