"""One road from event to screen: what an accepted game action shows each audience.

A ``Projected`` is one ``update`` as the table announces it: the core events in wire form,
each with its audience (None: everyone), and the match after them. ``update_for(seat)`` is
the message a seat (None: a spectator) receives: the events it may see and its whole
``GameView``. The live table sends these (``table/render.py``); a replay is the same
updates again, in the same order and grouping (``replay_updates``), so the replay viewer,
the history and ``shengji replay`` show exactly what the table showed.

>>> from shengji.core.record import GameRecord
>>> from shengji.core.ruleset import PRESETS
>>> rec = GameRecord(PRESETS["classic"].to_dict(), 5, 0, ["deal"] * 6)
>>> ups = list(replay_updates(rec))
>>> [len(u.events) for u in ups]  # the deal starting, a round of four cards, two more
[1, 8, 4]
>>> len(ups[1].update_for(2).events), len(ups[1].update_for(None).events)  # its own card
(5, 4)
>>> ups[1].update_for(2).game.hand, ups[1].update_for(None).game.hand
('D9', '')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import msgspec

from shengji.core.actions import SYSTEM, Deal, MatchAction
from shengji.core.errors import ShengjiError
from shengji.core.events import CardCountDealt, CardDealt, Event
from shengji.core.match import MatchState
from shengji.core.phases import Phase
from shengji.core.record import GameRecord, replay_steps
from shengji.server.wire import messages as wire
from shengji.server.wire.seat_view import deal_summary, game_view, level_names

RenderedEvent = tuple[int | None, wire.WireEvent]
"""An event's audience (None: everyone) and its wire form."""

_DEALT = (CardDealt, CardCountDealt)


def render_events(events: Sequence[Event], after: MatchState) -> tuple[RenderedEvent, ...]:
    """Core events in wire form, each with its audience; a ``deal_ended`` carries the
    summary of the deal it ended (``after.history[-1]``, the deal as the action left it)."""
    out: list[RenderedEvent] = []
    for e in events:
        w = wire.render_event(e)
        if isinstance(w, wire.DealEndedEvent):
            w.summary = deal_summary(after)
        out.append((e.audience, w))
    return tuple(out)


def update_of(m: MatchState, seq: int, match_no: int) -> wire.Update:
    """An ``update`` for the match ``m``, without events or view (added per audience)."""
    return wire.Update(
        seq=seq,
        events=[],
        phase=m.deal.phase.value,
        to_act=m.to_act,
        deal_no=m.deal.deal_no,
        match_no=match_no,
        team_levels=level_names(m, m.team_levels),
        seat_levels=level_names(m, m.levels),
    )


@dataclass(frozen=True, slots=True)
class Projected:
    """One update for every audience: its events (with audiences) and the match after."""

    events: tuple[RenderedEvent, ...]
    match: MatchState
    actions: int = 1
    """The game actions it announces (a round of dealt cards: one per card; a match
    starting: none)."""

    @property
    def audience(self) -> int | None:
        """Who is sent it: None (everyone) unless every event is one seat's alone (a card
        dealt to it, the kitty it takes)."""
        if not self.events or any(aud is None for aud, _ in self.events):
            return None
        return self.events[0][0]

    def sent_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) is sent this update."""
        aud = self.audience
        return aud is None or aud == seat

    def events_for(self, seat: int | None) -> list[wire.WireEvent]:
        """The events ``seat`` may see."""
        return [e for aud, e in self.events if aud is None or aud == seat]

    def update_for(self, seat: int | None, seq: int = 0, match_no: int = 0) -> wire.Update:
        """The ``update`` ``seat`` (None: a spectator) receives: its events and its view."""
        return msgspec.structs.replace(
            update_of(self.match, seq, match_no),
            events=self.events_for(seat),
            game=game_view(self.match, seat),
        )


def project(events: Sequence[Event], after: MatchState, actions: int = 1) -> Projected:
    """The update announcing ``events`` of ``actions`` actions, which took the match to
    ``after``."""
    return Projected(render_events(events, after), after, actions)


def started(m: MatchState) -> Projected:
    """The update that opens a match: its first deal starting."""
    return project([m.deal.started_event()], m, 0)


class RecordError(Exception):
    """An action of a record the engine refuses: ``index`` (0-based) and the reason."""

    def __init__(self, index: int, error: ShengjiError) -> None:
        super().__init__(f"action {index + 1}: {error.message}")
        self.index = index
        self.error = error


def _steps(record: GameRecord) -> Iterator[tuple[MatchAction, MatchState, list[Event]]]:
    """``replay_steps``, a refused action raised as a ``RecordError`` with its place."""
    steps = replay_steps(record)
    for index in itertools.count():
        try:
            step = next(steps)
        except StopIteration:
            return
        except ShengjiError as e:
            raise RecordError(index, e) from e
        yield step


def _round_ends(after: MatchState, events: list[Event], dealt: int, size: int) -> bool:
    """Whether a round of dealt cards is complete (the table's ``deal_cards`` rule)."""
    return (
        dealt >= max(1, size)
        or after.to_act != SYSTEM
        or after.deal.phase is not Phase.DEALING
        or not all(isinstance(e, _DEALT) for e in events)
    )


def replay_updates(record: GameRecord, round_size: int | None = None) -> Iterator[Projected]:
    """The record's match as the table announced it: the match starting, then one update
    per action, except that cards are dealt a round to an update (``round_size`` cards,
    one to each seat by default), as the table deals them. A refused action raises
    ``RecordError``."""
    size = round_size or int(record.ruleset["players"])
    m = record.start()
    yield started(m)
    pending: list[Event] = []
    dealt = 0
    for action, after, events in _steps(record):
        if pending and not isinstance(action, Deal):  # a round cut short: announce it
            yield project(pending, m, dealt)
            pending, dealt = [], 0
        m = after
        if not isinstance(action, Deal):
            yield project(events, after)
            continue
        pending += events
        dealt += 1
        if _round_ends(after, events, dealt, size):
            yield project(pending, after, dealt)
            pending, dealt = [], 0
    if pending:
        yield project(pending, m, dealt)
