"""Properties of whole games: seeded random matches (``RandomBot`` through the match driver)
for every preset, with every state along the way checked by an ``on_action`` listener.

Checked at every step:

* ``apply`` never changes the state it is called on;
* cards are conserved: hands + undealt cards (dealing) or hands + kitty + played cards (after
  the deal; while burying the kitty is inside the holder's hand) = the full pack;
* a state that is not over has a legal action for ``to_act``: ``legal_actions`` is truthy and
  ``sample(rng)`` is accepted by ``apply`` (and is a member of the legal set);
* no view leaks: ``view_for(state, seat)`` is the same whatever the cards hidden from ``seat``
  are (other hands, undealt cards, the kitty unless it is visible to ``seat``); the kitty only
  reaches its holder (from pick-up on) or everyone at the end; ``public_view`` holds no hand
  and no kitty before the end; hidden (4-deck) declarations stay with their declarer until
  trump is fixed;
* events filtered with ``events.visible(events, seat)`` never hold another seat's
  ``CardDealt`` / ``KittyTaken`` / private ``KittyBuried`` (nor a hidden ``Declared``).

Checked at the end of every deal, with A / D the points of the tricks won by the attackers /
defenders, K the points of the final kitty, P the failed-throw penalties (signed for the
attackers: + when a defender's throw failed, − when an attacker's did) and G ``kitty_gain``:

* A + D + K = ``deck_points`` (100 per deck): no point card is lost or counted twice;
* ``attacker_points`` = A + P + G, i.e. attacker_points − G − P + D + K = deck_points;
* G = K × multiplier when the attackers won the last trick, else 0 (kitty formulas), or the
  4-deck transfer: G = D × n (attackers won it) or −(A + P) × n (defenders won it);
* with no failed throw and no kitty capture (kitty formulas): attacker_points + D + K =
  deck_points;
* ``attacker_points`` is a multiple of 5; the level change is the table's.

And per match: the ``GameRecord`` through JSON replays to the same events and final state.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.actions import SYSTEM, Action
from shengji.core.auction import target_level_change
from shengji.core.cards import BJ, LJ, deck, points_of
from shengji.core.events import (
    CardDealt,
    DealEnded,
    DealStarted,
    Declared,
    Event,
    KittyBuried,
    KittyRevealed,
    KittyTaken,
    ThrowFailed,
    TrickWon,
    visible,
)
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay_steps
from shengji.core.ruleset import PRESETS, Ruleset
from shengji.core.scoring import level_change
from shengji.core.state import DealState
from shengji.core.views import public_view, view_for
from tests.core.dealkit import snapshot

FAST = [
    "classic", "lianzhong", "bianfeng", "one-deck", "two-color", "three-deck", "tournament",
    "find-friend", "five-player", "three-player", "huanle", "lianzhong-three-deck",
]
MULTIPLIERS = {
    "power-of-size": {2, 4, 8, 16, 32, 64},
    "lianzhong": {2, 4, 6, 8, 16, 18, 32, 54, 64, 162},
    "tournament": {2, 4, 8},
}


def comparable(s: DealState) -> dict[str, Any]:
    """A snapshot whose values compare by content (the lead and order tables by identity
    otherwise)."""
    snap = snapshot(s)
    snap["lead"] = None if s.lead is None else tuple(sorted(s.lead.cards))
    c = s.ctx
    snap["ctx"] = None if c is None else (c.level, c.trump, c.permanent_twos, c.two_color)
    return snap


def played_cards(s: DealState) -> list[int]:
    out = [c for t in s.tricks for _, cards in t.plays for c in cards]
    out.extend(c for _, cards in s.trick for c in cards)
    return out


def check_cards(s: DealState) -> None:
    rs = s.ruleset
    pack = Counter(deck(rs.decks))
    held: Counter[int] = Counter()
    for p in range(rs.players):
        h = s.hands[p]
        assert min(h) >= 0
        assert sum(h) == s.hand_sizes[p]
        held.update({k: n for k, n in enumerate(h) if n})
    if s.phase in (Phase.DEALING, Phase.DECLARING, Phase.BIDDING):
        assert held + Counter(s.deck[s.n_dealt :]) == pack
        assert s.kitty == s.deck[rs.players * rs.hand_size :]
        assert s.shown == (s.kitty[: rs.kitty_shown] if s.phase is Phase.BIDDING else ())
    elif s.phase in (Phase.BURYING, Phase.NAMING):
        holder = s.kitty_holder
        assert holder is not None
        assert not Counter(s.kitty) - Counter(
            {k: n for k, n in enumerate(s.hands[holder]) if n}
        ), "the kitty being buried is in the holder's hand"
        # a 竞标 swap leaves kitty cards in place (kitty_kept) while 6 are re-buried
        assert held + Counter(played_cards(s)) + Counter(s.kitty_kept) == pack
    else:
        assert len(s.kitty) == rs.kitty_size
        assert held + Counter(s.kitty) + Counter(played_cards(s)) == pack


def kitty_visible_to(s: DealState, seat: int | None) -> bool:
    holder = seat is not None and seat == s.kitty_holder and not s.kitty_kept
    return s.phase is Phase.DONE or holder


def scrambled(s: DealState, seat: int | None, rng: random.Random) -> DealState:
    """A copy of ``s`` in which everything hidden from ``seat`` is dealt out differently:
    other seats' hands (sizes kept), the undealt cards, and the kitty unless ``seat`` sees it."""
    t = copy.copy(s)
    players = s.players
    others = [p for p in range(players) if p != seat]
    pool: list[int] = []
    for p in others:
        pool.extend(k for k in range(54) for _ in range(s.hands[p][k]))
    undealt = list(s.deck[s.n_dealt :])
    pool.extend(undealt)
    loose_kitty = s.phase in (Phase.REBURY, Phase.CALLING, Phase.PLAYING) and not kitty_visible_to(
        s, seat
    )
    if loose_kitty:
        pool.extend(s.kitty)
    loose_kept = s.phase is Phase.BURYING and bool(s.kitty_kept)  # unseen by everyone
    if loose_kept:
        pool.extend(s.kitty_kept)
    rng.shuffle(pool)
    hands = list(s.hands)
    for p in others:
        n = s.hand_sizes[p]
        h = [0] * 54
        for k in pool[:n]:
            h[k] += 1
        del pool[:n]
        hands[p] = h
    t.hands = tuple(hands)
    rest = pool[: len(undealt)]
    del pool[: len(undealt)]
    t.deck = (*s.deck[: s.n_dealt], *rest)
    if loose_kept:
        t.kitty_kept = tuple(pool[len(pool) - len(s.kitty_kept) :])
    if s.phase in (Phase.DEALING, Phase.DECLARING, Phase.BIDDING):
        t.kitty = t.deck[players * s.ruleset.hand_size :]
    elif loose_kitty:
        t.kitty = tuple(pool[: len(s.kitty)])
    elif s.phase in (Phase.BURYING, Phase.NAMING) and not kitty_visible_to(s, seat):
        holder = s.kitty_holder
        assert holder is not None
        cards = [k for k in range(54) for _ in range(t.hands[holder][k])]
        t.kitty = tuple(rng.sample(cards, len(s.kitty)))
    return t


