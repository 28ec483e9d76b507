"""Rendering the core's views as wire views (wire/views.py): a seat's ``GameView`` from
its ``DealView`` and display facts, a declaration, a result, a friend call, stakes. Plain
functions over the structs, kept apart from them so that the opt-in mypyc build
(scripts/build_mypyc.sh) compiles the per-action rendering; msgspec's classes it cannot.

>>> render_declaration(None) is None
True
>>> from shengji.core.actions import Play
>>> from shengji.core.cards import parse_cards
>>> action_text(Play(2, parse_cards("SA SA")))
'play SA SA'
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from shengji.core.actions import Action
from shengji.core.bidding import Declaration
from shengji.core.cards import LEVELS, card_str, cards_str, points, trump_str
from shengji.core.display import SUIT_NAMES, TableFacts
from shengji.core.friend import FriendCall
from shengji.core.stakes import StakeRules
from shengji.core.state import DealResult
from shengji.core.views import DealView
from shengji.server.wire.views import (
    DealResultInfo,
    DeclarationInfo,
    FriendCallInfo,
    GameView,
    PlayedGroup,
    StakesInfo,
    TrickInfo,
)


def render_declaration(d: Declaration | None) -> DeclarationInfo | None:
    """A declaration as a wire object."""
    if d is None:
        return None
    return DeclarationInfo(seat=d.seat, cards=cards_str(d.cards), trump=trump_str(d.trump))


def render_result(r: DealResult | None) -> DealResultInfo | None:
    """A finished deal's result as a wire object."""
    if r is None:
        return None
    return DealResultInfo(
        attacker_points=r.attacker_points,
        kitty_points=r.kitty_points,
        kitty_multiplier=r.kitty_multiplier,
        kitty_gain=r.kitty_gain,
        last_winner=r.last_winner,
        defender_levels=r.change.defender_levels,
        attacker_levels=r.change.attacker_levels,
        attackers_take_over=r.change.attackers_take_over,
        stake=r.stake,
    )


def render_friend_call(call: FriendCall | None) -> FriendCallInfo | None:
    """The dealer's call as a wire object."""
    return None if call is None else FriendCallInfo(card=card_str(call.card), nth=call.nth)


def render_stakes(rules: StakeRules) -> StakesInfo:
    """What a room plays for, as RoomInfo and the HTTP API show it."""
    return StakesInfo(
        kind=rules.kind,
        coefficient=rules.coefficient,
        house=rules.house,
        slam_points=rules.slam_points,
        overturn_doubling=rules.doubles,
    )


def action_text(action: Action) -> str:
    """An action as a client writes it, without the seat: ``"play SA SA"``."""
    parts = str(action).split(None, 2)
    return " ".join([parts[0], *parts[2:]])


