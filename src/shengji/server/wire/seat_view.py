"""What a room sends about its match: one seat's whole ``GameView`` (the engine's view plus
the display facts, so that a browser computes no rule), and a finished deal's summary.

>>> from shengji.core.match import MatchState, team_levels_of
>>> from shengji.core.ruleset import PRESETS
>>> g = game_view(MatchState.new(PRESETS["two-color"], seed=1, first_dealer=0), 0)
>>> g.phase, g.trumps, g.roles, g.goal
('dealing', 'BJ LJ S2 H2 D2 C2', ['dealer', 'attacker', 'partner', 'attacker'], 40)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shengji.core.cards import RANKS, cards_str, trump_str
from shengji.core.display import SUIT_NAMES, SharedFacts, seat_played, shared_facts, table_facts
from shengji.core.match import MatchState, team_levels_of
from shengji.core.point_parts import kitty_penalty, point_parts
from shengji.core.views import public_view, view_for
from shengji.server.wire import messages as wire
from shengji.server.wire.render import (
    PUBLIC_FIELDS,
    SEAT_FACT_FIELDS,
    ViewSource,
    render_fields,
    render_friend_call,
    render_played,
    render_seat_view,
    render_view,
)


def level_names(m: MatchState, levels: tuple[int, ...]) -> list[str]:
    """Indexes into the level sequence as ranks: ``(0, 3)`` → ``["2", "5"]``."""
    seq = m.ruleset.level_sequence
    return [RANKS[seq[i]] for i in levels]


def game_view(m: MatchState, seat: int | None) -> wire.GameView:
    """``seat``'s view of the match's current deal (None: a spectator's), display facts in."""
    deal = m.deal
    view = public_view(deal) if seat is None else view_for(deal, seat)
    return render_view(
        view,
        level_names(m, m.team_levels),
        m.is_over,
        m.winner,
        level_names(m, m.levels),
        table_facts(deal, seat),
    )


def game_views(m: MatchState, seats: Iterable[int | None]) -> dict[int | None, wire.GameView]:
    """``game_view(m, seat)`` for each of ``seats``, the part every seat sees alike worked out
    and rendered once (``core.display.shared_facts``, ``wire_render.render_seat_view``): an update
    for four seats and the spectators costs one whole rendering and four small ones.

    >>> from shengji.core.ruleset import PRESETS
    >>> m = MatchState.new(PRESETS["classic"], seed=1, first_dealer=0)
    >>> game_views(m, [0, None]) == {0: game_view(m, 0), None: game_view(m, None)}
    True
    """
    deal = m.deal
    shared = shared_facts(deal)
    public = render_view(
        public_view(deal),
        level_names(m, m.team_levels),
        m.is_over,
        m.winner,
        level_names(m, m.levels),
        shared.public,
    )
    out: dict[int | None, wire.GameView] = {}
    for seat in seats:
        if seat is None:
            out[None] = public
        elif seat not in out:
            facts = table_facts(deal, seat, shared)
            out[seat] = render_seat_view(public, view_for(deal, seat), facts, shared.public)
    return out


class FieldViews:
    """The ``GameView`` fields of one match state, rendered on demand for the audiences of
    one update (a delta's fields; whole views are ``game_views``): a field every audience
    sees alike is rendered once and shared, a seat's own fields only for the seats that are
    sent them, and a seat's display facts only when one of those needs them (its options
    only when ``options`` is sent). Each field equals the same field of ``game_view``
    (tests/server/test_field_views.py).

    >>> from shengji.core.ruleset import PRESETS
    >>> m = MatchState.new(PRESETS["classic"], seed=1, first_dealer=0)
    >>> fv = FieldViews(m)
    >>> fv.fields(0, ["to_act", "hand", "trumps"])
    {'to_act': -1, 'hand': '', 'trumps': 'BJ LJ S2 H2 D2 C2'}
    >>> fv.fields(None, ["to_act"])["to_act"] is fv.fields(0, ["to_act"])["to_act"]
    True
    """

    __slots__ = ("_facts", "_public", "_src", "match")

    def __init__(self, m: MatchState) -> None:
        self.match = m
        self._src: ViewSource | None = None
        self._facts: SharedFacts | None = None
        self._public: dict[str, Any] = {}

    def _shared(self) -> tuple[ViewSource, SharedFacts]:
        """The spectator's source (rendered once) and the state's shared facts."""
        src, shared = self._src, self._facts
        if src is None or shared is None:
            m = self.match
            shared = shared_facts(m.deal)
            src = self._src = ViewSource(
                public_view(m.deal),
                level_names(m, m.team_levels),
                m.is_over,
                m.winner,
                level_names(m, m.levels),
                shared.public,
                {},
                frozenset(id(g.cards) for g in shared.public.played),
            )
            self._facts = shared
        return src, shared

    def fields(
        self, seat: int | None, names: Iterable[str], played_suits: frozenset[str] | None = None
    ) -> dict[str, Any]:
        """The fields ``names`` of ``seat``'s (None: a spectator's) view and, with
        ``played_suits``, that view's ``played`` groups of those suits as ``played_suits``."""
        src, shared = self._shared()
        public = self._public
        out: dict[str, Any] = {}
        own: list[str] = []
        for name in names:
            if name in PUBLIC_FIELDS:
                value = public.get(name, _MISSING)
                if value is _MISSING:
                    value = public[name] = render_fields(src, (name,))[name]
                out[name] = value
            else:
                own.append(name)
        if not own and played_suits is None:
            return out
        played = None
        if seat is not None:
            deal = self.match.deal
            facts = None
            if any(n in _FACT_NAMES for n in own):
                facts = table_facts(deal, seat, shared, options="options" in own)
                if played_suits is not None:
                    played = render_played(src, facts, played_suits)
            elif played_suits is not None:  # only some suits' counts: not the whole facts
                suits = frozenset(SUIT_NAMES.index(n) for n in played_suits)
                played = render_played(
                    src, seat_played(deal, seat, shared, suits), played_suits
                )
            if own:
                src = ViewSource(
                    view_for(deal, seat), src.team_levels, src.match_over, src.winner,
                    src.seat_levels, facts, src.known, src.held,
                )
        elif played_suits is not None:
            assert src.facts is not None
            played = render_played(src, src.facts.played, played_suits)
        if own:
            out.update(render_fields(src, own))
        if played is not None:
            out["played_suits"] = played
        return out


_MISSING: Any = object()

_FACT_NAMES = SEAT_FACT_FIELDS | {"hand"}
"""The seat fields rendered from the seat's display facts (its hand in display order)."""


def deal_summary(after: MatchState) -> wire.DealSummary:
    """The summary of the deal that ``after.history[-1]`` scored, as it ended."""
    scored = after.history[-1]
    final = scored.deal
    rs = after.ruleset
    facts = table_facts(final, None)
    call = final.friend_call
    penalty = kitty_penalty(final)
    return wire.DealSummary(
        deal_no=final.deal_no,
        dealer=final.dealer,
        level=RANKS[final.level],
        trump=None if final.trump is None else trump_str(final.trump),
        roles=list(facts.roles),
        friend=final.friend,
        friend_call=render_friend_call(call),
        target=final.target,
        point_cards=cards_str(facts.point_cards),
        penalty_points=facts.penalty_points,
        teams=list(facts.teams),
        seat_levels_before=level_names(after, scored.levels_before),
        seat_levels_after=level_names(after, scored.levels_after),
        seat_steps=list(scored.steps),
        team_levels_before=level_names(after, team_levels_of(rs, scored.levels_before)),
        team_levels_after=level_names(after, scored.team_levels_after),
        parts=[
            wire.PointsPartInfo(kind=p.kind, points=p.points, base=p.base, multiplier=p.multiplier)
            for p in point_parts(final)
        ],
        kitty_penalty=None if penalty is None else wire.KittyPenaltyInfo(
            kind="jack" if penalty[0] == "jack" else "ace", levels=penalty[1]
        ),
    )
