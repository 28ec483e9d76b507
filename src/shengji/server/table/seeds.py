"""Match seeds nobody can work out from anything public (docs/protocol.md, "Records").

A finished match's record holds its seed (ruleset + seed + actions replay it), and records
are readable over HTTP. So the seed of a match must say nothing about any other match: each
match gets fresh secret randomness (128 bits from ``secrets``), drawn when the match starts
and written to the room's row before its first card is sent, so a restarted server replays
the match exactly. It is revealed only in the match's finished record.

Rooms from before this rule dealt match n from ``"<room seed>/<n>"``, which anyone holding
the record of match n − 1 could compute. ``match_seed`` still answers that for a match such
a room has in progress (replaying it needs the seed it was dealt from); every match started
since draws a fresh one.

>>> len(new_match_seed()), new_match_seed() != new_match_seed()
(32, True)
>>> match_seed("9f2c", 3, None)
'9f2c/3'
>>> match_seed("9f2c", 3, "0be4")
'0be4'
"""

from __future__ import annotations

import secrets

SEED_BYTES = 16
"""Bytes of randomness per match seed (128 bits: not worth guessing)."""


def new_match_seed() -> str:
    """A fresh secret seed for one match: 32 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def match_seed(room_seed: str, match_no: int, drawn: str | None) -> str:
    """The seed match ``match_no`` is dealt from: the one drawn for it, or (a match started
    before seeds were drawn per match) the old ``"<room seed>/<match_no>"``."""
    return drawn if drawn is not None else f"{room_seed}/{match_no}"
