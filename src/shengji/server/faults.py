"""Storage faults: errors of the database or the disk that a retry can outlast (a full
disk, a read-only or locked file, a lost connection), as opposed to a bug or a refused row.

>>> is_storage_fault(OSError(28, "No space left on device"))
True
>>> is_storage_fault(ValueError("bad seat"))
False
>>> fault_reason(OSError(28, "No space left on device"))
'OSError: [Errno 28] No space left on device'
"""

from __future__ import annotations

from sqlalchemy import exc as sa_exc


def is_storage_fault(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot take the write now."""
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    return isinstance(
        exc,
        sa_exc.OperationalError
        | sa_exc.InterfaceError
        | sa_exc.DisconnectionError
        | sa_exc.TimeoutError
        | OSError
        | ConnectionError,
    )


def fault_reason(exc: BaseException) -> str:
    """A one-line reason for the log: ``"OperationalError: database or disk is full"``."""
    inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc
    text = str(inner).strip().splitlines()[0] if str(inner).strip() else ""
    return f"{type(inner).__name__}: {text}"[:200] if text else type(inner).__name__
