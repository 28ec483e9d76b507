"""A match of many deals: a level per seat, dealer rotation, must-play ranks, the end.

Every seat has its own level (``MatchState.levels``, an index into the ruleset's level
sequence). Fixed partners (seat parity) always share theirs, so ``team_levels`` and
``level_rank(team)`` are derived views of it. After each deal the dealer side goes up by the
level table, or the attackers take over (上台) and the old dealer's next seat deals; a side
cannot skip a must-play rank (必打); the match ends when a side wins a deal as dealer side
while on its last level (A). Tournament: a dealer side on J whose kitty is captured with a J
drops back to 2.

>>> from shengji.core.ruleset import PRESETS
>>> m = MatchState.new(PRESETS["classic"], seed=7)
>>> m.levels, m.team_levels, m.deal.phase.value
((0, 0, 0, 0), (0, 0), 'dealing')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from shengji.core.actions import MatchAction, Redeal
from shengji.core.errors import IllegalAction, Reason
from shengji.core.events import DealReset, Event
from shengji.core.friend_levels import friend_outcome
from shengji.core.legal import LegalActions
from shengji.core.phases import PHASE_DONE, Phase
from shengji.core.ruleset import Ruleset
from shengji.core.scoring import advance
from shengji.core.state import DealResult, DealState

_JACK: Final = 9


@dataclass(frozen=True)
class DealSummary:
    """One finished deal of a match."""

    deal_no: int
    dealer: int
    level: int
    result: DealResult
    levels_before: tuple[int, ...]
    """Per seat: index into the level sequence before the deal was scored."""
    levels_after: tuple[int, ...]
    """Per seat: index into the level sequence after it."""
    team_levels_after: tuple[int, ...]
    """``MatchState.team_levels`` after the deal (per team; per seat unless fixed)."""
    deal: DealState = field(compare=False, repr=False)
    """The deal as it ended (its last trick and kitty in place): what the action that
    finished it left, so that nobody applies that action again to see it."""

    @property
    def steps(self) -> tuple[int, ...]:
        """Per seat: levels gained (+) or lost (−) in this deal, as applied."""
        return tuple(a - b for a, b in zip(self.levels_after, self.levels_before, strict=True))


def team_of(seat: int) -> int:
    """Fixed partners: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def team_levels_of(ruleset: Ruleset, levels: tuple[int, ...]) -> tuple[int, ...]:
    """Levels per team: fixed partners → one per team (seat parity); else one per seat.

    >>> from shengji.core.ruleset import PRESETS
    >>> team_levels_of(PRESETS["classic"], (3, 5, 3, 5))
    (3, 5)
    """
    if ruleset.partnership == "fixed":
        return levels[:2]
    return levels


