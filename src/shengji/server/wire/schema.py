"""The server protocol's JSON Schema, generated from the wire structs (never written by
hand, so it cannot drift from what the server sends and accepts).

``shengji protocol-schema`` prints it; ``$defs/ClientMessage`` is every message a client may
send, ``$defs/ServerMessage`` every message the server sends (both tagged by ``t``), and
the other ``$defs`` are their parts (``GameView``, ``RoomInfo``, the events of an
``update`` ...). docs/protocol.md explains what each means.

>>> s = protocol_schema()
>>> s["$schema"], sorted(s["properties"]) if "properties" in s else s["oneOf"][0]
('https://json-schema.org/draft/2020-12/schema', {'$ref': '#/$defs/ClientMessage'})
>>> "Update" in s["$defs"] and "PlayedEvent" in s["$defs"]
True
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from shengji.server.wire.messages import VERSION, ClientMessage, ServerMessage

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of the server protocol."""
    (client, server), parts = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": DIALECT,
        "title": f"shengji server protocol, version {VERSION}",
        "description": (
            "Every WebSocket message of the shengji server (docs/protocol.md, 'Server "
            "protocol'): ClientMessage from a client, ServerMessage from the server. "
            "Generated from src/shengji/server/wire*.py."
        ),
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
        "$defs": {**parts, "ClientMessage": client, "ServerMessage": server},
    }


def schema_text() -> str:
    """The schema as indented JSON text."""
    return json.dumps(protocol_schema(), indent=2, ensure_ascii=False, sort_keys=True)
