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

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import msgspec

from shengji.core.actions import Action
from shengji.core.bidding import Declaration
from shengji.core.cards import LEVELS, card_str, cards_str, points, trump_str
from shengji.core.display import SUIT_NAMES, PlayedSuit, TableFacts
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


class ViewSource:
    """What the fields of one seat's (or a spectator's) ``GameView`` are rendered from: its
    ``DealView``, the match's levels and end, the same seat's display facts (None: the
    display fields are left at their defaults) and ``known``, the text of played-cards
    tuples rendered already (by id: a suit whose cards are the very same tuple reuses it),
    where the text of a tuple whose id is in ``held`` (tuples its owner keeps alive) is
    kept once rendered."""

    __slots__ = (
        "facts", "held", "known", "match_over", "seat_levels", "team_levels", "view", "winner",
    )

    def __init__(
        self,
        view: DealView,
        team_levels: list[str],
        match_over: bool,
        winner: int | None,
        seat_levels: list[str] | None = None,
        facts: TableFacts | None = None,
        known: dict[int, str] | None = None,
        held: frozenset[int] = frozenset(),
    ) -> None:
        self.view = view
        self.team_levels = team_levels
        self.match_over = match_over
        self.winner = winner
        self.seat_levels = seat_levels
        self.facts = facts
        self.known: dict[int, str] = {} if known is None else known
        self.held = held


def render_fields(src: ViewSource, names: Iterable[str]) -> dict[str, Any]:
    """The ``GameView`` fields ``names`` of ``src``, rendered (no other field is worked out);
    a display field is left out when ``src`` has no facts. ``render_view`` is all of them.

    >>> from shengji.core.ruleset import PRESETS
    >>> from shengji.core.state import DealState
    >>> from shengji.core.views import public_view
    >>> v = public_view(DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0))
    >>> render_fields(ViewSource(v, ["2", "2"], False, None), ["phase", "hand", "trumps"])
    {'phase': 'dealing', 'hand': ''}
    """
    out: dict[str, Any] = {}
    facts = src.facts
    for name in names:
        fn = _RENDER.get(name)
        if fn is not None:
            out[name] = fn(src)
        elif facts is not None:
            out[name] = _RENDER_FACTS[name](src, facts)
        elif name not in _RENDER_FACTS:
            raise KeyError(name)
    return out


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
    src = ViewSource(view, team_levels, match_over, winner, seat_levels, facts)
    return GameView(**render_fields(src, ALL_FIELDS))


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
    known: dict[int, str] = {}  # id of a played-cards tuple -> the spectator's text
    if public_facts is not None:
        for f, text in zip(public_facts.played, public.played, strict=False):
            known[id(f.cards)] = text.cards
    src = ViewSource(view, public.team_levels, public.match_over, public.winner, None, facts, known)
    return msgspec.structs.replace(public, **render_fields(src, SEAT_FIELDS))


def render_played(
    src: ViewSource, played: TableFacts | tuple[PlayedSuit, ...], suits: frozenset[str]
) -> list[PlayedGroup]:
    """The ``played`` groups (of a seat's facts, or given) of the effective suits ``suits``
    (``T``, ``S`` ...) alone: a delta's ``played_suits``."""
    groups = played.played if isinstance(played, TableFacts) else played
    return [_played_group(src, g) for g in groups if SUIT_NAMES[g.suit] in suits]


def _played_group(src: ViewSource, g: PlayedSuit) -> PlayedGroup:
    key = id(g.cards)
    text = src.known.get(key)
    if text is None:
        text = cards_str(g.cards)
        if key in src.held:  # an id names the same tuple only while that tuple is held
            src.known[key] = text
    return PlayedGroup(suit=SUIT_NAMES[g.suit], cards=text, unseen=g.unseen)


def _last_trick(v: DealView) -> TrickInfo | None:
    last = v.tricks[-1] if v.tricks else None
    if last is None or (v.trick and not v.ruleset.player_aids):
        return None
    return TrickInfo(
        leader=last.leader,
        plays=[(seat, cards_str(cards)) for seat, cards in last.plays],
        winner=last.winner,
        points=last.points,
    )


def _point_cards(src: ViewSource) -> str:
    if src.facts is not None:
        return cards_str(src.facts.point_cards)
    v = src.view
    return cards_str(sorted(
        c
        for t in v.tricks
        if t.winner not in v.defenders
        for _, cs in t.plays
        for c in cs
        if points(c)
    ))


def _hand(src: ViewSource) -> str:
    return cards_str(src.view.hand if src.facts is None else src.facts.hand)


def _friend_candidates(src: ViewSource) -> list[int] | None:
    v = src.view
    return None if v.friend_call is None else list(v.friend_candidates)


