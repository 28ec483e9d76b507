"""Where a room runs, as HTTP: ``GET /api/rooms/{code}/owner`` and ``GET /api/instances``
(server/store/lease_keeper.py keeps the leases they read).

Strangers learn what a client needs and no more: the address the owner is reached at, and
only when the group's addresses are public (``Settings.public_url`` set), whether its
lease is live and whether it is this process. Instance ids (host names by default), lease
epochs and internal addresses are shown to operators, who send ``X-Operator-Token`` (the
``operator_token`` setting), compared in constant time.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from shengji.server.http.deps import Deps


def routes(deps: Deps) -> APIRouter:
    """The two routes (``deps.leases()``: the lease keeper)."""
    api = APIRouter()
    settings = deps.settings

    def is_operator(request: Request) -> bool:
        """The request carries the operator token (``X-Operator-Token``)."""
        token = settings.operator_token
        sent = request.headers.get("x-operator-token", "")
        return token is not None and hmac.compare_digest(
            sent.encode(), token.get_secret_value().encode())

    @api.get("/api/rooms/{code}/owner")
    async def room_owner(code: str, request: Request) -> dict[str, Any]:
        """Where clients reach the process running the room; instance ids and epochs for
        operators only, addresses only when public (``public_url``)."""
        keeper = deps.leases()
        holder = await keeper.owner_of(code)
        if holder is None:
            raise HTTPException(404, "no such room")
        operator = is_operator(request)
        answer: dict[str, Any] = {
            "address": holder.address if operator or settings.public_url else None,
            "live": holder.live,
            "here": holder.instance == keeper.instance
            and (code in deps.lobby().rooms or code in deps.lobby().idle),
        }
        if operator:
            answer |= {"instance": holder.instance, "epoch": holder.epoch}
        return answer

    @api.get("/api/instances")
    async def instances(request: Request) -> dict[str, Any]:
        """The processes serving this database (alive within two lease TTLs): their public
        addresses; ids and every address for operators."""
        keeper = deps.leases()
        alive = await keeper.instances()
        if is_operator(request):
            return {"me": keeper.instance,
                    "instances": [{"id": i, "address": a} for i, a in alive]}
        if not settings.public_url:
            raise HTTPException(403, "addresses are not public here (SHENGJI_PUBLIC_URL "
                                     "unset); operators send X-Operator-Token")
        return {"instances": [{"address": a} for _, a in alive]}

    return api
