"""A match of many deals: levels per team, dealer rotation, must-play ranks, the end.

Teams are fixed partners (seat parity). After each deal the dealer side goes up by the
level table, or the attackers take over (上台) and the old dealer's next seat deals; a side
cannot skip a must-play rank (必打); the match ends when a side wins a deal as dealer side
while on its last level (A). Tournament: a dealer side on J whose kitty is captured with a J
drops back to 2.

>>> from shengji.core.ruleset import PRESETS
>>> m = MatchState.new(PRESETS["classic"], seed=7)
>>> m.team_levels, m.deal.phase.value
((0, 0), 'dealing')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from shengji.core.actions import Action
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import DealStarted, Event
from shengji.core.legal import LegalActions
from shengji.core.ruleset import Ruleset
from shengji.core.state import DealResult, DealState, Phase

_JACK = 9


@dataclass(frozen=True)
class DealSummary:
    """One finished deal of a match."""

    deal_no: int
    dealer: int
    level: int
    result: DealResult
    team_levels_after: tuple[int, ...]


def team_of(seat: int) -> int:
    """Fixed partners: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def advance(ruleset: Ruleset, index: int, steps: int, as_dealer: bool = True) -> int:
    """New index into the level sequence after going up ``steps``.

    A must-play rank (必打) stops the climb, and a side leaves it only by winning a deal
    there as the dealer side: attackers taking over while on it stay on it.

    >>> from shengji.core.ruleset import PRESETS
    >>> t = PRESETS["tournament"]                 # 2, 5, 10, J, Q, K, A; must play 2 and A
    >>> advance(t, 0, 3, as_dealer=False), advance(t, 0, 3), advance(t, 1, 9)
    (0, 3, 6)
    """
    seq = ruleset.level_sequence
    if not as_dealer and seq[index] in ruleset.must_play:
        return index
    target = min(index + steps, len(seq) - 1)
    for i in range(index + 1, target):
        if seq[i] in ruleset.must_play:
            return i
    return target


@dataclass(frozen=True)
class MatchState:
    """A match: the current deal plus what carries over between deals."""

    ruleset: Ruleset
    seed: int | str
    team_levels: tuple[int, ...]
    """Per team: index into ``ruleset.level_sequence``."""
    dealer: int | None
    deal: DealState
    history: tuple[DealSummary, ...] = ()
    winner: int | None = None
    """The winning team once the match is over."""

    @classmethod
    def new(cls, ruleset: Ruleset, seed: int | str, first_dealer: int | None = None) -> MatchState:
        """A match whose first deal decides the dealer by declaration (or ``first_dealer``)."""
        deal = DealState.new(ruleset, _deal_seed(seed, 0), ruleset.level_sequence[0], first_dealer)
        return cls(ruleset, seed, (0, 0), first_dealer, deal)

    @property
    def is_over(self) -> bool:
        """Whether a team has won."""
        return self.winner is not None

    @property
    def to_act(self) -> int | None:
        """Who moves in the current deal (None once the match is over)."""
        return None if self.is_over else self.deal.to_act

    def legal_actions(self, seat: int) -> LegalActions:
        """Legal actions of ``seat`` in the current deal."""
        return self.deal.legal_actions(seat)

    def level_rank(self, team: int) -> int:
        """The rank a team is on (2 = 0 .. A = 12)."""
        return self.ruleset.level_sequence[self.team_levels[team]]

    def apply(self, action: Action) -> tuple[MatchState, list[Event]]:
        """Apply to the current deal; a finished deal is scored and the next one starts."""
        if self.is_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is over")
        deal, events = self.deal.apply(action)
        if deal.phase is not Phase.DONE:
            return (
                MatchState(
                    self.ruleset, self.seed, self.team_levels, self.dealer, deal, self.history
                ),
                events,
            )
        return self._score(deal, events)

    def apply_in_place(self, action: Action) -> tuple[MatchState, list[Event]]:
        """Like ``apply`` but the current deal changes in place (``DealState.apply_in_place``):
        for simulations that hold the only reference. Returns this match until a deal ends."""
        if self.is_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is over")
        events = self.deal.apply_in_place(action)
        if self.deal.phase is not Phase.DONE:
            return self, events
        return self._score(self.deal, events)

    def _score(self, deal: DealState, events: list[Event]) -> tuple[MatchState, list[Event]]:
        rs = self.ruleset
        res = deal.result
        assert res is not None and deal.dealer is not None
        dealer = deal.dealer
        d_team = team_of(dealer)
        a_team = 1 - d_team
        levels = list(self.team_levels)
        change = res.change
        last = len(rs.level_sequence) - 1
        winner: int | None = None
        if change.attackers_take_over:
            levels[a_team] = advance(rs, levels[a_team], change.attacker_levels, as_dealer=False)
            next_dealer = (dealer + 1) % rs.players
        else:
            if levels[d_team] == last:
                winner = d_team
            levels[d_team] = advance(rs, levels[d_team], change.defender_levels)
            next_dealer = (dealer + 2) % rs.players if rs.dealer_rotation == "partner" else dealer
        if (
            rs.jack_kitty_reset
            and deal.level == _JACK
            and res.kitty_captured
            and any(c < 52 and c % 13 == _JACK for c in res.last_winning_cards)
        ):
            levels[d_team] = 0
        summary = DealSummary(deal.deal_no, dealer, deal.level, res, tuple(levels))
        history = (*self.history, summary)
        if winner is not None:
            return replace(
                self, deal=deal, team_levels=tuple(levels), history=history, winner=winner
            ), events
        nxt_no = deal.deal_no + 1
        level = rs.level_sequence[levels[team_of(next_dealer)]]
        nxt = DealState.new(rs, _deal_seed(self.seed, nxt_no), level, next_dealer, nxt_no)
        events = [*events, DealStarted(None, next_dealer, level, nxt_no)]
        return MatchState(rs, self.seed, tuple(levels), next_dealer, nxt, history), events


def _deal_seed(seed: int | str, deal_no: int) -> str:
    return f"{seed}/{deal_no}"
