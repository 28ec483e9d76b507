"""The owner's table controls: deal the current deal again when every seated
player agrees (``reset_deal``, ``vote``; server/table/votes.py), and end the match early
(``end_match``: its record is kept as it stands).

A passed vote applies ``Redeal``, logged like any action, so a restart and the record replay
it (rules.md Decision 136). The vote itself is not logged: a ``vote`` message goes to every
connection when it opens, at each answer and when it closes, and to one that joins meanwhile.

>>> from shengji.server.table.commands import ClientSaid, Opened
>>> from shengji.server.table.handle import handle
>>> from shengji.server.table.model import Table, TableConfig
>>> t = Table.empty(TableConfig.for_tests(owner="ann"), spare_seed="x")
>>> t, _ = handle(t, Opened(1, "bob", "bob"), now=0.0)
>>> t, fx = handle(t, ClientSaid(1, wire.ResetDeal()), now=1.0)
>>> [e.msg.code for e in fx if hasattr(e, "msg") and hasattr(e.msg, "code")]
['not-owner']
"""

from __future__ import annotations

from shengji.core.actions import Redeal
from shengji.server.table.model import evolve
from shengji.server.table.play import apply, finish
from shengji.server.table.seating import owner_only
from shengji.server.table.step import Step
from shengji.server.table.votes import DealVote
from shengji.server.wire import messages as wire


def vote_msg(s: Step, vote: DealVote) -> wire.VoteMsg:
    """The ``vote`` message of ``vote`` (the current sequence number: it is not logged)."""
    return wire.VoteMsg(seq=s.t.seq, **vote.wire())


def open_vote(s: Step) -> DealVote | None:
    """The open vote, made void (and the room told) if its deal or match is over."""
    t = s.t
    vote, m = t.vote, t.match
    if vote is None or vote.status != "open":
        return None
    if m is None or vote.match_no != t.match_no or vote.deal_no != m.deal.deal_no:
        s.tell_all(vote_msg(s, vote.void()))
        s.t = evolve(s.t, vote=None)
        return None
    return vote


def tell_open_vote(s: Step, conn: int) -> None:
    """A connection that joins while a vote is open hears of it."""
    vote = s.t.vote
    if vote is not None and vote.status == "open":
        s.tell(conn, vote_msg(s, vote))


def on_reset_deal(s: Step, conn: int) -> None:
    """The owner proposes to deal the current deal again; the seated players vote (a seat a
    bot plays for, 托管 or away, does not; the owner's own seat agrees)."""
    if not owner_only(s, conn, "reset a deal"):
        return
    t = s.t
    m = t.match
    if m is None or not t.playing or t.finishing:
        s.error(conn, "wrong-phase", "no deal is being played")
        return
    if open_vote(s) is not None:
        s.error(conn, "wrong-phase", "a vote on resetting this deal is already open")
        return
    t = s.t
    voters = tuple(i for i in t.humans() if t.connected(i) and i not in t.auto)
    viewer = t.conns[conn]
    vote = DealVote.open(t.match_no, m.deal.deal_no, viewer.name, viewer.seat, voters)
    s.t = evolve(t, vote=vote)
    s.tell_all(vote_msg(s, vote))
    if vote.status == "passed":
        redeal(s)


def on_vote(s: Step, conn: int, yes: bool) -> None:
    """A seated player's answer to the open proposal."""
    vote = open_vote(s)
    if vote is None:
        s.error(conn, "wrong-phase", "there is no open vote")
        return
    seat = s.t.conns[conn].seat
    if seat is None or seat not in vote.voters:
        s.error(conn, "not-seated", "only the seated players vote")
        return
    vote = vote.answer(seat, yes)
    s.t = evolve(s.t, vote=vote if vote.status == "open" else None)
    s.tell_all(vote_msg(s, vote))
    if vote.status == "passed":
        redeal(s)


def redeal(s: Step) -> None:
    """The vote passed: the deal is dealt again (a logged ``redeal``); bots start afresh."""
    s.t = evolve(s.t, vote=None)
    if apply(s, Redeal(), None) is not None:
        s.t = evolve(
            s.t, bot_ask=None, declare_asks=frozenset(), hold=None, clock=None, next_card_at=s.now
        )


def on_end_match(s: Step, conn: int) -> None:
    """The owner ends the match now; the record keeps what was played (no winner)."""
    if not owner_only(s, conn, "end the match"):
        return
    t = s.t
    if t.match is None or not t.playing or t.finishing:
        s.error(conn, "wrong-phase", "no match is being played")
        return
    vote = open_vote(s)
    if vote is not None:
        s.tell_all(vote_msg(s, vote.void()))
    s.t = evolve(s.t, vote=None, ended_early=True)
    finish(s)
