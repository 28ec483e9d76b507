"""找朋友 (RULES.md §8, seed 002 "挑选对家"): the dealer's call, who it reveals, when, and
scoring by the revealed teams.

Seed 002: "庄家拿进底牌后，可以指定一张牌为自己的对家，如果庄家自己有其中一张，则拿到另外一张的
玩家为其对家，如果庄自己没有该牌，则按出牌顺序，靠近庄家的有该牌的玩家和他是对家，如果庄家自己
拿到2张该牌，则庄家一打三。" Decision 45 (docs/rules.md): the dealer calls "the n-th SA"; only
copies other seats play count, in play order.
"""

from __future__ import annotations

import random

import pytest

from shengji.core.actions import CallFriend, Play, parse_action
from shengji.core.cards import parse_card, points_of
from shengji.core.determinize import state_from_view
from shengji.core.errors import Reason
from shengji.core.events import Event, FriendCalled, FriendRevealed, Played
from shengji.core.friend import FriendCall, copies_seen, friend_after_play, parse_call
from shengji.core.ruleset import PRESETS, preset
from shengji.core.state import DealState, Phase
from shengji.core.views import public_view, view_for
from tests.core.dealkit import assert_illegal, bury_back, deal_out, pass_round, stacked, step

FF = PRESETS["find-friend"]
FIVE = PRESETS["five-player"]
SA = parse_card("SA")


def to_call(s: DealState) -> DealState:
    """Deal, everyone passes, the dealer buries the kitty back: the call is due."""
    s = bury_back(pass_round(deal_out(s)))
    assert s.phase is Phase.CALLING and s.to_act == s.dealer
    return s


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


def first_counted(events: list[tuple[int, Event]], dealer: int, call: FriendCall) -> int | None:
    """Independently: the seat whose play holds the call's counted copy."""
    n = 0
    for _, e in events:
        if isinstance(e, Played) and e.seat != dealer:
            for c in e.cards:
                if c == call.card:
                    n += 1
                    if n == call.nth:
                        return e.seat
    return None


# ---------------------------------------------------------------------------- the call


def test_call_text_round_trips() -> None:
    a = CallFriend(0, SA, 2)
    assert str(a) == "call 0 2 SA"
    assert parse_action("call 0 2 SA") == a
    assert str(FriendCall(SA, 1)) == "1 SA" and parse_call("1 SA") == FriendCall(SA, 1)


def test_the_dealer_calls_after_the_burial_then_leads() -> None:
    s = to_call(stacked(FF, {0: "SA"}))
    legal = s.legal_actions(0)
    assert CallFriend(0, SA, 1) in legal and CallFriend(0, SA, 2) in legal
    assert CallFriend(0, SA, 3) not in legal  # two decks: copies 1 and 2
    assert not s.legal_actions(1)
    s2, evs = s.apply(CallFriend(0, SA, 1))
    assert evs == [FriendCalled(None, 0, SA, 1)]
    assert s2.phase is Phase.PLAYING and s2.to_act == 0 and s2.defenders == (0,)
    assert view_for(s2, 3).friend_call == FriendCall(SA, 1) and view_for(s2, 3).friend is None


def test_bad_calls_are_refused_and_change_nothing() -> None:
    s = to_call(stacked(FF, {0: "SA"}))
    assert_illegal(s, CallFriend(1, SA, 1), Reason.NOT_YOUR_TURN)
    assert_illegal(s, CallFriend(0, SA, 3), Reason.BAD_CALL)
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
    ("plays", "nth", "friend"),
    [
        # dealer 0 holds one SA: the other copy's holder, whenever it is played
        ([(0, "SA"), (2, "SA")], 1, 2),
        ([(3, "SA"), (0, "SA")], 1, 3),
        # dealer holds none: the first other seat to play one (not the nearest holder)
        ([(3, "SA"), (1, "SA")], 1, 3),
        ([(1, "SA"), (3, "SA")], 1, 1),
        # "the second SA": the second copy another seat plays
        ([(1, "SA"), (3, "SA")], 2, 3),
        ([(1, "SA SA")], 2, 1),
        # dealer holds both: nobody can play the called copy → one against three
        ([(0, "SA"), (0, "SA")], 1, None),
        ([(0, "SA SA"), (2, "SK")], 1, None),
    ],
)
def test_who_the_call_reveals(plays: list[tuple[int, str]], nth: int, friend: int | None) -> None:
    from shengji.core.cards import parse_cards

    call = FriendCall(SA, nth)
    assert copies_seen(call, 0, [(s, parse_cards(c)) for s, c in plays])[1] == friend


def test_the_dealers_own_copies_never_count() -> None:
    call = FriendCall(SA, 1)
    assert friend_after_play(call, 0, 0, 0, (SA, SA)) == (0, False)
    assert friend_after_play(call, 0, 0, 1, (SA,)) == (1, True)
    assert friend_after_play(call, 0, 1, 2, (SA,)) == (2, False)  # already counted


