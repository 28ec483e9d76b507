"""Strict JSON, pure: where a decoded JSON value holds ``NaN``, ``Infinity`` or a number
beyond a float, and what to tell the client that sent it (the HTTP API's bodies,
server/http/strict_json.py; a WebSocket message, server/live/sockets.py). Python's ``json``
reads ``NaN`` and would hand it on.

>>> nonfinite_path({"max_deals": 3, "options": {"kitty_cap": float("nan")}})
'options.kitty_cap'
>>> nonfinite_path({"bots": {"1": "random"}}) is None
True
"""

from __future__ import annotations

import json
import math
from typing import Any


def nonfinite_path(value: Any, path: str = "") -> str | None:
    """The dotted path of the first non-finite number in ``value`` (None: there is none;
    ``""``: ``value`` itself)."""
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = nonfinite_path(item, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


def refusal(body: bytes) -> tuple[str, str | None] | None:
    """Why ``body`` is not strict JSON, and the field at fault (None: it is).

    >>> refusal(b'{"name": NaN}')
    ('name: NaN, Infinity and numbers beyond a float are not JSON', 'name')
    >>> refusal(b'{"max_deals": 1e400}')[1]
    'max_deals'
    >>> refusal(b'{"name": "ann"}') is None
    True
    """
    try:
        value = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return f"the body is not JSON: {e}", None
    path = nonfinite_path(value)
    if path is None:
        return None
    where = path or "the body"
    return f"{where}: NaN, Infinity and numbers beyond a float are not JSON", path or None


def why_malformed(raw: bytes | str, error: Exception) -> str:
    """What to tell a client whose WebSocket message did not decode (``error``): the field
    holding ``NaN`` or ``Infinity`` if that is why, else the decoder's own words (which
    name the field for a wrong type or an unknown key).

    >>> why_malformed('{"t":"sit","v":2,"seat":NaN}', ValueError("JSON is malformed"))
    'seat: NaN, Infinity and numbers beyond a float are not JSON'
    """
    why = refusal(raw.encode() if isinstance(raw, str) else raw)
    if why is not None and why[1] is not None:
        return why[0]
    return str(error)
