"""What one seat may see (``view_for``) and what everyone may see (``public_view``).

A view never holds another seat's cards, the kitty (except for the seat holding it while
burying, and for everyone once the deal is over), or a hidden declaration (4-deck style).

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.core.state import DealState
>>> v = view_for(DealState.new(PRESETS["classic"], seed=1, level=0, dealer=0), 2)
>>> v.seat, v.hand, v.kitty
(2, (), None)
"""

from __future__ import annotations

from dataclasses import dataclass

from shengji.core.bidding import Declaration
from shengji.core.state import DealResult, DealState, Phase, TrickRecord


@dataclass(frozen=True)
class DealView:
    """A seat's (or a spectator's) view of a deal."""

    seat: int | None
    phase: Phase
    ruleset_name: str
    level: int
    deal_no: int
    dealer: int | None
    defenders: tuple[int, ...]
    trump: int | None
    to_act: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    declaration: Declaration | None
    """The current declaration, if this viewer may see it."""
    own_declaration: Declaration | None
    kitty: tuple[int, ...] | None
    """The kitty: to its holder while burying, the buried cards to the one who buried them,
    and to everyone once the deal is over."""
    kitty_holder: int | None
    leader: int
    trick: tuple[tuple[int, tuple[int, ...]], ...]
    tricks: tuple[TrickRecord, ...]
    attacker_points: int
    stake: int
    cards_dealt: int
    result: DealResult | None

    @property
    def played_cards(self) -> list[int]:
        """Every card played so far in this deal, tricks in order."""
        out = [c for t in self.tricks for _, cards in t.plays for c in cards]
        out.extend(c for _, cards in self.trick for c in cards)
        return out


def _view(state: DealState, seat: int | None) -> DealView:
    decl = state.declaration
    hidden = state.ruleset.declaration == "hidden" and state.trump is None
    own = decl if decl is not None and decl.seat == seat else None
    # Once trump is fixed the standing declaration (反底 included) is public.
    visible_decl = state.rebury_decl if state.trump is not None else own if hidden else decl
    kitty: tuple[int, ...] | None = None
    holder = seat is not None and seat == state.kitty_holder
    if state.phase is Phase.DONE or holder:
        kitty = state.kitty
    hand: tuple[int, ...] = ()
    if seat is not None:
        hand = tuple(state.hand(seat))
    trump = state.trump if not hidden else None
    return DealView(
        seat=seat,
        phase=state.phase,
        ruleset_name=state.ruleset.name,
        level=state.level,
        deal_no=state.deal_no,
        dealer=state.dealer,
        defenders=state.defenders,
        trump=trump,
        to_act=state.to_act,
        hand=hand,
        hand_sizes=state.hand_sizes,
        declaration=visible_decl,
        own_declaration=own,
        kitty=kitty,
        kitty_holder=state.kitty_holder,
        leader=state.leader,
        trick=state.trick,
        tricks=state.tricks,
        attacker_points=state.attacker_points,
        stake=state.stake,
        cards_dealt=state.n_dealt,
        result=state.result,
    )


def view_for(state: DealState, seat: int) -> DealView:
    """What ``seat`` may see."""
    return _view(state, seat)


def public_view(state: DealState) -> DealView:
    """What a spectator may see: no hand, no kitty before the end."""
    return _view(state, None)
