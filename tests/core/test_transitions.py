"""The dispatch of ``DealState.apply``: one transition per phase (``state.TRANSITIONS``), and
every phase refusing the actions of the others with ``WRONG_PHASE``, changing nothing, in
place or not."""

from __future__ import annotations

import pytest

from shengji.core.actions import (
    Action,
    Bid,
    Bury,
    CallFriend,
    Deal,
    Declare,
    NameTrump,
    Pass,
    Play,
)
from shengji.core.errors import IllegalAction, Reason
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import TRANSITIONS, DealState
from tests.core.dealkit import assert_illegal, bury_back, deal_out, pass_round, snapshot, step

ALL: tuple[Action, ...] = (
    Deal(), Declare(0, (12,)), Pass(0), Bury(0, (0,)), Play(0, (0,)), Bid(0, 80),
    NameTrump(0, 0), CallFriend(0, 12, 1),
)
TAKEN: dict[Phase, tuple[type, ...]] = {
    Phase.DEALING: (Deal, Declare),
    Phase.DECLARING: (Declare, Pass),
    Phase.BIDDING: (Bid, Pass),
    Phase.NAMING: (NameTrump,),
    Phase.BURYING: (Bury,),
    Phase.REBURY: (Declare, Pass),
    Phase.CALLING: (CallFriend,),
    Phase.PLAYING: (Play,),
    Phase.DONE: (),
}
"""What each phase takes (an action of its kind may still be refused for another reason)."""


def test_every_phase_has_a_transition() -> None:
    assert set(TRANSITIONS) == set(Phase)


def _states() -> list[DealState]:
    """A state in every phase: classic, find-friend, three-player (bidding, 反底)."""
    out = []
    s = DealState.new(PRESETS["classic"], seed=4, level=0, dealer=0)
    out.append(s)
    s = deal_out(s)
    out.append(s)
    s = pass_round(s)
    out.append(s)
    s = bury_back(s)
    if s.phase is Phase.REBURY:
        out.append(s)
        s = pass_round(s)
    out.append(s)
    ff = DealState.new(PRESETS["find-friend"], seed=4, level=0, dealer=0)
    ff = bury_back(pass_round(deal_out(ff)))
    out.append(ff)
    b = deal_out(DealState.new(PRESETS["three-player"], seed=4, level=0, dealer=0))
    out.append(b)
    while b.phase is Phase.BIDDING:
        seat = b.to_act
        assert seat is not None
        bids = [a for a in b.legal_actions(seat) if isinstance(a, Bid)]
        b = step(b, Pass(seat) if b.auction and b.auction.bids else bids[0])
    out.append(b)
    assert b.kitty_holder is not None
    out.append(bury_back(step(b, NameTrump(b.kitty_holder, 0))))  # 反底 after 竞标
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        s = step(s, next(iter(s.legal_actions(seat))))
    out.append(s)
    return out


def test_states_cover_every_phase() -> None:
    assert {s.phase for s in _states()} == set(Phase)


def test_each_phase_refuses_the_others_actions() -> None:
    for s in _states():
        for action in ALL:
            if isinstance(action, TAKEN[s.phase]):
                continue
            err = assert_illegal(s, action, Reason.WRONG_PHASE)
            before = snapshot(s)
            with pytest.raises(IllegalAction) as info:
                s.apply_in_place(action)
            assert info.value.message == err.message
            assert snapshot(s) == before
