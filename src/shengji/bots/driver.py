"""Drive a match with one bot per seat, recording every action.

While cards are dealt, a seat that has just received a level card or a joker is asked
whether it declares; after the last card the declaration window asks each seat in turn.

>>> from shengji.core.ruleset import PRESETS
>>> from shengji.bots.random_bot import RandomBot
>>> bots = [RandomBot(i) for i in range(4)]
>>> state, record = play_match(PRESETS["classic"], bots, seed=1, deals=1)
>>> len(state.history), len(record.actions) > 100
(1, True)
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from typing import Final

from shengji.bots.base import Bot
from shengji.bots.fault import BotFault as BotFault  # re-exported: the driver raises it
from shengji.core.actions import (
    ACTION_CLASSES,
    SYSTEM,
    Action,
    Deal,
    Declare,
)
from shengji.core.errors import IllegalAction
from shengji.core.events import CardDealt, Event
from shengji.core.legal import LegalActions
from shengji.core.match import MatchState
from shengji.core.phases import PHASE_DEALING
from shengji.core.record import GameRecord, record_result
from shengji.core.ruleset import Ruleset
from shengji.core.views import view_for

_DEAL: Final = Deal()
Listener = Callable[[Action, MatchState, list[Event]], None]


def ask(
    bot: Bot, seat: int, state: MatchState, legal: LegalActions, may_decline: bool,
    wrap_errors: bool = True,
) -> Action | None:
    """``bot``'s choice for ``seat``, checked against ``legal``; ``BotFault`` if it is not one
    (``may_decline``: None is allowed, a declaration offered while dealing). An exception
    from the bot becomes a ``BotFault`` too, unless not ``wrap_errors``."""
    deal_no = state.deal.deal_no
    try:
        choice = bot.choose(view_for(state.deal, seat), legal)
    except Exception as e:
        if not wrap_errors:
            raise
        raise BotFault(
            bot.name, seat, f"raised {type(e).__name__}: {e}", state, deal_no,
            "".join(traceback.format_exception(e)),
        ) from e
    if choice is None:
        if may_decline:
            return None
        raise BotFault(bot.name, seat, "returned no action", state, deal_no)
    if not isinstance(choice, ACTION_CLASSES):
        raise BotFault(
            bot.name, seat, f"returned {choice!r}, which is not an action", state, deal_no
        )
    if may_decline and not isinstance(choice, Declare):
        raise BotFault(
            bot.name, seat, f"returned {choice}, but may only declare or decline now", state,
            deal_no,
        )
    return choice


def play_match(
    ruleset: Ruleset,
    bots: Sequence[Bot],
    seed: int | str,
    deals: int | None = None,
    first_dealer: int | None = None,
    on_action: Listener | None = None,
    wrap_errors: bool = True,
) -> tuple[MatchState, GameRecord]:
    """Play until the match ends or ``deals`` deals are done; returns the state and record.

    A bot that returns an illegal action, no action or something else, or raises, stops the
    match with a ``BotFault`` naming it (``wrap_errors=False``: its exceptions pass as they
    are, e.g. a terminal player quitting).
    """
    if len(bots) != ruleset.players:
        raise ValueError(f"{ruleset.players} bots needed, got {len(bots)}")
    state = MatchState.new(ruleset, seed, first_dealer)
    record = GameRecord(ruleset.to_dict(), seed, first_dealer, players=[b.name for b in bots])
    actions = record.actions
    peeks = [getattr(b, "peek", None) for b in bots]  # looked up once, not per decision

    def step(action: Action, bot: Bot | None = None) -> list[Event]:
        nonlocal state
        try:
            if on_action is None:  # nobody keeps old states: change the deal in place
                state, events = state.apply_in_place(action)
            else:
                state, events = state.apply(action)
        except IllegalAction as e:
            if bot is None:
                raise
            raise BotFault(
                bot.name, action.seat, f"played an illegal action '{action}': {e.message}",
                state, state.deal.deal_no,
            ) from e
        actions.append(str(action))
        if on_action is not None:
            on_action(action, state, events)
        return events

    def offer(seat: int) -> None:
        """Ask ``seat``, who has just been dealt a card, whether it declares."""
        legal = state.legal_actions(seat)
        if legal:
            choice = ask(bots[seat], seat, state, legal, True, wrap_errors)
            if choice is not None:
                step(choice, bots[seat])

    while not state.is_over and (deals is None or len(state.history) < deals):
        deal = state.deal
        actor = deal.to_act
        if actor == SYSTEM:
            if on_action is None:  # nobody listens: deal the whole hand without events
                while deal.phase is PHASE_DEALING:
                    seat, card = deal.deal_in_place()
                    actions.append("deal")
                    if card >= 52 or card % 13 == deal.level:
                        offer(seat)  # a level card or a joker opens a new declaration
                        deal = state.deal
                continue
            dealt = step(_DEAL)[0]
            assert isinstance(dealt, CardDealt)
            if dealt.card >= 52 or dealt.card % 13 == state.deal.level:
                offer(dealt.seat)
            continue
        assert actor is not None
        legal = deal.legal_actions(actor)
        bot = bots[actor]
        peek = peeks[actor]
        if peek is not None:  # an omniscient reference bot (arena only) sees the whole deal
            peek(deal)
        choice = ask(bot, actor, state, legal, False, wrap_errors)
        assert choice is not None
        step(choice, bot)
    record.result = record_result(state)
    return state, record