@lru_cache(maxsize=256)
def _cards_text(cards: tuple[int, ...]) -> str:
    """``cards_str`` of a card list that recurs unchanged (a context's trump kinds)."""
    return cards_str(cards)


_Render = Callable[[ViewSource], Any]
_RenderFacts = Callable[[ViewSource, TableFacts], Any]

_PUBLIC: dict[str, _Render] = {
    "phase": lambda s: s.view.phase.value,
    "level": lambda s: LEVELS[s.view.level],
    "deal_no": lambda s: s.view.deal_no,
    "dealer": lambda s: s.view.dealer,
    "defenders": lambda s: list(s.view.defenders),
    "trump": lambda s: None if s.view.trump is None else trump_str(s.view.trump),
    "to_act": lambda s: s.view.to_act,
    "hand_sizes": lambda s: list(s.view.hand_sizes),
    "kitty_holder": lambda s: s.view.kitty_holder,
    "leader": lambda s: s.view.leader,
    "trick": lambda s: [(seat, cards_str(cards)) for seat, cards in s.view.trick],
    "tricks_done": lambda s: len(s.view.tricks),
    "last_trick": lambda s: _last_trick(s.view),
    "attacker_points": lambda s: s.view.attacker_points,
    "stake": lambda s: s.view.stake,
    "cards_dealt": lambda s: s.view.cards_dealt,
    "result": lambda s: render_result(s.view.result),
    "team_levels": lambda s: s.team_levels,
    "match_over": lambda s: s.match_over,
    "winner": lambda s: s.winner,
    "point_cards": _point_cards,
    "seat_levels": lambda s: list(s.seat_levels or []),
    "auction": lambda s: (
        [(seat, target) for seat, target in s.view.auction.bids] if s.view.auction else []
    ),
    "bid_ceiling": lambda s: _bid_ceiling(s.view),
    "target": lambda s: s.view.target,
    "shown": lambda s: cards_str(s.view.shown),
    "friend_call": lambda s: render_friend_call(s.view.friend_call),
    "friend": lambda s: s.view.friend,
    "dealer_to_be": lambda s: s.view.dealer_to_be,
    "rights": lambda s: list(s.view.rights),
}
"""How each field every audience sees alike is rendered."""

_PUBLIC_FACTS: dict[str, _RenderFacts] = {
    "bury_count": lambda s, f: f.bury_count,
    "roles": lambda s, f: list(f.roles),
    "teams": lambda s, f: list(f.teams),
    "goal": lambda s, f: f.goal,
    "penalty_points": lambda s, f: f.penalty_points,
}
"""The display fields every audience sees alike (left at their defaults without facts)."""

_SEAT: dict[str, _Render] = {
    "seat": lambda s: s.view.seat,
    "hand": _hand,
    "declaration": lambda s: render_declaration(s.view.declaration),
    "own_declaration": lambda s: render_declaration(s.view.own_declaration),
    "kitty": lambda s: None if s.view.kitty is None else cards_str(s.view.kitty),
    "friend_candidates": _friend_candidates,
    "declare_level": lambda s: None if s.view.seat is None else LEVELS[s.view.declare_level],
}
"""How each field that depends on who looks is rendered."""

_SEAT_FACTS: dict[str, _RenderFacts] = {
    "trumps": lambda s, f: _cards_text(f.trumps),
    "options": lambda s, f: [action_text(a) for a in f.options],
    "hand_groups": lambda s, f: list(f.hand_groups),
    "played": lambda s, f: [_played_group(s, g) for g in f.played],
}
"""The display fields that depend on who looks (left at their defaults without facts)."""

_RENDER: dict[str, _Render] = {**_PUBLIC, **_SEAT}
_RENDER_FACTS: dict[str, _RenderFacts] = {**_PUBLIC_FACTS, **_SEAT_FACTS}

PUBLIC_FIELDS: frozenset[str] = frozenset(_PUBLIC) | frozenset(_PUBLIC_FACTS)
"""The ``GameView`` fields every audience sees alike (rendered once per update)."""
SEAT_FIELDS: tuple[str, ...] = (*_SEAT, *_SEAT_FACTS)
"""The ``GameView`` fields that depend on who looks."""
SEAT_FACT_FIELDS: frozenset[str] = frozenset(_SEAT_FACTS)
"""The seat fields made from the seat's display facts (``core.display.table_facts``)."""
ALL_FIELDS: tuple[str, ...] = (*_PUBLIC, *_PUBLIC_FACTS, *SEAT_FIELDS)
"""Every ``GameView`` field."""


def _bid_ceiling(view: DealView) -> int | None:
    """The highest bid the auction allows now (None when no auction is running)."""
    a = view.auction
    if a is None or view.phase.value != "bidding" or a.is_over:
        return None
    return a.ceiling(view.ruleset)
