"""One server per data directory: an exclusive lock on ``<database file>.lock``.

Two servers writing the same SQLite database would each replay and extend the same rooms
(sequence numbers written twice, rooms lost at the next start). A server takes an exclusive
``flock`` on a lock file beside its database before it opens it, writes its pid there, and
holds it until it exits (the kernel drops it if the process dies). A second server on the
same data dir is refused at once (``DataDirInUse``). Other databases (PostgreSQL) are not
locked here: a database server is shared on purpose.

>>> lock_path("sqlite+aiosqlite:////srv/sj/shengji.db")
PosixPath('/srv/sj/shengji.db.lock')
>>> lock_path("postgresql+asyncpg://u@db/shengji") is None
True
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from sqlalchemy.engine import make_url


class DataDirInUse(RuntimeError):
    """Another process holds the data directory's lock."""

    def __init__(self, path: Path, holder: str) -> None:
        who = f" (pid {holder})" if holder else ""
        super().__init__(
            f"the data dir {path.parent} is in use by another shengji server{who}: "
            "stop that server, or give this one another --data-dir"
        )
        self.path = path
        self.holder = holder


def lock_path(database_url: str) -> Path | None:
    """The lock file of a SQLite file database; None for other databases and ``:memory:``."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    db = Path(url.database)
    return db.with_name(db.name + ".lock")


class DataDirLock:
    """An exclusive lock held by this process: ``DataDirLock.acquire(url)`` or None."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, database_url: str) -> DataDirLock | None:
        """Take the lock of ``database_url``'s data dir (None: nothing to lock).

        ``DataDirInUse`` if another process holds it; ``OSError`` if the lock file cannot
        be created (a missing or read-only directory)."""
        path = lock_path(database_url)
        if path is None:
            return None
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            raise DataDirInUse(path, holder) from None
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    @property
    def held(self) -> bool:
        """Whether this object still holds the lock."""
        return self._fd is not None

    def release(self) -> None:
        """Let another server have the data dir (also done by the kernel at exit)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the only descriptor drops the flock
