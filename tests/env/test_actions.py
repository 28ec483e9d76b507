"""The action encoding: every legal action reachable, the mask exact, at every decision."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from shengji.core.actions import Bury, Play
from shengji.core.cards import parse_cards as p
from shengji.core.follow import legal_follows
from shengji.core.legal import hand_units
from shengji.core.ruleset import PRESETS
from shengji.env.actions import (
    FINISH,
    NOT_NOW,
    PASS,
    ActionCatalogue,
    ChoosePicker,
    Turn,
)
from shengji.env.aec import ShengjiEnv

from .helpers import complete_sets, run_deals

ALL = sorted(PRESETS)


def test_catalogue_names_every_index_once() -> None:
    for name in ALL:
        cat = ActionCatalogue(PRESETS[name])
        names = cat.names()
        assert len(names) == len(set(names)) == cat.size


def test_bury_picker_is_the_set_of_k_cards_in_kind_order() -> None:
    pk = ChoosePicker([0] * 54, [2 if k in p("S3 S4") else 0 for k in range(54)], 3)
    assert complete_sets(pk) == {tuple(p("S3 S3 S4")), tuple(p("S3 S4 S4"))}


def _check(env: ShengjiEnv, turn: Turn) -> None:
    """The mask against the core's legal actions, for one fresh decision."""
    st, seat, cat = env.state, turn.seat, env.catalogue
    legal = turn.legal
    allowed = turn.allowed()
    assert allowed, "a seat asked to act always has an allowed index"
    if legal.kind == "list":
        want = {cat.list_index(a) for a in legal.small}
        if turn.offer:
            want.add(PASS)
        assert set(allowed) == want
        for i in allowed:
            a = turn.options[i]
            assert a is NOT_NOW or a in legal
        return
    ctx = st.ctx
    assert ctx is not None and turn.picker is not None
    hand = st.hands[seat]
    if legal.kind == "follow":
        assert st.lead is not None
        sets = complete_sets(turn.picker)
        if sets is not None:
            want_f = {tuple(sorted(f)) for f in legal_follows(st.lead.cards, hand, ctx, st.ruleset)}
            assert sets == want_f
    elif legal.kind == "lead" and st.ruleset.throw_policy == "never":
        assert complete_sets(turn.picker) == {tuple(sorted(u)) for u in hand_units(hand, ctx)}
    # Sampled legal actions (burials, throws, units) are each reachable through the mask.
    rng = random.Random(len(st.tricks))
    samples = [legal.sample(rng) for _ in range(8)]
    if legal.kind == "lead":
        samples += [Play(seat, u) for u in hand_units(hand, ctx)]
    for action in samples:
        assert isinstance(action, Bury | Play)
        probe = Turn(st, seat, cat)
        done = None
        for index in probe.indices_for(action):
            assert index in probe.allowed(), f"{action}: {cat.name(index)} masked"
            done = probe.pick(index)
        assert done == type(action)(seat, tuple(sorted(action.cards)))
    # A random walk through the mask ends in an action the core accepts.
    probe = Turn(st, seat, cat)
    result = None
    while result is None:
        result = probe.pick(rng.choice(probe.allowed()))
    assert result in legal


@pytest.mark.parametrize("name", ALL)
def test_mask_is_exact_at_every_decision(name: str) -> None:
    assert run_deals(name, range(2), _check) > 40


def test_finish_only_where_a_lead_could_grow() -> None:
    env = ShengjiEnv("classic")
    seen = 0
    for _ in range(3):
        env.reset(seed=seen)
        while env.turn is not None:
            turn = env.turn
            allowed = turn.allowed()
            if FINISH in allowed:
                assert turn.legal.kind == "lead" and turn.picked and len(allowed) > 1
                seen += 1
            env.step(random.Random(seen).choice(allowed))
    assert seen
