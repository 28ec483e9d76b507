"""For fault drills only: a store whose writes fail while a file exists.

When the environment names a file in ``SHENGJI_TEST_WRITE_FAULT_FILE``, every INSERT,
UPDATE or DELETE of the store fails (``database is locked``, as SQLite says when another
writer holds it) for as long as that file exists; reads go on. A test creates and deletes
the file to make a real ``shengji serve`` process meet a database that refuses writes at
moments it chooses (tests/server/test_fault_drill.py). Unset, nothing is installed.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from typing import Protocol

ENV = "SHENGJI_TEST_WRITE_FAULT_FILE"
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class Checked(Protocol):
    """A store that calls a check before each statement (``Store.add_write_check``)."""

    def add_write_check(self, check: Callable[[str], None]) -> None: ...


def install_from_env(store: Checked) -> bool:
    """Install the switch on ``store`` if the environment asks for it; True if it did."""
    path = os.environ.get(ENV)
    if not path:
        return False

    def check(statement: str) -> None:
        verb = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else ""
        if verb in WRITES and os.path.exists(path):
            raise sqlite3.OperationalError("database is locked (fault drill)")

    store.add_write_check(check)
    return True
