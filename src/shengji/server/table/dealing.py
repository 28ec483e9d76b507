"""Dealing at the table: a round of cards (one to each seat) dealt as one update, at the
server's pace a card, and each bot-moved seat that could declare with a card it got asked.

Every card is its own logged action (``deal``), so the log replays card by card; only the
message is shared. With ``deal_batch`` 1 the table deals one card per update as before.

>>> from shengji.server.table.model import Table, TableConfig
>>> t = Table.empty(TableConfig.for_tests())
>>> round_size(t)  # classic: four seats, a card each
4
"""

from __future__ import annotations

from shengji.core.actions import SYSTEM, Deal, MatchAction
from shengji.core.events import CardCountDealt, CardDealt, Event
from shengji.core.phases import Phase
from shengji.server.table.effects import AskBot
from shengji.server.table.model import Table, evolve
from shengji.server.table.play import announce
from shengji.server.table.step import Step


def round_size(t: Table) -> int:
    """Cards dealt in one update: ``deal_batch``, or one for each seat when it is 0."""
    return t.config.limits.deal_batch or t.config.ruleset.players


_DEAL = Deal()
_DEALT = (CardDealt, CardCountDealt)


def deal_cards(s: Step, most: int) -> list[Event]:
    """Deal up to ``most`` cards as one ``update`` (a round: one card to each seat), each
    card logged as its own action; it stops early when dealing ends (the last card's
    other events ride along). Events of every card dealt, in order.

    A round in one message is what players see anyway (each seat gets one card per round,
    at the same pace); it costs the room one rendering and one send per client instead
    of one per card."""
    t = s.t
    m = t.match
    assert m is not None
    cur = m
    done: list[tuple[MatchAction, list[Event]]] = []
    while len(done) < max(1, most) and cur.to_act == SYSTEM:
        cur, events = cur.apply(_DEAL)
        done.append((_DEAL, events))
        if cur.deal.phase is not Phase.DEALING or not all(
            isinstance(e, _DEALT) for e in events
        ):
            break
    if done:
        announce(s, m, cur, done)
    return [e for _, events in done for e in events]


def deal_round(s: Step) -> None:
    """Deal the next round of cards (``deal_batch``: one to each seat by default) in one
    update, at ``deal_pacing_s`` a card; a bot-moved seat that could declare with a card it
    got is asked."""
    lim = s.t.config.limits
    events = deal_cards(s, round_size(s.t))
    dealt = [e for e in events if isinstance(e, CardDealt)]
    s.t = evolve(s.t, next_card_at=s.now + lim.deal_pacing_s * max(1, len(dealt)))
    for card in dealt:
        offer_declaration(s, card)


def offer_declaration(s: Step, dealt: CardDealt) -> None:
    """Ask the bot moving ``dealt.seat`` whether it declares, if the card it just got (a
    level card or a joker) lets it and it was not asked already."""
    t = s.t
    m = t.match
    if m is None or m.deal.phase is not Phase.DEALING or dealt.seat in t.declare_asks:
        return
    if dealt.card < 52 and dealt.card % 13 != m.deal.level:
        return
    if t.bot_controls(dealt.seat, s.now) and m.deal.declarations_for(dealt.seat):
        s.t = evolve(t, declare_asks=t.declare_asks | {dealt.seat})
        s.emit(
            AskBot(
                dealt.seat,
                t.version,
                t.match_no,
                t.bot_name(dealt.seat),
                f"{t.match_seed()}/{dealt.seat}",
                m,
                purpose="declare",
            )
        )
