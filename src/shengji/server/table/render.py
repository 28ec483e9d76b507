"""Messages rendered once per audience: each client of an update gets the events it may see
(``visible``) and its whole view of the match after them (``wire/seat_view.game_views``); every
other message is the same for everyone and is encoded once.

An ``UpdateEntry`` is one accepted game action as the room logged it: the update without
events, every event with its audience (None: everyone) and the match after it.
``message_for(seat)`` is what that seat (None: a spectator) receives. ``encode_for(seats)``
renders the seats asked for together (the part every seat sees alike once) and encodes one
message per seat: connections of one seat, and all spectators, share the same bytes.
``replay_forms()`` is what a resuming client is resent: the update without ``game`` (then
the client asks for a snapshot), one encoding for everyone and one more only for a seat
whose events differ (a card dealt to it).

>>> frames = encoded_for(wire.Pong(seq=3), [0, 1, None])
>>> frames[0] is frames[1] is frames[None]  # one encoding for every audience
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import msgspec

from shengji.core.match import MatchState
from shengji.server.wire import messages as wire
from shengji.server.wire.projection import RenderedEvent
from shengji.server.wire.seat_view import game_view, game_views


@dataclass(slots=True)
class UpdateEntry:
    """One ``update``: rendered for each seat from its events and the match after them."""

    base: wire.Update
    events: tuple[RenderedEvent, ...]
    match: MatchState | None = field(default=None, compare=False)
    made_at: float | None = field(default=None, compare=False)
    """For a game action's update: the loop time it was applied (the shell measures how long
    it took to reach the players, its log write included: ``/metrics``)."""
    actions: int = field(default=1, compare=False)
    """The game actions it announces (a round of dealt cards: one per card)."""

    @property
    def seq(self) -> int:
        """The update's sequence number."""
        return self.base.seq

    def _events_for(self, seat: int | None) -> list[wire.WireEvent]:
        return [e for aud, e in self.events if aud is None or aud == seat]

    def message_for(self, seat: int | None) -> wire.Update:
        """The update as ``seat`` (None: a spectator) may see it."""
        game = None if self.match is None else game_view(self.match, seat)
        return msgspec.structs.replace(self.base, events=self._events_for(seat), game=game)

    def encode_for(self, seats: Iterable[int | None]) -> dict[int | None, bytes]:
        """The update encoded once for each distinct seat of ``seats``."""
        wanted = list(dict.fromkeys(seats))
        games = {} if self.match is None else game_views(self.match, wanted)
        return {
            seat: wire.encode(
                msgspec.structs.replace(
                    self.base, events=self._events_for(seat), game=games.get(seat)
                )
            )
            for seat in wanted
        }

    def replay_forms(self) -> tuple[bytes, dict[int, bytes]]:
        """What a resuming client is resent, without ``game``: the form for everyone, and
        the form of each seat that was shown more (an event only it could see)."""
        public = wire.encode(
            msgspec.structs.replace(self.base, events=self._events_for(None), game=None)
        )
        private = {aud for aud, _ in self.events if aud is not None}
        return public, {
            seat: wire.encode(
                msgspec.structs.replace(self.base, events=self._events_for(seat), game=None)
            )
            for seat in sorted(private)
        }


class _Same(dict[int | None, bytes]):
    """One encoding for every audience."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data

    def __missing__(self, seat: int | None) -> bytes:
        return self.data


def encoded_for(
    msg: wire.ServerMsg | UpdateEntry, seats: Iterable[int | None]
) -> Mapping[int | None, bytes]:
    """A message's bytes for each audience (``seat``; None: spectators): an update per seat,
    any other message encoded once and shared."""
    if isinstance(msg, UpdateEntry):
        return msg.encode_for(seats)
    return _Same(wire.encode(msg))
