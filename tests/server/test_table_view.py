"""What the server tells a table about its game, for every preset: each seat's whole view
with the display facts (trump marks, choices, roles, goal, point pile), and the deal-end
summary. A browser renders these and computes no rule (docs/protocol.md)."""

from __future__ import annotations

import random

import msgspec
import pytest

from shengji.core.cards import RANKS, parse_cards, points
from shengji.core.display import table_facts
from shengji.core.events import DealEnded, KittyRevealed
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.server.live.rooms import client_action
from shengji.server.wire import messages as wire
from shengji.server.wire.seat_view import deal_summary, game_view


def _pile(text: str) -> int:
    return sum(points(c) for c in parse_cards(text))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_view_carries_the_display_facts(name: str) -> None:
    rs = PRESETS[name]
    rng = random.Random(7)
    m = MatchState.new(rs, seed=7)
    steps = 0
    while True:
        for seat in (*range(rs.players), None):
            g = game_view(m, seat)
            ctx_trumps = parse_cards(g.trumps)
            assert ctx_trumps and len(set(ctx_trumps)) == len(ctx_trumps)
            assert len(g.roles) == rs.players
            fixed = rs.partnership == "fixed"
            assert g.teams == ([p % 2 for p in range(rs.players)] if fixed else [])
            assert g.bury_count == rs.kitty_size - len(m.deal.kitty_kept)
            if m.deal.phase.value != "done":
                assert _pile(g.point_cards) + g.penalty_points == g.attacker_points
            if seat is None:
                assert g.hand == "" and g.options == []
                continue
            assert sorted(parse_cards(g.hand)) == sorted(m.deal.hand(seat))
            # the hand shows its trumps first, as marked
            marks = [c in set(ctx_trumps) for c in parse_cards(g.hand)]
            assert marks == sorted(marks, reverse=True)
            for text in g.options:  # each choice is accepted as the client sends it
                m.apply(client_action(text, seat))
        seat = m.to_act
        assert seat is not None
        before = m
        action = m.legal_actions(seat).sample(rng)
        m, events = m.apply(action)
        steps += 1
        if any(isinstance(e, DealEnded) for e in events):
            break
    final = m.history[-1].deal  # the deal as the action that finished it left it
    again, _ = before.deal.apply(action)
    assert (final.tricks, final.result, final.phase) == (again.tricks, again.result, again.phase)
    s = deal_summary(m)
    kitty = next(e for e in events if isinstance(e, KittyRevealed))
    assert _pile(s.point_cards) + s.penalty_points + kitty.attacker_gain == (
        final.attacker_points
    )
    assert s.deal_no == 0 and s.dealer == final.dealer and s.level == RANKS[final.level]
    seq = list(rs.level_sequence)
    for before_lv, after_lv, step in zip(
        s.seat_levels_before, s.seat_levels_after, s.seat_steps, strict=True
    ):
        assert seq.index(RANKS.index(after_lv)) - seq.index(RANKS.index(before_lv)) == step
    assert set(s.roles) <= {"dealer", "partner", "friend", "attacker"}
    data = msgspec.json.decode(wire.encode(wire.Update(
        seq=1, events=[{"type": "deal_ended", "summary": s}], phase="done", to_act=None,
        deal_no=0, match_no=1, team_levels=[], game=game_view(m, 0),
    )))
    assert data["events"][0]["summary"]["point_cards"] == s.point_cards
    assert data["game"]["seat"] == 0 and steps > 0


def test_the_view_of_a_revealed_friend_counts_its_tricks_for_the_dealer() -> None:
    """找朋友 over the wire: once the friend is revealed, the tricks it won before are no
    longer in the attackers' pile, and the number shown equals the cards shown."""
    for seed in range(300):
        rng = random.Random(seed)
        m = MatchState.new(PRESETS["find-friend"], seed=seed)
        pile_before = 0
        while not m.deal.is_over and m.deal.deal_no == 0:
            g = game_view(m, 0)
            if m.deal.friend is None:
                pile_before = _pile(g.point_cards)
            else:
                friend = m.deal.friend
                earlier = sum(t.points for t in m.deal.tricks if t.winner == friend)
                if earlier and len(m.deal.trick) > 0:  # revealed mid-trick: no trick since
                    assert g.roles[friend] == "friend"
                    assert _pile(g.point_cards) == pile_before - earlier
                    assert _pile(g.point_cards) == g.attacker_points
                    assert table_facts(m.deal, 0).point_cards == tuple(
                        parse_cards(g.point_cards)
                    )
                    return
                break
            seat = m.to_act
            assert seat is not None
            m, _ = m.apply(m.legal_actions(seat).sample(rng))
    pytest.fail("no seed revealed a friend that had won points")


def _played_by_suit_alone(m: MatchState, seat: int | None) -> list[tuple[str, str, int]]:
    """The played-cards panel worked out the plain way, card by card (the oracle)."""
    from shengji.core.cards import cards_str
    from shengji.core.display import SUIT_NAMES, _trump_context
    from shengji.core.phases import Phase
    from shengji.core.state import display_order

    s = m.deal
    ctx = _trump_context(s, seat)
    out = [0] * 54
    for c in [c for t in s.tricks for _, cs in t.plays for c in cs] + [
        c for _, cs in s.trick for c in cs
    ]:
        out[c] += 1
    seen = list(out)
    if seat is not None:
        for k, n in enumerate(s.hands[seat]):
            seen[k] += n
        knows = seat == s.kitty_holder and not s.kitty_kept
        if knows and s.phase in (Phase.CALLING, Phase.PLAYING, Phase.DONE):
            for c in s.kitty:
                seen[c] += 1
    order = display_order(ctx)
    suits = list(dict.fromkeys(ctx.esuit[k] for k in order))
    return [
        (
            SUIT_NAMES[suit],
            cards_str([k for k in order if ctx.esuit[k] == suit for _ in range(out[k])]),
            sum(s.ruleset.decks - seen[k] for k in order if ctx.esuit[k] == suit),
        )
        for suit in suits
    ]


@pytest.mark.parametrize(
    "name", ["classic", "four-deck", "find-friend", "three-player", "two-color", "five-player"]
)
def test_views_rendered_together_equal_each_seat_rendered_alone(name: str) -> None:
    """Issue 15: an update renders the part every seat sees alike once and only the seats'
    own fields again (``game_views``); that must be exactly each seat's whole rendering,
    hidden declarations (four-deck), kitties, friends and auctions included."""
    from shengji.core.views import public_view, view_for
    from shengji.server.wire.seat_view import game_views, level_names

    rs = PRESETS[name]
    rng = random.Random(11)
    m = MatchState.new(rs, seed=11)
    seats: list[int | None] = [*range(rs.players), None]
    for step in range(400):
        together = game_views(m, seats)
        for seat in seats:
            deal = m.deal
            view = public_view(deal) if seat is None else view_for(deal, seat)
            alone = wire.render_view(
                view,
                level_names(m, m.team_levels),
                m.is_over,
                m.winner,
                level_names(m, m.levels),
                table_facts(deal, seat),
            )
            assert together[seat] == alone == game_view(m, seat), (name, step, seat)
            panel = [(g.suit, g.cards, g.unseen) for g in together[seat].played]
            assert panel == _played_by_suit_alone(m, seat)
        if m.is_over:
            break
        m, _ = m.apply(m.legal_actions(m.to_act).sample(rng))