def check_views(s: DealState, rng: random.Random) -> None:
    rs = s.ruleset
    hidden_decl = rs.declaration == "hidden" and s.trump is None
    for seat in [*range(s.players), None]:
        v = view_for(s, seat) if seat is not None else public_view(s)
        fields = v._asdict()
        assert v.seat == seat
        if seat is None:
            assert v.hand == () and not any(fields["hand_counts"])
        else:
            assert sorted(v.hand) == sorted(s.hand(seat))
            assert list(v.hand_counts) == list(s.hands[seat])
        if kitty_visible_to(s, seat):
            assert v.kitty == s.kitty
        else:
            assert v.kitty is None
        if seat is None and s.phase is not Phase.DONE:
            assert v.kitty is None and v.hand == ()
        if hidden_decl:
            for name in ("declaration", "own_declaration"):
                dcl = fields[name]
                assert dcl is None or dcl.seat == seat, f"{name} of another seat shown"
        assert sorted(v.played_cards) == sorted(played_cards(s))
        other = scrambled(s, seat, rng)
        v2 = view_for(other, seat) if seat is not None else public_view(other)
        assert v2 == v, f"view of seat {seat} depends on cards it cannot see"


def check_events(s_before: DealState, events: list[Event]) -> None:
    hidden = s_before.ruleset.declaration == "hidden" and s_before.trump is None
    for e in events:
        if isinstance(e, CardDealt | KittyTaken):
            assert e.audience == e.seat
        if isinstance(e, KittyBuried) and e.cards:
            assert e.audience == e.seat
        if isinstance(e, Declared) and hidden and not e.rebury:
            assert e.audience == e.seat
    for q in [*range(s_before.players), None]:
        for e in visible(events, q):
            if isinstance(e, CardDealt | KittyTaken):
                assert e.seat == q, f"{type(e).__name__} of seat {e.seat} reaches {q}"
            if isinstance(e, KittyBuried) and e.cards:
                assert e.seat == q
            if isinstance(e, Declared) and hidden and not e.rebury:
                assert e.seat == q


