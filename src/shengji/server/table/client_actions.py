"""A client's action text for its own seat: ``"play SA SA"`` → ``Play(2, ...)``.

The seat comes from the session, never from the message. The forms are the engine's action
texts without the seat (``parse_action("play 2 SA SA")``), less ``deal``.

>>> client_action("play SA SA", 2)
Play(seat=2, cards=(12, 12))
>>> action_text(client_action("bury S3 S4", 1))
'bury S3 S4'
"""

from __future__ import annotations

from shengji.core.actions import Action, parse_action
from shengji.core.errors import NotationError

CLIENT_FORMS = {
    "declare": "declare CARDS",
    "pass": "pass",
    "bury": "bury CARDS",
    "play": "play CARDS",
    "call": "call NTH CARD",
    "bid": "bid TARGET",
    "trump": "trump SUIT",
}
"""The action forms a client may send, by verb: the engine's, less ``deal`` and the seat."""


def action_text(action: Action) -> str:
    """An action as a client writes it, without the seat: ``"play SA SA"``."""
    parts = str(action).split(None, 2)
    return " ".join([parts[0], *parts[2:]])


def client_action(text: str, seat: int) -> Action:
    """Parse a client's action for ``seat``; ``NotationError`` says what forms exist."""
    parts = text.strip().split(None, 1)
    if not parts:
        raise NotationError("empty action")
    verb = parts[0].lower()
    rest = parts[1] if len(parts) > 1 else ""
    usage = "use " + ", ".join(f"'{f}'" for f in CLIENT_FORMS.values())
    form = CLIENT_FORMS.get(verb)
    if form is None or (form != verb and not rest):
        raise NotationError(f"bad action {text!r}: {usage}")
    try:
        return parse_action(f"{verb} {seat} {rest}".strip())
    except NotationError as e:
        why = f"{e.message}; " if not e.message.startswith("bad action") else ""
        raise NotationError(f"bad action {text!r}: {why}{usage}") from e
