"""找朋友 (RULES.md §8, seed 002 "挑选对家"): the dealer's call, who it makes the friend, when
the table learns it, and scoring by the revealed teams.

Seed 002: "庄家拿进底牌后，可以指定一张牌为自己的对家，如果庄家自己有其中一张，则拿到另外一张的
玩家为其对家，如果庄自己没有该牌，则按出牌顺序，靠近庄家的有该牌的玩家和他是对家，如果庄家自己
拿到2张该牌，则庄家一打三。" Decisions 88–92 (docs/rules.md): the friend is the HOLDER nearest
the dealer in play order when the call is made, hidden until it plays the card; a farther
holder who plays a copy first is publicly not the friend. ``friend_rule: nth-played`` keeps
the other table rule ("the n-th SA another seat plays"), Decision 45.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.core.actions import Bury, CallFriend, Play, parse_action
from shengji.core.cards import counts_of, parse_card, parse_cards, points_of
from shengji.core.determinize import state_from_view
from shengji.core.errors import Reason
from shengji.core.events import Event, FriendCalled, FriendRevealed, NotFriend, Played
from shengji.core.friend import (
    FriendCall,
    candidates,
    copies_seen,
    friend_after_play,
    nearest_holder,
    parse_call,
)
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS, STORED_BEFORE, Ruleset, preset
from shengji.core.state import DealState
from shengji.core.views import public_view, view_for
from tests.core.dealkit import assert_illegal, bury_back, deal_out, pass_round, stacked, step

FF = PRESETS["find-friend"]
FIVE = PRESETS["five-player"]
NTH = preset("find-friend", {"friend_rule": "nth-played"})
NTH5 = preset("five-player", {"friend_rule": "nth-played"})
SA = parse_card("SA")

SEED = "如果庄家自己有其中一张，则拿到另外一张的玩家为其对家"
SEED_NONE = "如果庄自己没有该牌，则按出牌顺序，靠近庄家的有该牌的玩家和他是对家"
SEED_BOTH = "如果庄家自己拿到2张该牌，则庄家一打三"


def to_call(s: DealState) -> DealState:
    """Deal, everyone passes, the dealer buries the kitty back: the call is due."""
    s = bury_back(pass_round(deal_out(s)))
    assert s.phase is Phase.CALLING and s.to_act == s.dealer
    return s


def called(rs: Ruleset, hands: dict[int, str], kitty: str = "", *, dealer: int = 0,
           seed: int = 0, card: str = "SA") -> DealState:
    """A stacked deal (no trump: nobody declares) after the dealer's call of ``card``."""
    s = to_call(stacked(rs, hands, kitty, dealer=dealer, fill_seed=seed))
    return step(s, CallFriend(dealer, parse_card(card), 1))


def play_out(s: DealState, seed: int) -> tuple[DealState, list[tuple[int, Event]]]:
    """Random legal plays to the end; events tagged with the index of the play."""
    rng = random.Random(seed)
    out: list[tuple[int, Event]] = []
    i = 0
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        s, evs = s.apply(s.legal_actions(seat).sample(rng))
        out.extend((i, e) for e in evs)
        i += 1
    return s, out


def plays(s: DealState, *moves: tuple[int, str]) -> tuple[DealState, list[Event]]:
    """Apply ``(seat, cards)`` plays in order; all their events."""
    events: list[Event] = []
    for seat, cards in moves:
        s, evs = s.apply(Play(seat, tuple(parse_cards(cards))))
        events.extend(evs)
    return s, events


# ---------------------------------------------------------------------------- the call


def test_call_text_round_trips() -> None:
    a = CallFriend(0, SA, 1)
    assert str(a) == "call 0 1 SA"
    assert parse_action("call 0 1 SA") == a
    assert str(FriendCall(SA, 1)) == "1 SA" and parse_call("1 SA") == FriendCall(SA, 1)


def test_the_dealer_calls_a_card_after_the_burial_then_leads() -> None:
    """The sheet names a card, not a copy: "可以指定一张牌为自己的对家"."""
    s = to_call(stacked(FF, {0: "SA", 2: "SA"}))
    legal = s.legal_actions(0)
    assert CallFriend(0, SA, 1) in legal and CallFriend(0, SA, 2) not in legal
    assert len(list(legal)) == 54  # any card kind, once
    assert not s.legal_actions(1)
    s2, evs = s.apply(CallFriend(0, SA, 1))
    assert evs == [FriendCalled(None, 0, SA, 1)]
    assert s2.phase is Phase.PLAYING and s2.to_act == 0 and s2.defenders == (0,)
    assert view_for(s2, 3).friend_call == FriendCall(SA, 1) and view_for(s2, 3).friend is None