@dataclass(frozen=True)
class MatchState:
    """A match: the current deal plus what carries over between deals."""

    ruleset: Ruleset
    seed: int | str
    levels: tuple[int, ...]
    """Per seat: index into ``ruleset.level_sequence`` (fixed partners hold equal values)."""
    dealer: int | None
    deal: DealState
    history: tuple[DealSummary, ...] = ()
    winners: tuple[int, ...] = ()
    """The seats that won the match, once it is over (fixed partners: both of a team)."""
    redeals: int = 0
    """How often the current deal was dealt again (``Redeal``); each gets a fresh shuffle."""

    def __init__(
        self,
        ruleset: Ruleset,
        seed: int | str,
        levels: tuple[int, ...],
        dealer: int | None,
        deal: DealState,
        history: tuple[DealSummary, ...] = (),
        winners: tuple[int, ...] = (),
        redeals: int = 0,
    ) -> None:
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "deal", deal)
        object.__setattr__(self, "history", history)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "redeals", redeals)

    @classmethod
    def new(cls, ruleset: Ruleset, seed: int | str, first_dealer: int | None = None) -> MatchState:
        """A match whose first deal decides the dealer by declaration (or ``first_dealer``)."""
        deal = DealState.new(
            ruleset, _deal_seed(seed, 0), ruleset.level_sequence[0], first_dealer,
            levels=(ruleset.level_sequence[0],) * ruleset.players,
        )
        return cls(ruleset, seed, (0,) * ruleset.players, first_dealer, deal)

    @property
    def team_levels(self) -> tuple[int, ...]:
        """Per team (fixed partners: team = seat parity; otherwise each seat is a team)."""
        return team_levels_of(self.ruleset, self.levels)

    @property
    def winner(self) -> int | None:
        """The winning team once the match is over (a seat unless partners are fixed)."""
        if not self.winners:
            return None
        w = self.winners[0]
        return team_of(w) if self.ruleset.partnership == "fixed" else w

    @property
    def is_over(self) -> bool:
        """Whether the match has been won."""
        return bool(self.winners)

    @property
    def to_act(self) -> int | None:
        """Who moves in the current deal (None once the match is over)."""
        return None if self.is_over else self.deal.to_act

    def legal_actions(self, seat: int) -> LegalActions:
        """Legal actions of ``seat`` in the current deal."""
        return self.deal.legal_actions(seat)

    def level_rank(self, team: int) -> int:
        """The rank a team is on (2 = 0 .. A = 12); a team is a seat unless partners are fixed."""
        return self.ruleset.level_sequence[self.team_levels[team]]

    def seat_rank(self, seat: int) -> int:
        """The rank a seat is on (2 = 0 .. A = 12)."""
        return self.ruleset.level_sequence[self.levels[seat]]

    def apply(self, action: MatchAction) -> tuple[MatchState, list[Event]]:
        """Apply to the current deal; a finished deal is scored and the next one starts.
        ``Redeal`` deals the current deal again. The deal an action finished comes back
        with its result as ``history[-1]`` (``.deal`` as it ended, ``.result``).

        >>> from shengji.core.ruleset import PRESETS
        >>> m = MatchState.new(PRESETS["classic"], seed=3, first_dealer=0)
        >>> while not m.history:
        ...     m, _ = m.apply(next(iter(m.legal_actions(m.to_act))))
        >>> done = m.history[-1]
        >>> done.deal.phase.value, len(done.deal.tricks), done.result is done.deal.result
        ('done', 25, True)
        """
        if self.is_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is over")
        if isinstance(action, Redeal):
            return self.redeal()
        deal, events = self.deal.apply(action)
        if deal.phase is not Phase.DONE:
            return (
                MatchState(
                    self.ruleset, self.seed, self.levels, self.dealer, deal, self.history,
                    (), self.redeals,
                ),
                events,
            )
        return self._score(deal, events)

    def redeal(self) -> tuple[MatchState, list[Event]]:
        """The current deal again from a fresh shuffle: the same deal number, dealer (none
        yet on a first deal), level and seat levels; what was played of it is gone.

        >>> from shengji.core.actions import Deal
        >>> from shengji.core.ruleset import PRESETS
        >>> m, _ = MatchState.new(PRESETS["classic"], seed=7).apply(Deal())
        >>> again, events = m.apply(Redeal())
        >>> again.deal.n_dealt, again.redeals, [type(e).__name__ for e in events]
        (0, 1, ['DealReset', 'DealStarted'])
        """
        if self.is_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is over")
        rs = self.ruleset
        n = self.redeals + 1
        no = self.deal.deal_no
        first = self.dealer if self.dealer is not None else 0  # a first deal: all equal
        deal = DealState.new(
            rs, _deal_seed(self.seed, no, n), rs.level_sequence[self.levels[first]], self.dealer,
            no, levels=tuple(rs.level_sequence[i] for i in self.levels), rights=self.deal.rights,
        )
        again = replace(self, deal=deal, redeals=n)
        return again, [DealReset(None, no, n), deal.started_event()]

    def apply_in_place(self, action: MatchAction) -> tuple[MatchState, list[Event]]:
        """Like ``apply`` but the current deal changes in place (``DealState.apply_in_place``):
        for simulations that hold the only reference. Returns this match until a deal ends."""
        if self.is_over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is over")
        if isinstance(action, Redeal):
            return self.redeal()
        events = self.deal.apply_in_place(action)
        if self.deal.phase is not PHASE_DONE:
            return self, events
        return self._score(self.deal, events)

    def _score(self, deal: DealState, events: list[Event]) -> tuple[MatchState, list[Event]]:
        rs = self.ruleset
        res = deal.result
        assert res is not None and deal.dealer is not None
        rule = OUTCOME_RULES.get(rs.partnership, _fixed_outcome)
        levels, next_dealer, winners = rule(rs, self.levels, deal, res)
        summary = DealSummary(
            deal.deal_no, deal.dealer, deal.level, res, self.levels, levels,
            team_levels_of(rs, levels), deal,
        )
        history = (*self.history, summary)
        if winners:
            return replace(self, deal=deal, levels=levels, history=history, winners=winners), events
        nxt_no = deal.deal_no + 1
        level = rs.level_sequence[levels[next_dealer]]
        rights = takeover_rights(rs, res, next_dealer)
        nxt = DealState.new(
            rs, _deal_seed(self.seed, nxt_no), level, next_dealer, nxt_no,
            levels=tuple(rs.level_sequence[i] for i in levels), rights=rights,
        )
        events = [*events, nxt.started_event()]
        dealer = None if rights else next_dealer
        return MatchState(rs, self.seed, levels, dealer, nxt, history), events


