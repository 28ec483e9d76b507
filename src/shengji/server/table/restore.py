"""A table put back as it was after a restart: its seating and status from the room's row,
its match replayed from the logged actions (the engine is deterministic: ruleset + seed +
actions). Every seated human counts as away until they reconnect; a match the server died
finishing is recorded again, and deals left unsettled are settled (both idempotent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shengji.core.match import MatchState
from shengji.server.table.model import ActionLog, Seat, Status, Table, TableConfig, evolve
from shengji.server.table.play import finish, match_done, settle
from shengji.server.table.settlement import rosters_from_state
from shengji.server.table.step import Step
from shengji.server.wire.actions import read_logged


def restored(
    config: TableConfig,
    state: Mapping[str, Any],
    last_seq: int,
    actions: Sequence[str],
    now: float,
    spare_seed: str | None = None,
    *,
    last_pos: int,
) -> Table:
    """The table a room's row and log describe, at loop time ``now`` (``last_seq`` and
    ``last_pos``: the log's last sequence number and last row position)."""
    seats = tuple(Seat(**x) for x in state.get("seats", [])) or Table.empty(config).seats
    status: Status = "playing" if state.get("status") == "playing" else "waiting"
    drawn = state.get("match_seed")
    t = Table(
        config,
        seats,
        status=status,
        match_no=int(state.get("match_no", 0)),
        drawn_seed=str(drawn) if drawn is not None and status == "playing" else None,
        spare_seed=spare_seed,
        rosters={k: tuple(v) for k, v in rosters_from_state(dict(state)).items()}
        if status == "playing"
        else {},
        seq=last_seq,
        sent_seq=last_seq,
        log_pos=last_pos,
        log_floor=last_seq + 1,  # the shell's backlog is gone: a snapshot for everyone
        away_since={i: now for i, x in enumerate(seats) if x.kind == "human"},
        unattended_since=now,
        next_card_at=now,
    )
    if status != "playing":
        return t
    m = MatchState.new(config.ruleset, t.match_seed())
    texts = []
    for row in actions:  # typed rows, or an older log's action texts
        action = read_logged(row)
        m, _ = m.apply_in_place(action)  # nobody else holds it yet
        texts.append(str(action))
    t = evolve(t, match=m, actions=ActionLog(tuple(texts)), version=len(actions))
    s = Step(t, now)
    if config.stakes.kind != "plain" and m.history:
        settle(s, announce=-1)  # what a crash left unsettled (settling twice changes nothing)
    if match_done(s):
        finish(s)  # the record again (saving a match twice keeps one)
    return s.t
