"""The browser table (``shengji/web/static``: Preact pages, no build step), served at ``/``
after every route, so the routes win.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

WEB_STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
"""The browser table's files, served at ``/``."""


def mount_web(app: FastAPI) -> None:
    """Serve ``WEB_STATIC`` at ``/`` (``index.html`` for a folder), when it is there; mount
    it last."""
    if WEB_STATIC.is_dir():
        app.mount("/", StaticFiles(directory=WEB_STATIC, html=True), name="web")
