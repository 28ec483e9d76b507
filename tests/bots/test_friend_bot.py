"""找朋友 bots: the heuristic's call, who it counts as partners while the friend is hidden,
revealing itself, and every bot legal over many seeded deals of both presets."""

from __future__ import annotations

import copy

import pytest

from shengji.bots.driver import play_match
from shengji.bots.friend import choose_call, next_copy_holder, partners, sure_friend
from shengji.bots.heuristic import HeuristicBot
from shengji.bots.random_bot import RandomBot
from shengji.bots.registry import make_bot
from shengji.core.actions import Action, Bury, CallFriend, Deal, Play
from shengji.core.cards import cards_str, parse_card
from shengji.core.deal_record import _UNKNOWN
from shengji.core.events import FriendRevealed
from shengji.core.phases import Phase
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for
from tests.core.dealkit import bury_back, deal_out, pass_round, stacked, step

FF = PRESETS["find-friend"]
FIVE = PRESETS["five-player"]


def calling(hands: dict[int, str], kitty: str = "", level: str = "2") -> DealState:
    """Seat 0 deals, nobody declares (no trump), buries the kitty back: the call is due."""
    s = bury_back(pass_round(deal_out(stacked(FF, hands, kitty, level=level))))
    assert s.phase is Phase.CALLING
    return s


def called(s: DealState) -> str:
    return cards_str([choose_call(view_for(s, 0)).card])


# ---------------------------------------------------------------------------- the call


def test_calls_the_ace_it_holds_one_of() -> None:
    # no trump (nobody declared): every suit is off. One CA; the other As both held.
    s = calling({0: "CA C3 SA SA HA HA DA DA", 1: "CA"})
    assert called(s) == "CA" and choose_call(view_for(s, 0)).nth == 1


def test_calls_an_ace_it_lacks_when_it_holds_both_or_none() -> None:
    s = calling({0: "SA SA HA HA DA DA C3", 1: "CA CA"})
    assert called(s) == "CA"


def test_all_aces_held_calls_a_king() -> None:
    s = calling({0: "SA SA HA HA DA DA CA CA CK", 1: "SK SK HK HK DK DK", 3: "CK"})
    assert called(s) == "CK"  # it holds one CK: the other CK's holder


def test_a_buried_copy_does_not_count() -> None:
    # the dealer holds one HA and buries the other: nobody else can answer HA
    s = pass_round(deal_out(stacked(FF, {0: "HA SA SA DA DA CA CA"}, kitty="HA")))
    ha = parse_card("HA")
    low = [c for c in s.hand(0) if c % 13 not in (11, 12)]
    s = step(s, Bury(0, tuple(sorted([ha, *low[:7]]))))
    assert s.phase is Phase.CALLING
    assert choose_call(view_for(s, 0)).card % 13 == 11  # no A is left to call: a K


def test_level_ace_calls_kings() -> None:
    c = choose_call(view_for(calling({0: "SK C3"}, level="A"), 0))
    assert c.card % 13 == 11 and c.nth == 1


# ---------------------------------------------------------------------------- partners


def test_partners_while_hidden_and_after_the_reveal() -> None:
    """Seed 002 "靠近庄家的有该牌的玩家和他是对家": seat 1, the dealer's next seat, holds a SA
    and knows it is the friend; seat 2 holds none and knows it is not."""
    s = calling({0: "SA", 1: "SA S3"})
    s = step(s, CallFriend(0, parse_card("SA"), 1))
    v1, v2 = view_for(s, 1), view_for(s, 2)
    assert sure_friend(v1, 1) and not sure_friend(v2, 2)
    assert partners(v1, 1) == {0, 1}  # sure to be the friend: sides with the dealer
    assert partners(v2, 2) == {2}  # not the friend, but 1 or 3 may be
    assert partners(view_for(s, 0), 0) == {0}  # the dealer cannot tell who holds the other
    bots = [HeuristicBot(i) for i in range(4)]
    while s.friend is None:
        seat = s.to_act
        assert seat is not None
        s = step(s, bots[seat].choose(view_for(s, seat), s.legal_actions(seat)))
    assert s.friend == 1
    assert partners(view_for(s, 2), 2) == {2, 3} and partners(view_for(s, 1), 1) == {0, 1}


def test_sure_attackers_side_together() -> None:
    """The dealer holds both: "如果庄家自己拿到2张该牌，则庄家一打三" — once both are out
    everyone knows it, and the three play together."""
    s = step(calling({0: "SA SA S3 S4"}), CallFriend(0, parse_card("SA"), 1))
    assert partners(view_for(s, 0), 0) == {0}
    assert partners(view_for(s, 1), 1) == {1}  # cannot tell yet
    s = step(s, Play(0, (parse_card("SA"), parse_card("SA"))))
    assert partners(view_for(s, 1), 1) == {1, 2, 3}