def check_legal(s: DealState, rng: random.Random) -> None:
    if s.is_over:
        assert s.to_act is None
        return
    actor = s.to_act
    assert actor is not None
    legal = s.legal_actions(actor)
    assert legal, f"no legal action for {actor} in {s.phase}"
    a = legal.sample(rng)
    s.apply(a)  # raises if the sampled action is illegal
    assert a in legal
    if actor == SYSTEM:
        assert s.phase is Phase.DEALING


def check_end(done: DealState, penalties: int) -> None:
    rs = done.ruleset
    res = done.result
    assert res is not None and done.phase is Phase.DONE
    assert sum(done.hand_sizes) == 0
    defenders = set(done.defenders)
    a = sum(t.points for t in done.tricks if t.winner not in defenders)
    d = sum(t.points for t in done.tricks if t.winner in defenders)
    for t in done.tricks:
        assert t.points == points_of(c for _, cards in t.plays for c in cards)
    k = points_of(done.kitty)
    assert res.kitty_points == k
    g = res.kitty_gain
    assert a + d + k == rs.deck_points
    assert res.attacker_points == a + penalties + g
    assert res.attacker_points - g - penalties + d + k == rs.deck_points
    last = done.tricks[-1]
    captured = last.winner not in defenders
    assert res.kitty_captured == captured and res.last_winner == last.winner
    assert res.last_winning_cards == dict(last.plays)[last.winner]
    if rs.kitty_formula == "last-trick-transfer":
        assert k == 0
        if captured:
            assert g >= 0 and (d == 0 or g % d == 0) and g <= d * 4 * rs.decks
        else:
            assert g <= 0 and (a + penalties == 0 or g % (a + penalties) == 0)
    elif captured:
        capped = {min(m, rs.kitty_cap) for m in MULTIPLIERS["power-of-size"]}  # a house cap
        allowed = capped if rs.kitty_formula == "power-of-size" else set()
        assert res.kitty_multiplier in MULTIPLIERS[rs.kitty_formula] | allowed
        assert g == k * res.kitty_multiplier
    else:
        assert g == 0 and res.kitty_multiplier == 0
    if not captured and penalties == 0 and rs.kitty_formula != "last-trick-transfer":
        assert res.attacker_points + d + k == rs.deck_points
    assert res.attacker_points % 5 == 0
    if res.target is not None:  # 竞标: against the auction's target
        assert res.change == target_level_change(res.attacker_points, res.target)
    else:
        assert res.change == level_change(res.attacker_points, rs)
    assert res.failed_throws >= (penalties != 0)


class Checker:
    """The ``on_action`` listener: checks each new state against the one before."""

    def __init__(self, rs: Ruleset, first: MatchState, seed: int) -> None:
        self.rs = rs
        self.prev = first.deal
        self.prev_snap = comparable(first.deal)
        self.rng = random.Random(f"checker/{seed}")
        self.penalties = 0
        self.events: list[list[Event]] = []
        self.deals_done = 0
        self.check_state(first.deal)

    def check_state(self, s: DealState) -> None:
        check_cards(s)
        check_legal(s, self.rng)
        check_views(s, self.rng)

    def __call__(self, action: Action, m: MatchState, events: list[Event]) -> None:
        self.events.append(list(events))
        per_deal = len(self.events) / (self.deals_done + 1)
        assert per_deal < 4 * 54 * self.rs.decks + 200, "a deal does not come to an end"
        before = self.prev
        assert comparable(before) == self.prev_snap, "apply changed the state it was given"
        check_events(before, events)
        for e in events:
            if isinstance(e, ThrowFailed):
                thrower_defends = e.seat in (before.defenders or ())
                self.penalties += e.penalty if thrower_defends else -e.penalty
            if isinstance(e, TrickWon):
                assert e.winner == before.to_act or before.trick  # a trick was being played
        if any(isinstance(e, DealEnded) for e in events):
            done, again = before.apply(action)
            assert again == [e for e in events if not isinstance(e, DealStarted)]
            self.check_state(done)
            check_end(done, self.penalties)
            (revealed,) = [e for e in events if isinstance(e, KittyRevealed)]
            assert revealed.cards == done.kitty and revealed.attacker_gain == done.result.kitty_gain
            (ended,) = [e for e in events if isinstance(e, DealEnded)]
            assert ended.attacker_points == done.result.attacker_points
            assert ended.stake == done.stake
            self.penalties = 0
            self.deals_done += 1
        new = m.deal
        if new is not before and not (m.is_over and new.phase is Phase.DONE):
            self.check_state(new)
        self.prev = new
        self.prev_snap = comparable(new)


