"""A room whose log was written before ``kitty_throw_units``, ``bid_min``, ``deal_order`` and
``player_aids`` existed is restored as it was played: the room's stored ruleset lacks the
keys, ``Ruleset.from_dict`` (as the lobby reads it) fills them from ``STORED_BEFORE``, and
the logged actions replay to the same deals (tests/core/data/stored_before_rules.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shengji.core.ruleset import Ruleset
from shengji.server.table import TableConfig
from shengji.server.table.restore import restored
from tests.core.test_stored_before import RECORDS, deals

ROOM_LOGS = [e for e in RECORDS if e["record"]["first_dealer"] is None]


@pytest.mark.parametrize("entry", ROOM_LOGS, ids=lambda e: e["preset"])
def test_a_room_logged_before_the_fields_restores_as_played(entry: dict[str, Any]) -> None:
    rec = entry["record"]
    stored_ruleset = json.loads(json.dumps(rec["ruleset"]))  # the room row's JSON
    cfg = TableConfig("r" * 16, entry["preset"], Ruleset.from_dict(stored_ruleset), "room-seed")
    players = cfg.ruleset.players
    state = {
        "status": "playing",
        "match_seed": rec["seed"],
        "seats": [{"kind": "bot", "player": None, "name": None, "bot": "random",
                   "ready": True}] * players,
    }
    t = restored(cfg, state, len(rec["actions"]), rec["actions"], 0.0,
                 last_pos=len(rec["actions"]))
    assert t.match is not None
    assert deals(t.match) == entry["deals"]


def test_the_room_logs_cover_each_changed_reading() -> None:
    names = {e["preset"] for e in ROOM_LOGS}
    assert {"lianzhong", "four-deck", "three-player", "tournament"} <= names
