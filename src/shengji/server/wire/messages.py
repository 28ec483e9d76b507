"""Wire messages (protocol version 3): msgspec Structs, JSON text frames, kept apart from
core types. Every message is an object with ``t`` (its type) and ``v`` (the version);
every server message also carries ``seq``, the room's sequence number (docs/protocol.md).

This module holds what clients send (``ClientMessage``, decoded strictly) and re-exports
the rest: the server's messages (``wire_server``), the events in an ``update``
(``wire_events``), the room and game views (``wire_views``) and their rendering
(``wire_render``). The protocol's JSON Schema is generated from these structs
(``wire_schema``, ``shengji protocol-schema``).

Version 2 only adds: fields with defaults in server messages (per-seat levels, the friend
card, bids) and new action verbs inside ``act``; a client speaking version 1 is still served.
Version 3 adds, for a client whose ``hello`` says ``"v": 3``: ``delta`` messages instead of
``update`` (only the view fields an action changed) and typed actions inside ``act``
(``wire/actions.py``); a version 1 or 2 client is served as before.

Cards travel in the project's notation, several cards as one string: ``"SA SA SK"``.

>>> decode_client(b'{"t":"act","v":1,"action":"play SA SA"}')
Act(action='play SA SA', v=1)
>>> encode(Pong(seq=3))
b'{"t":"pong","v":3,"seq":3}'
>>> decode_client(b'{"t":"act","v":3,"action":{"type":"play","cards":"SA SA"}}').action
PlayCards(cards='SA SA')
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shengji.server.wire.actions import *  # noqa: F403  (the typed actions, re-exported)
from shengji.server.wire.actions import TypedAction
from shengji.server.wire.events import *  # noqa: F403  (the events, re-exported)
from shengji.server.wire.events import WireEvent, render_event
from shengji.server.wire.render import *  # noqa: F403  (their rendering, re-exported)
from shengji.server.wire.render import action_text, render_seat_view, render_view
from shengji.server.wire.server import *  # noqa: F403  (the server's messages, re-exported)
from shengji.server.wire.server import OLDEST, VERSION, ServerMessage, ServerMsg, encode
from shengji.server.wire.views import *  # noqa: F403  (the views, re-exported)
from shengji.server.wire.views import GameView, RoomInfo, SeatInfo

# --------------------------------------------------------------------------- client → server


class ClientMsg(msgspec.Struct, tag_field="t", forbid_unknown_fields=True, kw_only=True):
    """Base of the messages a client sends."""

    v: int = VERSION


class Hello(ClientMsg, tag="hello"):
    """First message on a socket: who I am and the last ``seq`` I saw (to resume)."""

    token: str
    last_seq: int | None = None
    presence: Literal["full", "delta"] = "full"
    """v2: ``delta``: after one full ``presence``, send only ``presence_delta`` changes."""
    batch: bool = False
    """v2: true: this client reads a frame holding a JSON array of messages (the
    messages that gathered for it, sent as one frame); false: one message per frame."""


class Sit(ClientMsg, tag="sit"):
    """Take an empty seat (or a seat a bot holds for nobody)."""

    seat: int


class Stand(ClientMsg, tag="stand"):
    """Leave my seat and watch (between matches only)."""


class AddBot(ClientMsg, tag="add_bot"):
    """Seat a bot (registry name) in an empty seat."""

    seat: int
    bot: str = "random"


class RemoveBot(ClientMsg, tag="remove_bot"):
    """Take a bot out of its seat (between matches only)."""

    seat: int


class Unseat(ClientMsg, tag="unseat"):
    """v2, the room's owner: move the human in ``seat`` out of it (between matches)."""

    seat: int


class Ready(ClientMsg, tag="ready"):
    """Ready (or not) for the next match; it starts when every seat is taken and ready."""

    ready: bool = True


class Act(ClientMsg, tag="act"):
    """A game action for my own seat, without the seat: a text, ``"play SA SA"``,
    ``"declare H2"``, ``"pass"``, ``"bury S3 S4 ..."``, or (v3) typed: ``{"type": "play",
    "cards": "SA SA"}`` (wire/actions.py). An illegal one is answered with an ``error``
    whose code is the reason ``check`` gives."""

    action: str | TypedAction


class Hint(ClientMsg, tag="hint"):
    """Ask for one legal action for my seat (提示); ``bot`` (a registry name) picks it,
    otherwise any legal action."""

    bot: str | None = None


class Check(ClientMsg, tag="check"):
    """Dry run: would these actions for my seat be accepted now? Nothing changes; the
    answer is ``checked``. At most 16 actions."""

    actions: list[str]


class Sync(ClientMsg, tag="sync"):
    """Ask for a fresh snapshot."""


class Chat(ClientMsg, tag="chat"):
    """A chat line to the room."""

    text: str


class Nudge(ClientMsg, tag="nudge"):
    """Remind the seat whose turn it is."""


class Ping(ClientMsg, tag="ping"):
    """Keep-alive; answered with ``pong``."""


class Leave(ClientMsg, tag="leave"):
    """Leave the room (a seat in a running match is played by a bot until retaken)."""


class ResetDeal(ClientMsg, tag="reset_deal"):
    """v2, the room's owner: propose to deal the current deal again; the seated
    players vote (``vote``) and it is dealt again when all agree (server/table/votes.py)."""


class Vote(ClientMsg, tag="vote"):
    """v2: my seat's answer to the open proposal (``reset_deal``)."""

    yes: bool


class EndMatch(ClientMsg, tag="end_match"):
    """v2, the room's owner: end the match now; its record is kept as it stands
    (the deals finished so far, the current one unfinished)."""


class AutoPlay(ClientMsg, tag="auto"):
    """v2: put my seat on 托管 (``on`` true: the auto-play bot moves for me) or take it
    back (``on`` false, the "take back" button)."""

    on: bool = False


class NextDeal(ClientMsg, tag="next_deal"):
    """v2: I have read the deal's summary; the next deal may be dealt."""


class NewMatch(ClientMsg, tag="new_match"):
    """v2, the room's owner: start the next match now (every seated player counts as
    ready)."""


class CloseRoom(ClientMsg, tag="close_room"):
    """v2, the room's owner: close the room for everyone."""


ClientMessage = (
    Hello
    | Sit
    | Stand
    | AddBot
    | RemoveBot
    | Unseat
    | Ready
    | Act
    | Hint
    | Check
    | Sync
    | Chat
    | Nudge
    | Ping
    | Leave
    | AutoPlay
    | NextDeal
    | NewMatch
    | CloseRoom
    | ResetDeal
    | Vote
    | EndMatch
)

_client_decoder = msgspec.json.Decoder(ClientMessage)


def decode_client(data: bytes | str) -> ClientMessage:
    """Parse one client message; ``msgspec.ValidationError``/``DecodeError`` if malformed."""
    msg: ClientMessage = _client_decoder.decode(data)
    if not OLDEST <= msg.v <= VERSION:
        raise msgspec.ValidationError(
            f"unsupported protocol version {msg.v}; this server speaks {OLDEST}..{VERSION}"
        )
    return msg


__all__ = [
    "OLDEST",
    "VERSION",
    "ClientMessage",
    "GameView",
    "RoomInfo",
    "SeatInfo",
    "ServerMessage",
    "ServerMsg",
    "WireEvent",
    "action_text",
    "decode_client",
    "encode",
    "render_event",
    "render_seat_view",
    "render_view",
]
