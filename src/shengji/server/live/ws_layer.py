"""Which WebSocket layer runs the rooms' sockets (setting ``ws_layer``): picows
(live/ws_picows.py: framing and writes in C, on the same port as the HTTP) when it is
installed, else uvicorn's sans-I/O protocol (live/ws_protocol.py, pure Python), which
also serves every socket when ``ws_compression`` is on (picows has no permessage-deflate).

>>> layer_for("uvicorn", compression=False, installed=True)
'uvicorn'
>>> layer_for("auto", compression=False, installed=True), layer_for("auto", False, False)
('picows', 'uvicorn')
>>> layer_for("auto", compression=True, installed=True)
'uvicorn'
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
from typing import Literal

Layer = Literal["picows", "uvicorn"]


class LayerUnavailable(RuntimeError):
    """``ws_layer = "picows"`` where picows cannot serve (not installed, or compression)."""


def picows_installed() -> bool:
    """Whether the ``picows`` package can be imported."""
    return importlib.util.find_spec("picows") is not None


def layer_for(wanted: str, compression: bool, installed: bool | None = None) -> Layer:
    """The layer that runs the rooms' sockets for the setting ``wanted``; raises
    ``LayerUnavailable`` for ``picows`` where it cannot run."""
    ok = (picows_installed() if installed is None else installed) and not compression
    if wanted == "uvicorn" or (wanted == "auto" and not ok):
        return "uvicorn"
    if not ok:
        why = "ws_compression is on" if compression else "picows is not installed"
        raise LayerUnavailable(f"ws_layer=picows, but {why} (pip install picows)")
    return "picows"


def http_protocol(layer: Layer) -> type[asyncio.Protocol] | str:
    """What to pass as ``uvicorn.Config(http=...)`` for ``layer``."""
    if layer == "uvicorn":
        return "auto"
    module = importlib.import_module("shengji.server.live.ws_first_line")  # picows: optional
    cls: type[asyncio.Protocol] = module.FirstLine
    return cls
