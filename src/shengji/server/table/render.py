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

A connection that said ``hello`` with protocol version 3 is the audience ``Deltas(seat)``:
it is sent a ``delta`` instead, the events and only the view fields the update changed
since the view it holds (``wire.changes.Changes``, from the engine fields that changed).
Only those fields are rendered (``wire.seat_view.FieldViews``: a field every audience sees
alike once for all of them, a seat's own fields for that seat); whole views are rendered
only for version-2 audiences and for a delta that starts a deal or a match.

>>> frames = encoded_for(wire.Pong(seq=3), [0, 1, None])
>>> frames[0] is frames[1] is frames[None]  # one encoding for every audience
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple, TypeAlias

import msgspec

from shengji.core.match import MatchState
from shengji.server.wire import messages as wire
from shengji.server.wire.changes import Changes
from shengji.server.wire.projection import RenderedEvent
from shengji.server.wire.seat_view import FieldViews, game_view, game_views


class Deltas(NamedTuple):
    """The audience of a protocol-3 connection seeing from ``seat`` (None: a spectator):
    it is sent ``delta`` messages instead of ``update``."""

    seat: int | None


Audience: TypeAlias = int | Deltas | None
"""Who a message is rendered for: a seat (None: spectators) speaking version 1 or 2, or a
version-3 ``Deltas`` audience."""


def seat_of(audience: Audience) -> int | None:
    """The seat an audience sees from."""
    return audience.seat if isinstance(audience, Deltas) else audience


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
    before: MatchState | None = field(default=None, compare=False)
    """The match as the last public update left it (what a ``Deltas`` audience holds)."""
    own_before: Mapping[int, MatchState] = field(default_factory=dict, compare=False)
    """Per seat told of private actions since then: the match its last one left."""
    _changes: Changes | None = field(default=None, compare=False, repr=False)

    @property
    def seq(self) -> int:
        """The update's sequence number."""
        return self.base.seq

    def _events_for(self, seat: int | None) -> list[wire.WireEvent]:
        return [e for aud, e in self.events if aud is None or aud == seat]

    def message_for(self, audience: Audience) -> wire.Update | wire.Delta:
        """The update as ``audience`` may see it."""
        seat = seat_of(audience)
        if isinstance(audience, Deltas) and self.match is not None:
            return self._delta(seat, FieldViews(self.match), None)
        game = None if self.match is None else game_view(self.match, seat)
        return msgspec.structs.replace(self.base, events=self._events_for(seat), game=game)

    def encode_for(self, audiences: Iterable[Audience]) -> dict[Audience, bytes]:
        """The update encoded once for each distinct audience of ``audiences``: whole views
        rendered together for the version-2 audiences (and a delta that starts a deal), only
        the changed fields for the others (``FieldViews``: what every audience sees alike
        rendered once)."""
        wanted = list(dict.fromkeys(audiences))
        m = self.match
        whole = list(dict.fromkeys(
            seat_of(a) for a in wanted
            if not isinstance(a, Deltas) or self.changes(a.seat).full
        ))
        games = {} if m is None or not whole else game_views(m, whole)
        fields = None if m is None else FieldViews(m)
        out: dict[Audience, bytes] = {}
        for a in wanted:
            seat = seat_of(a)
            if isinstance(a, Deltas) and fields is not None:
                out[a] = wire.encode(self._delta(seat, fields, games.get(seat)))
            else:
                msg = msgspec.structs.replace(
                    self.base, events=self._events_for(seat), game=games.get(seat)
                )
                out[a] = wire.encode(msg)
        return out

    def changes(self, seat: int | None) -> Changes:
        """What this update changed for ``seat``'s view (its own base if it was told of
        private actions since the last public update)."""
        assert self.match is not None
        own = self.own_before.get(seat) if seat is not None else None
        if own is not None:
            return Changes(own, self.match)
        if self._changes is None:
            self._changes = Changes(self.before, self.match)
        return self._changes

    def _delta(
        self, seat: int | None, views: FieldViews, game: wire.GameView | None
    ) -> wire.Delta:
        """The delta for ``seat``: its whole view (``game``, or rendered now) when the
        changes call for it, else only the changed fields, rendered from ``views``."""
        ch = self.changes(seat)
        events = self._events_for(seat)
        if ch.full:
            if game is None:
                game = game_view(views.match, seat)
            whole = {f: getattr(game, f) for f in wire.GAME_FIELDS}
            return wire.Delta(seq=self.base.seq, events=events, game=wire.GameDelta(**whole))
        keyed: frozenset[str] | None = None
        fields = ch.fields(seat)
        if ch.keyed_played:
            keyed = ch.played_suits(seat)
        if seat is not None and seat in self.own_before:
            shared = self.changes(None)
            fields = fields | shared.fields(seat)
            if keyed is not None and shared.keyed_played:
                keyed = keyed | shared.played_suits(seat)
            elif keyed is not None:
                keyed, fields = None, fields | {"played"}
        if keyed is not None:
            fields = fields - {"played"}
        part = views.fields(seat, fields, keyed or None)
        return wire.Delta(seq=self.base.seq, events=events, game=wire.GameDelta(**part))

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


class _Same(dict[Audience, bytes]):
    """One encoding for every audience."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data

    def __missing__(self, seat: Audience) -> bytes:
        return self.data


def encoded_for(
    msg: wire.ServerMsg | UpdateEntry, seats: Iterable[Audience]
) -> Mapping[Audience, bytes]:
    """A message's bytes for each audience (a seat, None: spectators, or ``Deltas``): an
    update per audience, any other message encoded once and shared."""
    if isinstance(msg, UpdateEntry):
        return msg.encode_for(seats)
    return _Same(wire.encode(msg))