def test_partners_of_unsure_seats() -> None:
    """Seed 002 "靠近庄家的有该牌的玩家和他是对家": dealer 0 holds none, seats 2 and 3 one each.
    Seat 3 cannot tell (seat 1 or 2 may hold one nearer); seat 1 holds none: not the friend,
    but it cannot tell which of 2 and 3 is."""
    s = step(calling({2: "SA", 3: "SA"}), CallFriend(0, parse_card("SA"), 1))
    assert partners(view_for(s, 3), 3) == {3} and not sure_friend(view_for(s, 3), 3)
    assert partners(view_for(s, 1), 1) == {1}
    assert partners(view_for(s, 2), 2) == {2}  # seat 1 might hold one
    assert partners(view_for(s, 0), 0) == {0}


def test_the_nth_played_rule_keeps_the_counted_copy() -> None:
    rs = PRESETS["find-friend"].replace({"friend_rule": "nth-played"})
    s = bury_back(pass_round(deal_out(stacked(rs, {0: "SA", 2: "SA S3"}))))
    s = step(s, CallFriend(0, parse_card("SA"), 1))
    assert next_copy_holder(view_for(s, 2), 2) and sure_friend(view_for(s, 2), 2)
    assert not next_copy_holder(view_for(s, 1), 1) and partners(view_for(s, 1), 1) == {1}


def test_the_friend_leads_the_called_card_to_reveal_itself() -> None:
    s = step(calling({2: "SA SA S3 S4"}), CallFriend(0, parse_card("SA"), 1))  # holds both
    t = copy.copy(s)  # seat 2 has just won a trick: it leads
    t.leader = 2
    t._to_act = _UNKNOWN
    a = HeuristicBot(2).choose(view_for(t, 2), t.legal_actions(2))
    assert isinstance(a, Play) and parse_card("SA") in a.cards
    after, events = t.apply(a)
    assert FriendRevealed(None, 2, parse_card("SA")) in events and after.defenders == (0, 2)


def test_sampled_worlds_keep_a_nearer_holder_after_a_not_friend() -> None:
    """After seat 3 plays SA without a reveal, every world seat 2 (holding none) samples
    gives seat 1 a SA — the friend — and builds a deal where seat 1 is the hidden friend."""
    import random as _random

    from shengji.bots.sampler import sample_hidden
    from shengji.core.determinize import state_from_view

    s = step(calling({0: "S3", 1: "SA S4", 2: "S5", 3: "SA"}), CallFriend(0, parse_card("SA"), 1))
    for seat, card in ((0, "S3"), (1, "S4"), (2, "S5"), (3, "SA")):
        s = step(s, Play(seat, (parse_card(card),)))
    v = view_for(s, 2)
    assert v.friend_candidates == (1,)
    rng = _random.Random(0)
    for _ in range(20):
        hands, kitty = sample_hidden(v, rng)
        assert hands[1][parse_card("SA")] == 1
        assert state_from_view(v, hands, kitty).friend_seat == 1


# ---------------------------------------------------------------------------- legality


class Strict:
    """Wraps a bot and checks every action it returns is legal."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")

    def choose(self, view, legal) -> Action | None:  # type: ignore[no-untyped-def]
        a = self.bot.choose(view, legal)  # type: ignore[attr-defined]
        assert a is None or isinstance(a, Deal) or a in legal, f"illegal {a}"
        return a


@pytest.mark.parametrize("name", ["find-friend", "five-player"])
@pytest.mark.parametrize("seed", range(6))
def test_heuristic_and_random_never_play_illegally(name: str, seed: int) -> None:
    rs = PRESETS[name]
    heur = [HeuristicBot(f"{seed}.{s}") for s in range(rs.players)]
    bots = [Strict(heur[s] if (s + seed) % 3 else RandomBot(s)) for s in range(rs.players)]
    state, record = play_match(rs, bots, f"ff.{seed}", deals=2)
    assert len(state.history) >= 1
    assert all(b.fallbacks == 0 for b in heur)
    assert sum(a.startswith("call ") for a in record.actions) == len(state.history) + (
        0 if state.is_over or state.deal.phase in (Phase.DEALING, Phase.DECLARING) else 1
    )


@pytest.mark.parametrize("name", ["find-friend", "five-player"])
def test_search_bot_plays_a_deal(name: str) -> None:
    rs = PRESETS[name]
    bots = [make_bot("search:10", "s")] + [make_bot("heuristic", i) for i in range(1, rs.players)]
    state, _ = play_match(rs, bots, "search", deals=1)
    assert len(state.history) == 1


def test_heuristic_seats_beat_random_seats() -> None:
    gained = {"heuristic": 0, "random": 0}
    for seed in range(3):
        bots = [HeuristicBot(seed) if s % 2 == 0 else RandomBot(seed) for s in range(4)]
        state, _ = play_match(FF, bots, f"beat.{seed}", deals=4)
        for s in range(4):
            gained["heuristic" if s % 2 == 0 else "random"] += state.levels[s]
    assert gained["heuristic"] > gained["random"]

