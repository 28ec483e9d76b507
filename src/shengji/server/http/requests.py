"""The JSON bodies the HTTP API accepts (pydantic models; the routes of
server/http/players.py and rooms.py).

Both are strict (``"3"`` is no integer, ``"yes"`` no boolean: nothing is coerced) and
closed (an unknown key is refused); FastAPI answers either with 422 naming the field
(server/http/strict_json.py).

>>> NewRoom().preset, NewRoom(bots={"1": "random"}).bots
('classic', {'1': 'random'})
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints


class NewPlayer(BaseModel):
    """``POST /api/players``."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: str
    """Trimmed and checked by ``server/http/names.py`` (a bad name: 400 saying why)."""


SeatKey = Annotated[str, StringConstraints(pattern=r"^-?[0-9]{1,3}$")]
"""A seat as a JSON object's key: ``"1"`` (ASCII digits only; out of range: 400)."""


class NewRoom(BaseModel):
    """``POST /api/rooms``."""

    model_config = ConfigDict(strict=True, extra="forbid")

    preset: str = "classic"
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    max_deals: int | None = None
    bots: dict[SeatKey, str] = Field(default_factory=dict)
    """Seats to fill with bots at once: ``{"1": "random"}``."""
    stakes: dict[str, Any] | None = None
    """What the room plays for: ``{"kind": "rating" | "coins" | "beans", "coefficient": N,
    "house": A, "slam_points": 6, "overturn_doubling": true}``; omitted: the preset's default
    (``preset_info`` ``stakes``: plain, 欢乐豆 for ``huanle``; server/live/stakes.py;
    ``overturn_doubling`` left out: on for 欢乐豆 only)."""
    table: dict[str, Any] | None = None
    """The room's pace: ``{"turn_s": 30, "long_turn_s": 60, "next_deal_s": 30}`` (seconds,
    0: off; omitted: the defaults of a public or private room, server/table/options.py)."""


class RulesCheck(BaseModel):
    """``POST /api/rules/check``: a preset and options, checked as a new room would be."""

    model_config = ConfigDict(strict=True, extra="forbid")

    preset: str = "classic"
    options: dict[str, Any] = Field(default_factory=dict)
