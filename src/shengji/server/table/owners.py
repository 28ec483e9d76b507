"""Room owners: the player who created a room (``POST /api/rooms``) owns it.

Only the owner may add a bot, remove one, or move another player out of a seat (``unseat``);
anyone may still take a free seat, stand up, chat and watch. A room without an owner (one
created before rooms had owners, or by the server itself) is open to everyone as before.

>>> may_manage(None, "p1"), may_manage("p1", "p1"), may_manage("p1", "p2")
(True, True, False)
>>> refusal("add a bot")
"only the room's owner may add a bot"
"""

from __future__ import annotations

NOT_OWNER = "not-owner"
"""The ``error`` code of a refused owner's right."""


def may_manage(owner: str | None, player: str) -> bool:
    """Whether ``player`` has the owner's rights in a room owned by ``owner``."""
    return owner is None or owner == player


def refusal(what: str) -> str:
    """The error message when someone else than the owner tries ``what``."""
    return f"only the room's owner may {what}"
