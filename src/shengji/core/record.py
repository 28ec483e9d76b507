"""Game records: ruleset + seed + actions (+ result) to and from JSON, and replay.

The same ruleset, seed and actions always give the same game, so a record is all a replay,
a bug report or a training set needs.

>>> from shengji.core.ruleset import PRESETS
>>> rec = GameRecord(PRESETS["classic"].to_dict(), seed=5, first_dealer=0, actions=["deal"])
>>> GameRecord.from_json(rec.to_json()) == rec
True
>>> replay(rec).deal.n_dealt
1
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from shengji.core.actions import MatchAction, parse_match_action
from shengji.core.cards import LEVELS
from shengji.core.events import Event
from shengji.core.match import MatchState
from shengji.core.ruleset import Ruleset

FORMAT: Final = "shengji-record/1"


@dataclass
class GameRecord:
    """A match (one or more deals) as played."""

    ruleset: dict[str, Any]
    seed: int | str
    first_dealer: int | None
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    """Who sat where (bot names or player names), informational."""

    def to_json(self, indent: int | None = None) -> str:
        """The record as a JSON document."""
        return json.dumps(
            {
                "format": FORMAT,
                "ruleset": self.ruleset,
                "seed": self.seed,
                "first_dealer": self.first_dealer,
                "players": self.players,
                "actions": self.actions,
                "result": self.result,
            },
            ensure_ascii=False,
            indent=indent,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Inverse of ``to_json``; refuses other formats."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        ruleset, seed = data.get("ruleset"), data.get("seed")
        first = data.get("first_dealer")
        actions, result = data.get("actions", []), data.get("result", {})
        players = data.get("players", [])
        if not isinstance(ruleset, dict):
            raise ValueError("record: ruleset must be an object")
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError("record: seed must be an integer or a string")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise ValueError("record: first_dealer must be a seat number or null")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise ValueError("record: actions must be a list of action strings")
        if not isinstance(result, dict) or not isinstance(players, list):
            raise ValueError("record: result must be an object and players a list")
        return cls(ruleset, seed, first, list(actions), dict(result), list(players))

    def start(self) -> MatchState:
        """The match state before the first action."""
        return MatchState.new(Ruleset.from_dict(self.ruleset), self.seed, self.first_dealer)


def record_result(state: MatchState) -> dict[str, Any]:
    """A JSON-ready summary of a match so far."""
    return {
        "deals": len(state.history),
        "team_levels": [LEVELS[state.ruleset.level_sequence[i]] for i in state.team_levels],
        "levels": [LEVELS[state.ruleset.level_sequence[i]] for i in state.levels],
        "winner": state.winner,
        "winners": list(state.winners),
        "attacker_points": [d.result.attacker_points for d in state.history],
    }


def replay_steps(record: GameRecord) -> Iterator[tuple[MatchAction, MatchState, list[Event]]]:
    """Every action of the record with the state after it and the events it caused."""
    state = record.start()
    for text in record.actions:
        action = parse_match_action(text)
        state, events = state.apply(action)
        yield action, state, events


def replay(record: GameRecord) -> MatchState:
    """The state after the last action of the record."""
    final = record.start()
    for _action, final, _events in replay_steps(record):  # noqa: B007
        pass
    return final
