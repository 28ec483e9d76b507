"""Structured logs: ``shengji serve --log-format json`` writes one JSON object per line on
stdout for every log record (the server's own, uvicorn's, each HTTP request), the
listening announcement and a start-up failure; nothing else is printed.

Every object has ``ts`` (UTC, ISO 8601, milliseconds), ``level``, ``logger`` and ``msg``;
an exception adds ``exc`` (the traceback as text); fields given with ``extra=`` are kept;
an HTTP request (``uvicorn.access``) adds ``client``, ``method``, ``path``, ``http`` and
``status``.

>>> import logging
>>> r = logging.LogRecord("shengji.server", logging.INFO, "x.py", 1, "restored %d rooms",
...                       (3,), None)
>>> r.created = 0.0
>>> JsonFormatter().format(r)
'{"ts": "1970-01-01T00:00:00.000Z", "level": "info", "logger": "shengji.server", \
"msg": "restored 3 rooms"}'
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

LEVELS = {
    "critical": logging.CRITICAL,
    "error": logging.ERROR,
    "warning": logging.WARNING,
    "info": logging.INFO,
    "debug": logging.DEBUG,
    "trace": 5,
}
"""``--log-level`` names as numbers (``trace`` is uvicorn's level 5)."""

_STANDARD = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys()
    | {"message", "asctime", "color_message"}
)
"""What every record has (and uvicorn's colored copy of the message): anything else came
with ``extra=`` and is kept."""


def timestamp(created: float) -> str:
    """``created`` (seconds since the epoch) as ``2026-12-01T10:44:24.512Z``."""
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{whole}.{int(created % 1 * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's fields, its message rendered, its extras kept."""
        out: dict[str, Any] = {
            "ts": timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, http, status = args
            out.update(client=client, method=method, path=path, http=http, status=status)
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and not key.startswith("_"):
                out[key] = value if _plain(value) else repr(value)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exc"] = record.exc_text
        return json.dumps(out, ensure_ascii=False, default=repr)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool | list | dict)


def logging_config(log_format: str, level: str) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for ``--log-format``: None keeps uvicorn's plain text;
    ``json`` routes the root, ``shengji`` and ``uvicorn`` loggers to one JSON handler on
    stdout."""
    if log_format != "json":
        return None
    number = LEVELS[level]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stdout",
            }
        },
        "root": {"handlers": ["json"], "level": number},
        "loggers": {
            name: {"handlers": [], "level": number, "propagate": True}
            for name in ("shengji", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }


def log_json_line(level: str, logger: str, msg: str, **fields: Any) -> str:
    """One JSON log line made without the logging machinery (the start-up announcement and
    a start-up failure, written before or after logging is set up)."""
    out: dict[str, Any] = {"ts": timestamp(time.time()), "level": level, "logger": logger}
    out["msg"] = msg
    out.update(fields)
    return json.dumps(out, ensure_ascii=False, default=repr)
