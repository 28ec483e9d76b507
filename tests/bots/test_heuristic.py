"""The heuristic bot: always legal, never a failing throw, and the plays a good player makes
in set-up deals (boss leads, feeding a partner, over-ruffing, clean burials, declarations)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shengji.bots.base import Bot
from shengji.bots.build import compiled
from shengji.bots.driver import play_match
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.bots.registry import make_bot
from shengji.core.actions import Action, Bury, Deal, Declare, Pass, Play
from shengji.core.cards import parse_card, parse_cards, points_of
from shengji.core.events import ThrowFailed
from shengji.core.legal import LegalActions
from shengji.core.match import team_of
from shengji.core.order import TRUMP
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, Ruleset, preset
from shengji.core.state import DealState
from shengji.core.throws import check_throw, unit_beaten
from shengji.core.units import decompose
from shengji.core.views import DealView, view_for
from tests.core.dealkit import bury_back, deal_out, stacked, step

C = parse_cards
CLASSIC = PRESETS["classic"]


class Guarded:
    """Legal actions without the state behind them: a bot that reads ``.state`` fails."""

    def __init__(self, legal: LegalActions) -> None:
        self._legal = legal
        self.kind, self.seat, self.small = legal.kind, legal.seat, legal.small

    def __contains__(self, action: object) -> bool:
        return action in self._legal

    def vouch(self, action: Action) -> Action | None:
        return self._legal.vouch(action)

    def __iter__(self) -> Any:
        return iter(self._legal)

    def __bool__(self) -> bool:
        return bool(self._legal)

    def sample(self, rng: random.Random) -> Action:
        return self._legal.sample(rng)


class Checked:
    """Wraps a heuristic bot: hands it guarded legal actions, checks each choice is legal."""

    def __init__(self, bot: HeuristicBot) -> None:
        self.bot, self.name = bot, bot.name

    def choose(self, view: DealView, legal: LegalActions) -> Action | None:
        out = self.bot.choose(view, Guarded(legal))  # type: ignore[arg-type]
        if out is None:
            assert view.phase is Phase.DEALING
        else:
            assert out in legal, f"illegal: {out}"
        return out


# ---------------------------------------------------------------------------- legality


VARIANTS = {
    **PRESETS,
    "classic+rebury": preset("classic", {"rebury": True}),
    "classic+no-throws": preset("classic", {"throw_policy": "never"}),
}


@pytest.mark.skipif(compiled(), reason="hands the bot a stand-in for LegalActions (Guarded), "
                    "which a compiled bot refuses")
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_always_legal_and_no_failed_throw(name: str) -> None:
    rs = VARIANTS[name]
    deals = 2 if rs.decks >= 3 else 4
    for seed in range(deals):
        heuristic = [HeuristicBot(f"{seed}.{s}") for s in range(rs.players)]
        mixed = seed % 2 == 1  # odd seeds: heuristic against random bots
        bots: list[Bot] = [
            RandomBot(s) if mixed and s % 2 else Checked(heuristic[s]) for s in range(rs.players)
        ]
        failed: list[int] = []

        def watch(_a: Action, _s: Any, events: list[Any], failed: list[int] = failed) -> None:
            failed.extend(e.seat for e in events if isinstance(e, ThrowFailed))

        state, _ = play_match(rs, bots, f"legal.{seed}", deals=2, on_action=watch)
        assert len(state.history) >= 1
        assert all(b.fallbacks == 0 for b in heuristic)
        assert [s for s in failed if isinstance(bots[s], Checked)] == []


def test_deterministic_for_a_seed() -> None:
    records = [
        play_match(CLASSIC, [make_bot("heuristic", s) for s in range(4)], "same", deals=1)[1]
        for _ in range(2)
    ]
    assert records[0].actions == records[1].actions


def test_beats_random_players() -> None:
    levels = [0, 0]
    for seed in range(4):
        for mine in (0, 1):
            bots: list[Bot] = [
                HeuristicBot(seed) if team_of(s) == mine else RandomBot(seed) for s in range(4)
            ]
            state, _ = play_match(CLASSIC, bots, f"beat.{seed}", deals=1, first_dealer=seed % 2)
            for summary in state.history:
                change = summary.result.change
                d_team = team_of(summary.dealer)
                won = 1 - d_team if change.attackers_take_over else d_team
                gained = change.attacker_levels + change.defender_levels
                levels[0 if won == mine else 1] += gained
    assert levels[0] > 4 * levels[1]


# ---------------------------------------------------------------------------- set-up deals


def playing(
    hands: dict[int, str], declarer: int, shows: str, dealer: int = 0, kitty: str = "",
    rs: Ruleset = CLASSIC,
) -> DealState:
    """A classic deal at level 2 with the given hands: ``declarer`` shows ``shows`` in the
    window, everyone else passes, the dealer buries the kitty back; play is about to start."""
    s = deal_out(stacked(rs, hands, kitty, level="2", dealer=dealer))
    declared = False
    while s.phase is Phase.DECLARING:
        seat = s.to_act
        assert seat is not None
        if seat == declarer and not declared:
            s, declared = step(s, Declare(seat, tuple(C(shows)))), True
        else:
            s = step(s, Pass(seat))
    s = bury_back(s)
    assert s.phase is Phase.PLAYING
    return s


def decide(s: DealState, seat: int | None = None) -> Action | None:
    seat = s.to_act if seat is None else seat
    assert seat is not None
    return HeuristicBot(0).choose(view_for(s, seat), s.legal_actions(seat))


def test_leads_a_boss_pair() -> None:
    # Seat 0 holds both ♠A and few trumps; nothing else of its is a boss.
    hand = "H2 H3 H4 SA SA S3 S4 S6 S7 S8 SJ C3 C4 C6 C7 C8 C9 CJ D3 D4 D6 D7 D8 D9 DJ"
    s = playing({0: hand}, declarer=0, shows="H2")
    act = decide(s)
    assert isinstance(act, Play)
    assert parse_card("SA") in act.cards


def test_leads_a_boss_not_a_low_card() -> None:
    # Seat 0's bosses: ♠A (the other ♠A is unseen, and a lead wins ties) and maybe ♥2 (what
    # the filler left out of the kitty decides). Whatever it leads, nobody can beat it.
    hand = "H2 H3 SA SK S3 S4 S6 S7 S8 SJ C3 C4 C6 C7 C8 C9 CJ D3 D4 D6 D7 D8 D9 DJ DQ"
    s = playing({0: hand}, declarer=0, shows="H2")
    act = decide(s)
    assert isinstance(act, Play) and s.ctx is not None
    others = [s.hands[p] for p in (1, 2, 3)]
    assert all(not unit_beaten(u, others, s.ctx) for u in decompose(act.cards, s.ctx))


def test_does_not_throw_what_can_fail() -> None:
    # ♠A ♠K ♠Q ♠J would fail: seat 1 holds the other ♠A (above the K, Q and J).
    hand = "H2 H3 SA SK SQ SJ S9 C3 C4 C6 C7 C8 C9 CJ D3 D4 D6 D7 D8 D9 DJ DQ S3 S4 S6"
    s = playing({0: hand, 1: "SA"}, declarer=0, shows="H2")
    act = decide(s)
    assert isinstance(act, Play)
    others = [s.hands[p] for p in (1, 2, 3)]
    assert check_throw(act.cards, others, s.ctx, CLASSIC).valid  # type: ignore[arg-type]


def test_throws_what_cannot_fail() -> None:
    # Both ♠A and both ♠K: ♠A ♠A ♠K ♠K is a tractor... add ♠Q to make a safe throw.
    hand = "H2 H3 SA SA SK SK SQ C3 C4 C6 C7 C8 C9 CJ D3 D4 D6 D7 D8 D9 DJ DQ S3 C2 D2"
    s = playing({0: hand}, declarer=0, shows="H2")
    act = decide(s)
    assert isinstance(act, Play)
    assert set(C("SA SK")) <= set(act.cards)
    assert check_throw(act.cards, [s.hands[p] for p in (1, 2, 3)], s.ctx, CLASSIC).valid  # type: ignore[arg-type]


def test_feeds_points_to_a_partner_winning_with_a_boss() -> None:
    # Seat 2 leads ♠A (it holds both); seat 3 follows low; seat 0 holds ♠K ♠10 ♠4.
    s = playing(
        {2: "H2 SA SA", 3: "S3 S6", 1: "S7 S8 S9", 0: "SK S10 S4 C3 C4"},
        declarer=2, shows="H2", dealer=2,
    )
    s = step(s, Play(2, tuple(C("SA"))))
    s = step(s, Play(3, tuple(C("S3"))))
    act = decide(s)
    assert isinstance(act, Play)
    assert points_of(act.cards) > 0


def test_does_not_feed_points_to_an_opponent() -> None:
    # Seat 1 (an opponent) leads ♠A, holding both; seat 2 ducks; seat 0 must not give ♠K.
    s = playing(
        {1: "H2 SA SA", 2: "S3 S6", 3: "S7 S8 S9", 0: "SK S10 S4 C3 C4"},
        declarer=1, shows="H2", dealer=1,
    )
    s = step(s, Play(1, tuple(C("SA"))))
    s = step(s, Play(2, tuple(C("S3"))))
    act = decide(s, 3) if s.to_act == 3 else None
    s = step(s, act if isinstance(act, Play) else Play(3, tuple(C("S7"))))
    act = decide(s)
    assert isinstance(act, Play)
    assert act.cards == tuple(C("S4"))


SEAT3_NO_SPADES = "H3 H4 H6 H7 H8 H9 HJ C3 C4 C6 C7 C8 C9 CJ CQ CA D3 D4 D6 D7 D8 D9 DJ DQ DA"
SEAT0_NO_SPADES = "H4 H6 H7 H8 H9 HQ HA C3 C4 C6 C7 C8 C9 CJ CQ CA D3 D4 D6 D7 D8 D9 DJ DQ DA"


def test_over_ruffs_to_save_points() -> None:
    # Seat 1 leads ♠K, seat 2 (partner) adds ♠10, seat 3 ruffs with ♥3: seat 0 over-ruffs.
    s = playing(
        {1: "H2 SK", 2: "S10", 3: SEAT3_NO_SPADES, 0: SEAT0_NO_SPADES},
        declarer=1, shows="H2", dealer=1,
    )
    s = step(s, Play(1, tuple(C("SK"))))
    s = step(s, Play(2, tuple(C("S10"))))
    s = step(s, Play(3, tuple(C("H3"))))
    act = decide(s)
    assert isinstance(act, Play)
    assert s.ctx is not None
    (c,) = act.cards
    assert s.ctx.esuit[c] == TRUMP and s.ctx.pos[c] > s.ctx.pos[parse_card("H3")]


def test_does_not_ruff_an_empty_trick_it_cannot_keep() -> None:
    # Same seats, but the lead is ♠3 and seat 3 ruffs with a joker: nothing to save.
    s = playing(
        {1: "H2 S3", 2: "S4", 3: SEAT3_NO_SPADES.replace("H3", "BJ"), 0: SEAT0_NO_SPADES},
        declarer=1, shows="H2", dealer=1,
    )
    s = step(s, Play(1, tuple(C("S3"))))
    s = step(s, Play(2, tuple(C("S4"))))
    s = step(s, Play(3, tuple(C("BJ"))))
    act = decide(s)
    assert isinstance(act, Play)
    assert s.ctx is not None and s.ctx.esuit[act.cards[0]] != TRUMP


def test_buries_no_points_when_it_has_other_cards() -> None:
    hand = "H2 S5 S10 SK C5 C10 CK D5 D10 DK H5 H10 HK S3 S4 S6 C3 C4 C6 D3 D4 D6 S7 C7 D7"
    s = deal_out(stacked(CLASSIC, {0: hand}, "S8 C8 D8 S9 C9 D9 SJ CJ", level="2", dealer=0))
    while s.phase is Phase.DECLARING:
        seat = s.to_act
        assert seat is not None
        s = step(s, Declare(0, tuple(C("H2"))) if seat == 0 and s.declaration is None
                 else Pass(seat))
    assert s.phase is Phase.BURYING and s.kitty_holder == 0
    act = decide(s, 0)
    assert isinstance(act, Bury)
    assert points_of(act.cards) == 0


def window(hand: str) -> tuple[DealState, Action | None]:
    s = deal_out(stacked(CLASSIC, {0: hand}, level="2", dealer=0))
    assert s.phase is Phase.DECLARING and s.to_act == 0
    return s, decide(s, 0)


def test_declares_a_strong_suit() -> None:
    _, act = window("H2 HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4 H3 S3 C4")
    assert act == Declare(0, tuple(C("H2")))


def test_passes_with_a_weak_suit() -> None:
    _, act = window("S2 S3 HA HK HQ HJ H10 H9 CA CK CQ CJ DA DK DQ")
    assert isinstance(act, Pass)


def test_declares_while_dealing_with_a_strong_suit() -> None:
    s = stacked(CLASSIC, {0: "H2 HA HK HQ HJ H10 H9 H8 H7 H6 H5 H4"}, level="2", dealer=0)
    while s.hand_sizes[0] < 20:
        s = step(s, Deal())
    act = HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(0))
    assert act == Declare(0, tuple(C("H2")))


def test_deals_when_asked_for_the_system() -> None:
    s = stacked(CLASSIC, {}, level="2", dealer=0)
    assert HeuristicBot(0).choose(view_for(s, 0), s.legal_actions(-1)) == Deal()
