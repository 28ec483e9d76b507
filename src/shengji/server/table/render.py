"""Updates rendered per seat: each client gets the events it may see (``visible``) and
its whole view of the match after them (``table_view.game_view``: display facts in).

An ``UpdateEntry`` is one accepted game action as the room logged it: the update without
events, every event with its audience (None: everyone) and the match after it.
``message_for(seat)`` is what that seat (None: a spectator) receives; ``data_for`` its
encoded bytes, cached per seat. The shell drops ``match`` from old entries it keeps for
resuming clients (``forget_match``): those are resent without ``game``, and the client asks
for a snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from shengji.core.events import Event
from shengji.core.match import MatchState
from shengji.server import wire
from shengji.server.table_view import game_view

RenderedEvent = tuple[int | None, wire.WireEvent]
"""An event's audience (None: everyone) and its wire form."""


def render_events(events: list[Event]) -> tuple[RenderedEvent, ...]:
    """Core events in wire form, each with its audience."""
    return tuple((e.audience, wire.render_event(e)) for e in events)


@dataclass(slots=True)
class UpdateEntry:
    """One ``update``: rendered for each seat from its events and the match after them."""

    base: wire.Update
    events: tuple[RenderedEvent, ...]
    match: MatchState | None = field(default=None, compare=False)
    made_at: float | None = field(default=None, compare=False)
    """For a game action's update: the loop time it was applied (the shell measures how long
    it took to reach the players, its log write included: ``/metrics``)."""
    cache: dict[int | None, bytes] = field(default_factory=dict, compare=False, repr=False)

    @property
    def seq(self) -> int:
        """The update's sequence number."""
        return self.base.seq

    def message_for(self, seat: int | None) -> wire.Update:
        """The update as ``seat`` (None: a spectator) may see it."""
        evs = [e for aud, e in self.events if aud is None or aud == seat]
        game = None if self.match is None else game_view(self.match, seat)
        return msgspec.structs.replace(self.base, events=evs, game=game)

    def forget_match(self) -> None:
        """Drop the match (and the rendered bytes): resent later without ``game``."""
        self.match = None
        self.cache.clear()

    def data_for(self, seat: int | None) -> bytes:
        """``message_for(seat)`` encoded (once per seat)."""
        data = self.cache.get(seat)
        if data is None:
            data = self.cache[seat] = wire.encode(self.message_for(seat))
        return data


def encoded(msg: wire.ServerMsg | UpdateEntry, seat: int | None) -> bytes:
    """A message as bytes for a client seeing from ``seat``."""
    if isinstance(msg, UpdateEntry):
        return msg.data_for(seat)
    return wire.encode(msg)
