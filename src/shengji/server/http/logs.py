"""The server's own log: one handler on the ``shengji`` loggers, at the settings' level.

``shengji serve --log-level info`` (``SHENGJI_LOG_LEVEL``) shows one line per room event
worth an operator's eye: a match over, a seat freed, a room closed or quarantined, the
database failing and coming back (one line each way per episode, per room); ``debug`` adds
matches starting, 托管 and clocks running out. uvicorn keeps its own access log.

>>> configure_logging("warning").level == logging.WARNING
True
"""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str) -> logging.Logger:
    """Send the ``shengji`` loggers to stderr at ``level`` (idempotent)."""
    logger = logging.getLogger("shengji")
    logger.setLevel(level.upper())
    if not any(getattr(h, "shengji", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.shengji = True  # type: ignore[attr-defined]  # ours, not added twice
        logger.addHandler(handler)
    return logger