def test_bad_calls_are_refused_and_change_nothing() -> None:
    s = to_call(stacked(FF, {0: "SA", 2: "SA"}))
    assert_illegal(s, CallFriend(1, SA, 1), Reason.NOT_YOUR_TURN)
    e = assert_illegal(s, CallFriend(0, SA, 2), Reason.BAD_CALL)  # no "second SA" on 边锋
    assert "call 0 1 SA" in e.message
    assert_illegal(s, CallFriend(0, SA, 0), Reason.BAD_CALL)
    assert_illegal(s, CallFriend(0, 54, 1), Reason.BAD_CALL)
    assert_illegal(s, Play(0, (SA,)), Reason.WRONG_PHASE)
    played = step(s, CallFriend(0, SA, 1))
    assert_illegal(played, CallFriend(0, SA, 1), Reason.WRONG_PHASE)


def test_fixed_partner_presets_have_no_call() -> None:
    s = bury_back(pass_round(deal_out(stacked(PRESETS["bianfeng"], {}))))
    assert s.phase is Phase.PLAYING and s.defenders == (0, 2)


# ---------------------------------------------------------------------------- who is the friend


@pytest.mark.parametrize(
    ("dealer", "hands", "kitty", "friend", "sentence"),
    [
        (0, {0: "SA", 2: "SA"}, "", 2, SEED),
        (0, {0: "SA", 3: "SA"}, "", 3, SEED),
        (0, {1: "SA", 3: "SA"}, "", 1, SEED_NONE),
        (0, {3: "SA", 2: "SA"}, "", 2, SEED_NONE),  # seat 2 plays before seat 3
        (0, {3: "SA SA"}, "", 3, SEED_NONE),
        (2, {0: "SA", 1: "SA"}, "", 0, SEED_NONE),  # play order from seat 2: 3, 0, 1
        (2, {1: "SA", 3: "SA"}, "", 3, SEED_NONE),
        (0, {0: "SA SA"}, "", None, SEED_BOTH),
        (0, {3: "SA"}, "SA", 3, SEED),  # the kitty's copy is nobody's: seat 3 holds the other
        (0, {0: "SA"}, "SA", None, SEED_BOTH),  # held + buried: nobody else holds one
    ],
)
def test_the_friend_is_the_holder_nearest_the_dealer(
    dealer: int, hands: dict[int, str], kitty: str, friend: int | None, sentence: str
) -> None:
    """Seed 002 (each case quotes its clause in ``sentence``)."""
    assert sentence in "".join((SEED, SEED_NONE, SEED_BOTH))
    s = called(FF, hands, kitty, dealer=dealer)
    assert s.friend_seat == friend and s.friend is None  # decided, not yet shown
    assert s.defenders == (dealer,)


@pytest.mark.parametrize(
    ("hands", "friend"),
    [
        ({0: "SA", 2: "SA", 4: "SA"}, 2),  # the dealer holds one: the nearer other holder
        ({0: "SA SA", 4: "SA"}, 4),
        ({1: "SA", 2: "SA SA"}, 1),
        ({0: "SA SA SA"}, None),  # all three: the dealer plays one against four
    ],
)
def test_five_players_three_copies(hands: dict[int, str], friend: int | None) -> None:
    """Three decks, "5人3副牌打找朋友": the same rule, whatever the number of copies."""
    assert called(FIVE, hands).friend_seat == friend


