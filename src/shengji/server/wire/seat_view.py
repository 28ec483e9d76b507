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

from shengji.core.cards import RANKS, cards_str, trump_str
from shengji.core.display import shared_facts, table_facts
from shengji.core.match import MatchState, team_levels_of
from shengji.core.point_parts import kitty_penalty, point_parts
from shengji.core.views import public_view, view_for
from shengji.server.wire import messages as wire
from shengji.server.wire.render import render_friend_call, render_seat_view, render_view


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
