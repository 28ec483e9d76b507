"""A player's saved house rules over HTTP (token required): ``GET /api/me/rules`` (the
list), ``PUT /api/me/rules/{name}`` ``{"preset", "options"}`` (checked as a new room would
be: 400 naming the field) and ``DELETE /api/me/rules/{name}``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException
from fastapi.responses import JSONResponse

from shengji.server.http.deps import Deps
from shengji.server.http.requests import RulesCheck
from shengji.server.store.saved_rules import TooManySaved
from shengji.server.table.rule_fields import check_rules
from shengji.server.table.validate import OptionError

MAX_NAME = 40
"""Characters of a saved rule set's name."""


def _name(name: str) -> str:
    clean = name.strip()
    if not clean or len(clean) > MAX_NAME or not clean.isprintable():
        raise HTTPException(400, f"a rule set's name is 1..{MAX_NAME} printable characters")
    return clean


def routes(deps: Deps) -> APIRouter:
    """The saved-rules routes."""
    api = APIRouter()

    @api.get("/api/me/rules")
    async def mine(authorization: str | None = Header(default=None)) -> dict[str, Any]:
        p = await deps.current_player(authorization)
        return {"rules": await deps.store().saved_rules.of_player(p.id)}

    @api.put("/api/me/rules/{name}")
    async def save(
        name: str, body: RulesCheck, authorization: str | None = Header(default=None)
    ) -> Any:
        p = await deps.current_player(authorization)
        title = _name(name)
        try:
            checked = check_rules(body.preset, body.options)
        except OptionError as e:
            return JSONResponse({"detail": e.message, "field": e.field}, status_code=400)
        try:
            await deps.store().saved_rules.save(p.id, title, body.preset, checked["changed"])
        except TooManySaved as e:
            raise HTTPException(409, str(e)) from e
        return {"name": title, **checked["rules"]}

    @api.delete("/api/me/rules/{name}")
    async def forget(name: str, authorization: str | None = Header(default=None)) -> Any:
        p = await deps.current_player(authorization)
        if not await deps.store().saved_rules.remove(p.id, _name(name)):
            raise HTTPException(404, "no such rule set")
        return {"deleted": name.strip()}

    return api
