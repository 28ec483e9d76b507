"""Rooms that cannot run are set aside, once, and never retried in a loop.

A room is quarantined when it cannot be restored at start (a corrupt log row, a ruleset the
engine refuses) or when its own code raises while it runs (an engine bug): the failure is
logged once, the room is stopped, its clients are told, and a ``room_quarantine`` row keeps
it from being loaded again. Every other room goes on. ``shengji rooms quarantined`` lists
them; ``shengji rooms release CODE`` lets one be tried again at the next start.

Storage errors (the database or the disk failing) are not the room's fault: they never
quarantine a room (``is_storage_error``).

>>> describe(IndexError("tuple index out of range"))
'IndexError: tuple index out of range'
"""

from __future__ import annotations

import logging
import traceback

from sqlalchemy.exc import SQLAlchemyError

from shengji.server.store.storage import Store

log = logging.getLogger("shengji.server.quarantine")


def is_storage_error(exc: BaseException) -> bool:
    """Whether ``exc`` comes from the database or the disk, not from the room itself."""
    return isinstance(exc, SQLAlchemyError | OSError)


def describe(exc: BaseException) -> str:
    """One line: the exception and, when known, where it was raised (``file.py:123``)."""
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:300]
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        text += f" ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
    return text


async def quarantine(store: Store, room_id: int, code: str, why: str) -> None:
    """Mark a room as set aside in the database (once); a failure to do so is logged, never
    raised (the room is stopped either way and the server goes on)."""
    try:
        await store.rooms.quarantine(room_id, why)
    except Exception as e:
        log.error("room %s: could not record its quarantine: %s", code[:6], describe(e))