def play_checked(rs: Ruleset, seed: int, deals: int) -> None:
    bots = [RandomBot(f"{seed}/{p}") for p in range(rs.players)]
    checker = Checker(rs, MatchState.new(rs, seed), seed)
    m, record = play_match(rs, bots, seed=seed, deals=deals, on_action=checker)
    assert checker.deals_done == len(m.history) >= min(deals, 1)
    assert len(m.history) == deals or m.is_over
    # the record, through JSON, replays to the same events and final state
    again = GameRecord.from_json(record.to_json())
    assert again == record
    steps = list(replay_steps(again))
    assert [str(a) for a, _, _ in steps] == record.actions
    assert [evs for _, _, evs in steps] == checker.events
    final = steps[-1][1]
    assert final.team_levels == m.team_levels and final.dealer == m.dealer
    assert final.winner == m.winner and final.history == m.history
    assert comparable(final.deal) == comparable(m.deal)


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize("name", FAST)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, deals=st.sampled_from([1, 2]))
def test_random_matches_keep_every_invariant(name, seed, deals):
    play_checked(PRESETS[name], seed, deals)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_four_deck_random_deals_keep_every_invariant(seed):
    play_checked(PRESETS["four-deck"], seed, 1)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("classic", {"rebury": True}),
        ("classic", {"throw_policy": "others-void", "failed_throw_penalty": 10}),
        ("classic", {"no_declaration": "kitty-card", "first_deal_overturn_takes_dealer": False}),
        ("tournament", {"rebury": True}),
    ],
)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_option_variants_keep_every_invariant(name, options, seed):
    from shengji.core.ruleset import preset

    play_checked(preset(name, options), seed, 2)


def test_the_checks_can_fail():
    """The conservation and leak checks catch a corrupted state."""
    rs = PRESETS["one-deck"]
    s = DealState.new(rs, seed=1, level=0, dealer=0)
    from shengji.core.actions import Deal

    for _ in range(10):
        s = s.apply(Deal())[0]
    bad = s._copy()
    h = list(bad.hands[0])
    h[BJ if h[BJ] == 0 else LJ] += 1
    bad.hands = (h, *bad.hands[1:])
    with pytest.raises(AssertionError):
        check_cards(bad)
    with pytest.raises(AssertionError):
        check_events(s, [CardDealt(None, 1, 5)])


def _mid_play_state() -> DealState:
    from tests.core.dealkit import random_deal

    steps = random_deal(PRESETS["classic"], seed=4)
    return next(st.after for st in steps if st.after.phase is Phase.PLAYING and st.after.tricks)


@pytest.mark.parametrize("leak", ["kitty", "hidden-hand"])
def test_the_view_check_catches_leaks(monkeypatch, leak):
    """A view that shows the kitty to everyone, or that depends on another hand, is caught."""
    import tests.core.test_properties_game as me

    s = _mid_play_state()
    check_views(s, random.Random(1))

    real = me.view_for

    def leaky(state, seat):
        v = real(state, seat)
        if leak == "kitty":
            return v._replace(kitty=state.kitty)
        nxt = state.hands[(seat + 1) % state.players]
        return v._replace(stake=sum(k * n for k, n in enumerate(nxt)))

    monkeypatch.setattr(me, "view_for", leaky)
    with pytest.raises(AssertionError):
        check_views(s, random.Random(1))