def test_a_farther_holder_playing_first_is_not_the_friend() -> None:
    """SEED_NONE: the nearest holder is the friend even if a farther one plays it first."""
    s = called(FF, {0: "S3", 1: "SA S4", 2: "S5", 3: "SA"}, seed=1)
    assert s.friend_seat == 1
    s, events = plays(s, (0, "S3"), (1, "S4"), (2, "S5"), (3, "SA"))
    assert NotFriend(None, 3, SA) in events
    assert not any(isinstance(e, FriendRevealed) for e in events)
    assert s.friend is None and s.defenders == (0,)
    assert s.tricks[-1].winner == 3  # seat 3 won: its points stay the attackers'
    assert s.attacker_points == s.tricks[-1].points
    for seat in range(4):  # everyone can tell: the friend is seat 1 or 2
        assert set(view_for(s, seat).friend_candidates) <= {1, 2}
    done, tagged = play_out(s, 1)
    revealed = [e for _, e in tagged if isinstance(e, FriendRevealed)]
    assert revealed == [FriendRevealed(None, 1, SA)] and done.result is not None
    assert done.result.friend == 1 and done.result.defenders == (0, 1)


def test_the_dealers_own_copies_reveal_nothing() -> None:
    s = called(FF, {0: "SA S3", 2: "SA S4"}, seed=2)
    s, events = plays(s, (0, "SA"))
    assert events == [Played(None, 0, (SA,))]


