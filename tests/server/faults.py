"""Fault injection at the storage layer, in-process: every write statement of a store's
engine fails, as on a full disk, while the fault is on (reads still work). The fault is
the database driver's own ``OperationalError`` (SQLite's or asyncpg's), so SQLAlchemy
wraps it as it would a real one."""

from __future__ import annotations

import time

from shengji.server.store.storage import Store

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class WriteFault:
    """``fault = WriteFault(store); fault.on(2.0)``: writes fail for 2 s (``off()`` ends it
    early). ``hits`` counts the statements refused."""

    def __init__(self, store: Store, message: str = "database or disk is full") -> None:
        self.message = message
        self.until = 0.0
        self.hits = 0
        self.error = store.engine.dialect.loaded_dbapi.OperationalError
        store.add_write_check(self._check)

    def on(self, seconds: float = 3600.0) -> None:
        """Fail every write for ``seconds`` from now."""
        self.until = time.monotonic() + seconds

    def off(self) -> None:
        """Let writes through again."""
        self.until = 0.0

    @property
    def active(self) -> bool:
        return time.monotonic() < self.until

    def _check(self, statement: str) -> None:
        if self.active and statement.lstrip().split(None, 1)[0].upper() in WRITES:
            self.hits += 1
            raise self.error(self.message)