Outcome = tuple[tuple[int, ...], int, tuple[int, ...]]
"""What scoring a deal decides: new levels per seat, the next dealer, the match's winners
(empty while it goes on)."""

OutcomeRule = Callable[[Ruleset, tuple[int, ...], DealState, DealResult], Outcome]
"""Scores a finished deal for one kind of partnership: ``(ruleset, levels before, deal,
result) -> Outcome``. Registered in ``OUTCOME_RULES`` by ``Ruleset.partnership``."""


def takeover_rights(rs: Ruleset, res: DealResult, first: int) -> tuple[int, ...]:
    """亮牌权 (seed 002 five players: "抓分方捉满120分即可上台,即每个成员获得下一局的亮牌权"):
    after a takeover under ``takeover_dealer="attackers-declare"``, the attackers, in play
    order from ``first`` (who deals if none declares); otherwise nobody (``()``): the
    next deal's dealer is known before it is dealt."""
    if rs.takeover_dealer != "attackers-declare" or not res.change.attackers_take_over:
        return ()
    n = rs.players
    return tuple(s for s in ((first + i) % n for i in range(n)) if s not in res.defenders)


def _fixed_outcome(
    rs: Ruleset, before: tuple[int, ...], deal: DealState, res: DealResult
) -> Outcome:
    """Fixed partners: the table moves a whole side; the dealer's partner (or the dealer)
    keeps the deal, the old dealer's next seat takes it over."""
    assert deal.dealer is not None
    dealer = deal.dealer
    d_team = team_of(dealer)
    a_team = 1 - d_team
    levels = [before[d_team], before[a_team]]  # [dealer side, attackers]
    change = res.change
    last = len(rs.level_sequence) - 1
    won = False
    if change.attackers_take_over:
        levels[1] = advance(rs, levels[1], change.attacker_levels, as_dealer=False)
        next_dealer = (dealer + 1) % rs.players
    else:
        won = levels[0] == last
        levels[0] = advance(rs, levels[0], change.defender_levels)
        next_dealer = (dealer + 2) % rs.players if rs.dealer_rotation == "partner" else dealer
    if (
        rs.jack_kitty_reset
        and deal.level == _JACK
        and res.kitty_captured
        and any(c < 52 and c % 13 == _JACK for c in res.last_winning_cards)
    ):
        levels[0] = 0
    per_seat = tuple(levels[0] if team_of(s) == d_team else levels[1] for s in range(rs.players))
    winners = tuple(s for s in range(rs.players) if team_of(s) == d_team) if won else ()
    return per_seat, next_dealer, winners


def _bidding_outcome(
    rs: Ruleset, before: tuple[int, ...], deal: DealState, res: DealResult
) -> Outcome:
    """竞标: the dealer, or each attacker, goes up by the target's table (each seat its own
    level, must-play ranks stop a climb); a seat on the last rank that goes up wins the
    match. The next deal's auction opens one seat on (its dealer is bid for)."""
    last = len(rs.level_sequence) - 1
    change = res.change
    levels = list(before)
    winners: list[int] = []
    for seat in range(rs.players):
        steps = change.defender_levels if seat == deal.dealer else change.attacker_levels
        if steps > 0:
            if before[seat] == last:
                winners.append(seat)
            levels[seat] = advance(rs, before[seat], steps)
    return tuple(levels), (deal.start + 1) % rs.players, tuple(winners)


OUTCOME_RULES: Final[dict[str, OutcomeRule]] = {
    "fixed": _fixed_outcome,
    "bidding": _bidding_outcome,
    "find-friend": friend_outcome,
}
"""How each partnership (``Ruleset.partnership``) turns a deal into levels and a dealer."""


def _deal_seed(seed: int | str, deal_no: int, redeals: int = 0) -> str:
    """A deal's shuffle seed; a deal dealt again (``Redeal``) gets its own."""
    return f"{seed}/{deal_no}" if not redeals else f"{seed}/{deal_no}/redeal{redeals}"