@pytest.mark.parametrize(
    ("hands", "friend"),
    [({0: "SA", 2: "SA"}, 2), ({1: "SA", 3: "SA"}, 1), ({3: "SA", 2: "SA"}, 2),
     ({0: "SA SA"}, None), ({2: "SA SA"}, 2)],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_deals_reveal_the_friend_by_its_own_play(
    hands: dict[int, str], friend: int | None, seed: int
) -> None:
    done, tagged = play_out(called(FF, hands, seed=seed), seed)
    res = done.result
    assert res is not None and res.friend == friend == done.friend
    assert done.defenders == ((0,) if friend is None else (0, friend))
    revealed = [(i, e) for i, e in tagged if isinstance(e, FriendRevealed)]
    if friend is None:
        assert revealed == []
    else:
        ((i, e),) = revealed
        assert e == FriendRevealed(None, friend, SA)
        play = next(p for j, p in tagged if j == i and isinstance(p, Played))
        assert play.seat == friend and SA in play.cards  # the friend's own first SA
        earlier = [p for j, p in tagged if j < i and isinstance(p, Played) and SA in p.cards]
        assert all(p.seat != friend for p in earlier)
    not_friend = [e.seat for _, e in tagged if isinstance(e, NotFriend)]
    assert friend not in not_friend and 0 not in not_friend


# ---------------------------------------------------------------------------- the other rule


@pytest.mark.parametrize(
    ("moves", "nth", "friend"),
    [
        ([(0, "SA"), (2, "SA")], 1, 2),
        ([(3, "SA"), (1, "SA")], 1, 3),  # the first other seat to play one
        ([(1, "SA"), (3, "SA")], 2, 3),  # "the second SA"
        ([(1, "SA SA")], 2, 1),
        ([(0, "SA SA"), (2, "SK")], 1, None),
    ],
)
def test_nth_played_who_the_call_reveals(
    moves: list[tuple[int, str]], nth: int, friend: int | None
) -> None:
    call = FriendCall(SA, nth)
    assert copies_seen(call, 0, [(s, parse_cards(c)) for s, c in moves])[1] == friend


def test_nth_played_counts_only_other_seats() -> None:
    call = FriendCall(SA, 1)
    assert friend_after_play(call, 0, 0, 0, (SA, SA)) == (0, False)
    assert friend_after_play(call, 0, 0, 1, (SA,)) == (1, True)
    assert friend_after_play(call, 0, 1, 2, (SA,)) == (2, False)  # already counted


def test_nth_played_option_lets_the_dealer_call_a_copy() -> None:
    s = to_call(stacked(NTH, {0: "SA", 2: "SA"}))
    assert CallFriend(0, SA, 2) in s.legal_actions(0)
    assert_illegal(s, CallFriend(0, SA, 3), Reason.BAD_CALL)  # two decks: copies 1 and 2
    s = step(s, CallFriend(0, SA, 2))  # nobody else can play a second SA: alone
    assert s.friend_seat is None
    done, tagged = play_out(s, 3)
    assert done.friend is None and not any(isinstance(e, NotFriend) for _, e in tagged)


@pytest.mark.parametrize("seed", range(4))
def test_nth_played_five_players_the_second_copy(seed: int) -> None:
    s = to_call(stacked(NTH5, {0: "SA", 1: "SA", 3: "SA"}, fill_seed=seed))
    done, tagged = play_out(step(s, CallFriend(0, SA, 2)), seed)
    order = [e.seat for _, e in tagged if isinstance(e, Played) and e.seat != 0
             for c in e.cards if c == SA]
    assert done.friend == order[1] and done.friend in (1, 3)


def test_records_stored_before_the_option_replay_the_nth_played_rule() -> None:
    old = FF.to_dict()
    del old["friend_rule"]
    assert Ruleset.from_dict(old).friend_rule == STORED_BEFORE["friend_rule"] == "nth-played"
    assert Ruleset.from_dict(FF.to_dict()) == FF and FF.friend_rule == "nearest-holder"


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("seed", range(6))
def test_points_count_by_the_revealed_teams(seed: int) -> None:
    s = called(FF, {0: "SA", 2: "SA"}, seed=seed)
    rng = random.Random(seed)
    while not s.is_over:
        seat = s.to_act
        assert seat is not None
        nxt = s.apply(s.legal_actions(seat).sample(rng))[0]
        known = set(nxt.defenders)
        won = sum(t.points for t in nxt.tricks if t.winner not in known)
        if not nxt.is_over:
            # shown points: tricks of seats not known to be with the dealer
            assert nxt.attacker_points == won
        s = nxt
    res = s.result
    assert res is not None and res.defenders == (0, 2)
    attackers = sum(t.points for t in s.tricks if t.winner in (1, 3))
    assert res.attacker_points == attackers + res.kitty_gain
    assert res.kitty_captured == (res.last_winner in (1, 3))


def test_one_against_three_scores_the_dealer_alone() -> None:
    done, _ = play_out(called(FF, {0: "SA SA"}, seed=4), 4)
    res = done.result
    assert res is not None and res.defenders == (0,) and res.friend is None
    assert res.attacker_points == sum(
        t.points for t in done.tricks if t.winner != 0
    ) + res.kitty_gain
    dealer_won = sum(t.points for t in done.tricks if t.winner == 0)
    attackers_won = res.attacker_points - res.kitty_gain
    assert attackers_won + dealer_won + points_of(done.kitty) == FF.deck_points


# ---------------------------------------------------------------------------- what seats see


def test_views_show_the_call_and_only_a_revealed_friend() -> None:
    s = called(FF, {0: "SA", 2: "SA"}, seed=2)
    rng = random.Random(2)
    while s.friend is None and not s.is_over:
        for seat in range(4):
            assert view_for(s, seat).friend is None and view_for(s, seat).defenders == (0,)
        assert public_view(s).friend_call == FriendCall(SA, 1)
        seat = s.to_act
        assert seat is not None
        s = s.apply(s.legal_actions(seat).sample(rng))[0]
    assert public_view(s).friend == 2 and public_view(s).defenders == (0, 2)
    assert all(view_for(s, p).friend_candidates == (2,) for p in range(4))


def test_what_each_seat_can_tell_at_the_call() -> None:
    """Dealer 0 holds none; seats 2 and 3 hold one each: seat 2 knows it is the friend
    only if no nearer seat holds one — seat 1 holds none, so seat 1 cannot tell that."""
    s = called(FF, {2: "SA", 3: "SA"})
    assert public_view(s).friend_candidates == (1, 2, 3)
    assert view_for(s, 0).friend_candidates == (1, 2, 3)  # the dealer sees no SA
    assert view_for(s, 1).friend_candidates == (2, 3)  # holds none: not itself
    assert view_for(s, 2).friend_candidates == (1, 2)  # holds one: nobody farther
    assert view_for(s, 3).friend_candidates == (1, 2, 3)
    s = called(FF, {1: "SA", 3: "SA"})
    assert view_for(s, 1).friend_candidates == (1,)  # the dealer's next seat holding one


def test_a_lone_dealer_knows_it_and_the_table_learns_it_when_the_copies_are_out() -> None:
    s = called(FF, {0: "SA SA S3 S4"}, seed=5)
    assert view_for(s, 0).friend_candidates == ()  # SEED_BOTH: 一打三
    assert public_view(s).friend_candidates == (1, 2, 3)
    s, _ = plays(s, (0, "SA SA"))
    assert public_view(s).friend_candidates == ()  # both copies out, nobody revealed
    s = called(FF, {0: "SA"}, kitty="SA", seed=5)
    assert view_for(s, 0).friend_candidates == ()  # it buried the other one


def test_candidates_rule() -> None:
    call = FriendCall(SA, 1)
    # a non-friend's copy cuts the seats from it on; the viewer's own hand adds its bit
    assert candidates(call, 0, 5, 3, [(3, (SA,))], None) == (1, 2)
    assert candidates(call, 0, 5, 3, [], None, viewer=2, held=1) == (1, 2)
    assert candidates(call, 0, 5, 3, [], None, viewer=2, held=0) == (1, 3, 4)
    assert candidates(call, 3, 5, 3, [(0, (SA,))], None) == (4,)
    assert candidates(call, 0, 4, 2, [(0, (SA, SA))], None) == ()
    assert candidates(call, 0, 4, 2, [], 3) == (3,)
    assert nearest_holder(SA, 3, [counts_of(parse_cards(h)) for h in ("SA", "", "SA", "")]) == 0


@pytest.mark.parametrize("seed", range(3))
def test_a_world_from_a_view_keeps_the_call_and_a_possible_friend(seed: int) -> None:
    s = called(FF, {1: "SA", 3: "SA"}, seed=seed)
    rng = random.Random(seed)
    for _ in range(30):
        seat = s.to_act
        assert seat is not None
        s = s.apply(s.legal_actions(seat).sample(rng))[0]
    seat = s.to_act
    assert seat is not None
    w = state_from_view(view_for(s, seat), s.hands, s.kitty)
    assert w.friend_call == s.friend_call and w.friend == s.friend
    assert w.friend_seat == s.friend_seat and w.defenders == s.defenders
    assert w.attacker_points == s.attacker_points


def test_rebury_then_call() -> None:
    rs = preset("find-friend", {"rebury": True})
    s = bury_back(pass_round(deal_out(stacked(rs, {0: "SA"}))))
    assert s.phase is Phase.REBURY
    s = pass_round(s)
    assert s.phase is Phase.CALLING and s.to_act == 0


# ---------------------------------------------------------------------------- properties


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["find-friend", "five-player"]),
    seed=st.integers(0, 10_000),
    dealer=st.integers(0, 4),
    card=st.integers(0, 53),
)
def test_every_view_keeps_the_true_friend_and_the_reveal_is_its_own_play(
    name: str, seed: int, dealer: int, card: int
) -> None:
    """Random deals and calls: the friend is the nearest holder at the call; at every step
    no view rules the true friend out (nor claims a lone dealer that has one); the reveal is
    the friend's first play of the card, and every earlier copy by another seat is a
    ``NotFriend``."""
    rs = PRESETS[name]
    dealer %= rs.players
    s = to_call(DealState.new(rs, seed, 0, dealer))
    held = [s.hands[p][card] for p in range(rs.players)]
    s = step(s, CallFriend(dealer, card, 1))
    truth = s.friend_seat
    expect = next((p for p in [(dealer + i) % rs.players for i in range(1, rs.players)]
                   if held[p]), None)
    assert truth == expect
    rng = random.Random(seed)
    while not s.is_over:
        for viewer in [*range(rs.players), None]:
            v = view_for(s, viewer) if viewer is not None else public_view(s)
            cands = v.friend_candidates
            assert truth in cands if truth is not None else True
            assert cands != () or truth is None
        seat = s.to_act
        assert seat is not None
        before = s.friend
        s, evs = s.apply(s.legal_actions(seat).sample(rng))
        played = next(e for e in evs if isinstance(e, Played)).cards
        copy = card in played and seat != dealer and before is None
        assert (FriendRevealed(None, seat, card) in evs) == (copy and seat == truth)
        assert (NotFriend(None, seat, card) in evs) == (copy and seat != truth)
    assert s.friend == truth and s.result is not None and s.result.friend == truth


def test_bury_changes_who_holds() -> None:
    """The friend is fixed by the hands *at the call*, after the burial: a dealer burying
    its only SA leaves the other SA's holder as the friend."""
    s = pass_round(deal_out(stacked(FF, {0: "SA", 2: "SA"}, fill_seed=7)))
    low = [c for c in s.hand(0) if c != SA][:7]
    s = step(s, Bury(0, (SA, *low)))
    s = step(s, CallFriend(0, SA, 1))
    assert s.friend_seat == 2