def render_view(
    view: DealView,
    team_levels: list[str],
    match_over: bool,
    winner: int | None,
    seat_levels: list[str] | None = None,
    facts: TableFacts | None = None,
) -> GameView:
    """A core view as a wire ``GameView`` (never more than the view holds); ``facts`` (the
    same seat's ``table_facts``) fill the display fields and order the hand. A ruleset
    without player aids (``player_aids``, "不许查牌") shows the last trick only while its
    cards lie on the table: until the next lead."""
    last = view.tricks[-1] if view.tricks else None
    if last is not None and view.trick and not view.ruleset.player_aids:
        last = None
    if facts is not None:
        won: list[int] = list(facts.point_cards)
    else:
        won = sorted(
            c
            for t in view.tricks
            if t.winner not in view.defenders
            for _, cs in t.plays
            for c in cs
            if points(c)
        )
    out = GameView(
        phase=view.phase.value,
        level=LEVELS[view.level],
        deal_no=view.deal_no,
        dealer=view.dealer,
        defenders=list(view.defenders),
        trump=None if view.trump is None else trump_str(view.trump),
        to_act=view.to_act,
        hand_sizes=list(view.hand_sizes),
        kitty_holder=view.kitty_holder,
        leader=view.leader,
        trick=[(seat, cards_str(cards)) for seat, cards in view.trick],
        tricks_done=len(view.tricks),
        last_trick=None
        if last is None
        else TrickInfo(
            leader=last.leader,
            plays=[(seat, cards_str(cards)) for seat, cards in last.plays],
            winner=last.winner,
            points=last.points,
        ),
        attacker_points=view.attacker_points,
        stake=view.stake,
        cards_dealt=view.cards_dealt,
        result=render_result(view.result),
        team_levels=team_levels,
        match_over=match_over,
        winner=winner,
        point_cards=cards_str(won),
        seat_levels=list(seat_levels or []),
        auction=[(seat, target) for seat, target in view.auction.bids] if view.auction else [],
        bid_ceiling=_bid_ceiling(view),
        target=view.target,
        shown=cards_str(view.shown),
        friend_call=render_friend_call(view.friend_call),
        friend=view.friend,
        dealer_to_be=view.dealer_to_be,
        rights=list(view.rights),
        **_seat_part(view, facts),
    )
    if facts is not None:
        out.bury_count = facts.bury_count
        out.roles = list(facts.roles)
        out.teams = list(facts.teams)
        out.goal = facts.goal
        out.penalty_points = facts.penalty_points
    return out


def render_seat_view(
    public: GameView, view: DealView, facts: TableFacts, public_facts: TableFacts | None = None
) -> GameView:
    """``render_view`` of a seat's ``view``, made from ``public``, the spectator's rendering
    of the same state: only the fields a seat sees differently are rendered again (its
    hand, declarations, kitty, friend candidates, level, trump marks, options, hand groups
    and played-cards counts; ``core.views._view`` says which those are). ``public_facts``:
    the facts ``public`` was rendered with; a played suit whose cards are the very same
    reuses the spectator's text. The result equals ``render_view(view, ...)``
    (tests/server/test_table_view.py checks it)."""
    return msgspec.structs.replace(public, **_seat_part(view, facts, public, public_facts))


def _seat_part(
    view: DealView,
    facts: TableFacts | None,
    public: GameView | None = None,
    public_facts: TableFacts | None = None,
) -> dict[str, Any]:
    """The ``GameView`` fields that depend on the viewer (not only on the state)."""
    part: dict[str, Any] = {
        "seat": view.seat,
        "hand": cards_str(view.hand if facts is None else facts.hand),
        "declaration": render_declaration(view.declaration),
        "own_declaration": render_declaration(view.own_declaration),
        "kitty": None if view.kitty is None else cards_str(view.kitty),
        "friend_candidates": None
        if view.friend_call is None
        else list(view.friend_candidates),
        "declare_level": None if view.seat is None else LEVELS[view.declare_level],
    }
    if facts is not None:
        part["trumps"] = _cards_text(facts.trumps)
        part["options"] = [action_text(a) for a in facts.options]
        part["hand_groups"] = list(facts.hand_groups)
        known: dict[int, str] = {}  # id of a played-cards tuple -> the spectator's text
        if public is not None and public_facts is not None:
            for f, text in zip(public_facts.played, public.played, strict=False):
                known[id(f.cards)] = text.cards
        part["played"] = [
            PlayedGroup(
                suit=SUIT_NAMES[g.suit],
                cards=known.get(id(g.cards)) or cards_str(g.cards),
                unseen=g.unseen,
            )
            for g in facts.played
        ]
    return part


@lru_cache(maxsize=256)
def _cards_text(cards: tuple[int, ...]) -> str:
    """``cards_str`` of a card list that recurs unchanged (a context's trump kinds)."""
    return cards_str(cards)


def _bid_ceiling(view: DealView) -> int | None:
    """The highest bid the auction allows now (None when no auction is running)."""
    a = view.auction
    if a is None or view.phase.value != "bidding" or a.is_over:
        return None
    return a.ceiling(view.ruleset)
