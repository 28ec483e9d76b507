"""Game records: JSON round trip, refusal of other documents, replay and replay_steps."""

from __future__ import annotations

import json

import pytest

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import Deal, parse_action
from shengji.core.cards import RANKS
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import Event
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import FORMAT, GameRecord, record_result, replay, replay_steps
from shengji.core.ruleset import PRESETS, Ruleset, preset
from tests.core.dealkit import snapshot


def played(rs: Ruleset, seed: int | str = 3, deals: int = 1, first_dealer: int | None = None):
    """Play a seeded random match; keep every (action, state, events) the driver produced."""
    seen: list[tuple[str, MatchState, list[Event]]] = []

    def listen(action, state, events):
        seen.append((str(action), state, list(events)))

    bots = [RandomBot(f"{seed}/{p}") for p in range(rs.players)]
    m, record = play_match(rs, bots, seed=seed, deals=deals, first_dealer=first_dealer,
                           on_action=listen)
    return m, record, seen


def same_deal(a, b) -> None:
    sa, sb = snapshot(a), snapshot(b)
    for s in (sa, sb):
        s["lead"] = None if s["lead"] is None else s["lead"].cards
        s["ctx"] = None if s["ctx"] is None else (s["ctx"].level, s["ctx"].trump)
    assert sa == sb


# ---------------------------------------------------------------------------- JSON


@pytest.mark.parametrize("seed", [0, 7, "游戏/1", "x y"])
@pytest.mark.parametrize("first_dealer", [None, 2])
def test_json_round_trip(seed, first_dealer):
    rec = GameRecord(
        PRESETS["tournament"].to_dict(),
        seed=seed,
        first_dealer=first_dealer,
        actions=["deal", "declare 1 H2", "pass 0", "bury 0 SA SA", "play 1 S10 S10 SK"],
        result={"deals": 1, "winner": None, "team_levels": ["2", "5"]},
        players=["random", "小明", "bot", "x"],
    )
    text = rec.to_json()
    data = json.loads(text)
    assert data["format"] == FORMAT == "shengji-record/1"
    assert "小明" in text  # not escaped
    back = GameRecord.from_json(text)
    assert back == rec
    assert GameRecord.from_json(rec.to_json(indent=2)) == rec
    assert Ruleset.from_dict(back.ruleset) == PRESETS["tournament"]


def test_a_played_record_round_trips_with_its_ruleset_options():
    rs = preset("classic", {"rebury": True, "failed_throw_penalty": 10})
    m, rec, _ = played(rs, seed=11)
    back = GameRecord.from_json(rec.to_json())
    assert back == rec
    assert Ruleset.from_dict(back.ruleset) == rs
    assert back.start().ruleset == rs
    assert back.result == record_result(m)
    assert back.players == ["random"] * 4


@pytest.mark.parametrize(
    "text",
    [
        json.dumps({"format": "shengji-record/2", "ruleset": {}, "seed": 1, "actions": []}),
        json.dumps({"ruleset": {}, "seed": 1, "actions": []}),
        json.dumps([FORMAT]),
        json.dumps(FORMAT),
        "null",
        "{not json",
        "",
    ],
)
def test_other_documents_are_refused(text):
    with pytest.raises(ValueError):
        GameRecord.from_json(text)


def _doc(**changes):
    data = json.loads(
        GameRecord(PRESETS["classic"].to_dict(), 1, 0, actions=["deal"]).to_json()
    )
    for k, v in changes.items():
        if v is _DROP:
            del data[k]
        else:
            data[k] = v
    return json.dumps(data)


_DROP = object()


def test_missing_fields_are_refused():
    for field in ("ruleset", "seed"):
        with pytest.raises((ValueError, KeyError)):
            GameRecord.from_json(_doc(**{field: _DROP}))


@pytest.mark.parametrize(
    "changes",
    [
        {"actions": "deal"},
        {"actions": [1, 2]},
        {"ruleset": "classic"},
        {"first_dealer": "x"},
        {"ruleset": _DROP},
    ],
    ids=["actions-string", "actions-ints", "ruleset-string", "first-dealer-string",
         "no-ruleset"],
)
def test_malformed_documents_are_refused_with_value_error(changes):
    with pytest.raises(ValueError):
        GameRecord.from_json(_doc(**changes))


# ---------------------------------------------------------------------------- replay


@pytest.mark.parametrize(
    ("name", "deals", "first_dealer"),
    [("classic", 2, None), ("one-deck", 2, 1), ("three-deck", 1, None), ("tournament", 2, 0)],
)
def test_replay_steps_reproduce_every_step(name, deals, first_dealer):
    rs = PRESETS[name]
    m, rec, seen = played(rs, seed=5, deals=deals, first_dealer=first_dealer)
    rec = GameRecord.from_json(rec.to_json())
    steps = list(replay_steps(rec))
    assert len(steps) == len(seen) == len(rec.actions)
    for (action, state, events), (text, orig, orig_events) in zip(steps, seen, strict=True):
        assert str(action) == text and action == parse_action(text)
        assert events == orig_events
        assert state.team_levels == orig.team_levels and state.dealer == orig.dealer
        assert state.history == orig.history
        same_deal(state.deal, orig.deal)
    final = replay(rec)
    same_deal(final.deal, m.deal)
    assert final.history == m.history and final.team_levels == m.team_levels
    assert len(final.history) == deals


def test_replay_of_a_prefix_is_the_state_at_that_point():
    _, rec, seen = played(PRESETS["classic"], seed=8)
    for cut in (0, 1, 50, 120, len(rec.actions) // 2, len(rec.actions) - 1):
        part = GameRecord(rec.ruleset, rec.seed, rec.first_dealer, rec.actions[:cut])
        state = replay(part)
        if cut == 0:
            same_deal(state.deal, part.start().deal)
            assert state.deal.n_dealt == 0 and state.deal.phase is Phase.DEALING
        else:
            same_deal(state.deal, seen[cut - 1][1].deal)


def test_replay_is_deterministic_and_depends_on_the_seed():
    a = GameRecord(PRESETS["classic"].to_dict(), "s1", 0, ["deal"] * 30)
    b = GameRecord(PRESETS["classic"].to_dict(), "s2", 0, ["deal"] * 30)
    same_deal(replay(a).deal, replay(a).deal)
    assert replay(a).deal.hands != replay(b).deal.hands


def test_replay_refuses_an_illegal_action_in_the_record():
    _, rec, _ = played(PRESETS["classic"], seed=9)
    bad = GameRecord(rec.ruleset, rec.seed, rec.first_dealer, ["deal", "pass 0"])
    with pytest.raises(IllegalAction) as info:
        replay(bad)
    assert info.value.reason == Reason.WRONG_PHASE
    steps = replay_steps(bad)
    action, state, events = next(steps)
    assert action == Deal() and state.deal.n_dealt == 1 and len(events) == 2
    with pytest.raises(IllegalAction):
        next(steps)


def test_record_result_summarises_the_match():
    m, rec, _ = played(PRESETS["classic"], seed=2, deals=2)
    res = rec.result
    assert res["deals"] == 2 and res["winner"] is None
    assert res["attacker_points"] == [d.result.attacker_points for d in m.history]
    assert res["team_levels"] == [RANKS[m.ruleset.level_sequence[i]] for i in m.team_levels]
    assert json.loads(rec.to_json())["result"] == res
