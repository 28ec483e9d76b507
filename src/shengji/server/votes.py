"""A vote to deal the current deal again (重新发牌), put by the room's owner.

The owner proposes (``reset_deal``); every seated human the table waits for must agree
(``vote`` with ``yes``); a seat played by a bot (a bot seat, or a human away past the grace
time) does not vote, and the owner's own seat agrees by proposing. The first "no" refuses
the proposal; when the last voter agrees it passes and the room applies ``Redeal``. A vote
belongs to one deal: once that deal is over (or the match), it is void.

>>> v = DealVote.open(match_no=1, deal_no=0, by="ann", proposer=0, voters=(0, 2))
>>> v.status, v.answer(2, True), v.status
('open', 'passed', 'passed')
>>> DealVote.open(1, 0, "ann", None, (1, 3)).answer(3, False)
'refused'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["open", "passed", "refused", "void"]
"""``void``: the deal the vote was about is over."""

WHAT = "reset_deal"
"""What a vote decides (the only kind so far)."""


@dataclass
class DealVote:
    """One proposal to deal deal ``deal_no`` of match ``match_no`` again."""

    match_no: int
    deal_no: int
    by: str
    """The proposer's name (the room's owner)."""
    voters: tuple[int, ...]
    """The seats whose players must agree."""
    votes: dict[int, bool] = field(default_factory=dict)
    status: Status = "open"

    @classmethod
    def open(
        cls, match_no: int, deal_no: int, by: str, proposer: int | None, voters: tuple[int, ...]
    ) -> DealVote:
        """A new vote; the proposer's own seat (if it votes) agrees. With nobody else to ask
        it passes at once."""
        vote = cls(match_no, deal_no, by, voters)
        if proposer in voters:
            vote.votes[proposer] = True
        vote._settle()
        return vote

    def answer(self, seat: int, yes: bool) -> Status:
        """Record ``seat``'s answer (a seat that is not asked, or a closed vote: unchanged)."""
        if self.status == "open" and seat in self.voters:
            self.votes[seat] = yes
            self._settle()
        return self.status

    def void(self) -> None:
        """The deal is over: the proposal no longer applies."""
        if self.status == "open":
            self.status = "void"

    def _settle(self) -> None:
        if any(v is False for v in self.votes.values()):
            self.status = "refused"
        elif all(self.votes.get(s) for s in self.voters):
            self.status = "passed"

    def wire(self) -> dict[str, Any]:
        """The ``vote`` message's fields: ``{"what", "match_no", "deal_no", "by", "voters",
        "votes", "status"}`` (``votes``: per voter seat, true, false or null)."""
        return {
            "what": WHAT,
            "match_no": self.match_no,
            "deal_no": self.deal_no,
            "by": self.by,
            "voters": list(self.voters),
            "votes": [self.votes.get(s) for s in self.voters],
            "status": self.status,
        }
