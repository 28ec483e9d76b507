"""A vote to deal the current deal again (重新发牌), put by the room's owner.

The owner proposes (``reset_deal``); every seated human the table waits for must agree
(``vote`` with ``yes``); a seat played by a bot (a bot seat, or a human away past the grace
time) does not vote, and the owner's own seat agrees by proposing. The first "no" refuses
the proposal; when the last voter agrees it passes and the room applies ``Redeal``. A vote
belongs to one deal: once that deal is over (or the match), it is void.

A vote is a value: each answer makes a new one.

>>> v = DealVote.open(match_no=1, deal_no=0, by="ann", proposer=0, voters=(0, 2))
>>> v.status, v.answer(2, True).status
('open', 'passed')
>>> DealVote.open(1, 0, "ann", None, (1, 3)).answer(3, False).status
'refused'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

Status = Literal["open", "passed", "refused", "void"]
"""``void``: the deal the vote was about is over."""

WHAT = "reset_deal"
"""What a vote decides (the only kind so far)."""


@dataclass(frozen=True)
class DealVote:
    """One proposal to deal deal ``deal_no`` of match ``match_no`` again."""

    match_no: int
    deal_no: int
    by: str
    """The proposer's name (the room's owner)."""
    voters: tuple[int, ...]
    """The seats whose players must agree."""
    votes: tuple[tuple[int, bool], ...] = ()
    """The answers so far, ``(seat, yes)``."""
    status: Status = "open"

    @classmethod
    def open(
        cls, match_no: int, deal_no: int, by: str, proposer: int | None, voters: tuple[int, ...]
    ) -> DealVote:
        """A new vote; the proposer's own seat (if it votes) agrees. With nobody else to ask
        it passes at once."""
        vote = cls(match_no, deal_no, by, voters)
        return vote.answer(proposer, True) if proposer in voters else vote._settled()

    def answer(self, seat: int | None, yes: bool) -> DealVote:
        """The vote with ``seat``'s answer (a seat not asked, or a closed vote: the same)."""
        if self.status != "open" or seat is None or seat not in self.voters:
            return self
        votes = (*((s, v) for s, v in self.votes if s != seat), (seat, yes))
        return replace(self, votes=votes)._settled()

    def void(self) -> DealVote:
        """The deal is over: the proposal no longer applies."""
        return replace(self, status="void") if self.status == "open" else self

    def _settled(self) -> DealVote:
        said = dict(self.votes)
        if any(v is False for v in said.values()):
            return replace(self, status="refused")
        if all(said.get(s) for s in self.voters):
            return replace(self, status="passed")
        return self

    def wire(self) -> dict[str, Any]:
        """The ``vote`` message's fields: ``{"what", "match_no", "deal_no", "by", "voters",
        "votes", "status"}`` (``votes``: per voter seat, true, false or null)."""
        said = dict(self.votes)
        return {
            "what": WHAT,
            "match_no": self.match_no,
            "deal_no": self.deal_no,
            "by": self.by,
            "voters": list(self.voters),
            "votes": [said.get(s) for s in self.voters],
            "status": self.status,
        }