@pytest.mark.parametrize(
    ("hands", "friend"),
    [
        ({0: "SA", 2: "SA"}, 2),  # the dealer holds one: the other holder
        ({0: "SA SA"}, None),  # the dealer holds both: one against three
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_deals_reveal_the_friend_by_the_rule(
    hands: dict[int, str], friend: int | None, seed: int
) -> None:
    s = step(to_call(stacked(FF, hands, fill_seed=seed)), CallFriend(0, SA, 1))
    done, events = play_out(s, seed)
    res = done.result
    assert res is not None and res.friend == friend == done.friend
    assert done.defenders == ((0,) if friend is None else (0, friend))
    revealed = [(i, e) for i, e in events if isinstance(e, FriendRevealed)]
    if friend is None:
        assert revealed == []
    else:
        ((i, e),) = revealed
        assert e == FriendRevealed(None, friend, SA)
        play = next(p for j, p in events if j == i and isinstance(p, Played))
        assert play.seat == friend and SA in play.cards  # revealed by that very play


@pytest.mark.parametrize("seed", range(6))
def test_dealer_without_the_card_the_first_to_play_it(seed: int) -> None:
    s = step(to_call(stacked(FF, {1: "SA", 3: "SA"}, fill_seed=seed)), CallFriend(0, SA, 1))
    done, events = play_out(s, seed)
    assert done.friend in (1, 3)
    assert done.friend == first_counted(events, 0, FriendCall(SA, 1))


@pytest.mark.parametrize("seed", range(4))
def test_five_players_the_second_copy(seed: int) -> None:
    s = stacked(FIVE, {0: "SA", 1: "SA", 3: "SA"}, fill_seed=seed)
    s = step(to_call(s), CallFriend(0, SA, 2))
    done, events = play_out(s, seed)
    assert done.friend == first_counted(events, 0, FriendCall(SA, 2))
    assert done.friend in (1, 3)


# ---------------------------------------------------------------------------- scoring


@pytest.mark.parametrize("seed", range(6))
def test_points_count_by_the_revealed_teams(seed: int) -> None:
    s = step(to_call(stacked(FF, {0: "SA", 2: "SA"}, fill_seed=seed)), CallFriend(0, SA, 1))
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
    s = step(to_call(stacked(FF, {0: "SA SA"}, fill_seed=4)), CallFriend(0, SA, 1))
    done, _ = play_out(s, 4)
    res = done.result
    assert res is not None and res.defenders == (0,) and res.friend is None
    assert res.attacker_points == sum(
        t.points for t in done.tricks if t.winner != 0
    ) + res.kitty_gain
    dealer_won = sum(t.points for t in done.tricks if t.winner == 0)
    attackers_won = res.attacker_points - res.kitty_gain
    assert attackers_won + dealer_won + points_of(done.kitty) == FF.deck_points


# ---------------------------------------------------------------------------- views, worlds


def test_views_show_the_call_and_only_a_revealed_friend() -> None:
    s = step(to_call(stacked(FF, {0: "SA", 2: "SA"}, fill_seed=2)), CallFriend(0, SA, 1))
    rng = random.Random(2)
    while s.friend is None and not s.is_over:
        for seat in range(4):
            assert view_for(s, seat).friend is None and view_for(s, seat).defenders == (0,)
        assert public_view(s).friend_call == FriendCall(SA, 1)
        seat = s.to_act
        assert seat is not None
        s = s.apply(s.legal_actions(seat).sample(rng))[0]
    assert public_view(s).friend == 2 and public_view(s).defenders == (0, 2)


@pytest.mark.parametrize("seed", range(3))
def test_a_world_from_a_view_keeps_the_call_and_the_count(seed: int) -> None:
    s = step(to_call(stacked(FF, {1: "SA", 3: "SA"}, fill_seed=seed)), CallFriend(0, SA, 2))
    rng = random.Random(seed)
    for _ in range(30):
        seat = s.to_act
        assert seat is not None
        s = s.apply(s.legal_actions(seat).sample(rng))[0]
    seat = s.to_act
    assert seat is not None
    w = state_from_view(view_for(s, seat), s.hands, s.kitty)
    assert w.friend_call == s.friend_call and w.friend == s.friend
    assert w.friend_seen == s.friend_seen and w.defenders == s.defenders
    assert w.attacker_points == s.attacker_points


def test_rebury_then_call() -> None:
    rs = preset("find-friend", {"rebury": True})
    s = bury_back(pass_round(deal_out(stacked(rs, {0: "SA"}))))
    assert s.phase is Phase.REBURY
    s = pass_round(s)
    assert s.phase is Phase.CALLING and s.to_act == 0
