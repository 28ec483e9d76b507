"""Strict input everywhere (server/strict_json.py, the request models in server/app.py, the
WebSocket decoder): ``NaN`` / ``Infinity``, wrong types, coercible strings (``"3"``,
``"yes"``) and unknown keys are refused with a 4xx naming the field, change nothing and
never log a traceback; and a property test over every route's body schema (read from the
app's OpenAPI document) finds no body that is a 5xx."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shengji.server.http.app import create_app
from tests.server.helpers import Client, fast_settings, live_server, new_player


class _Tracebacks(logging.Handler):
    """Every record logged with an exception (or naming a traceback)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.seen.append(f"{record.name}: {record.getMessage()}")


@contextmanager
def tracebacks() -> Iterator[list[str]]:
    """The tracebacks logged inside the block (root, uvicorn's and shengji's loggers)."""
    handler = _Tracebacks()
    names = ["", "uvicorn", "uvicorn.error", "shengji"]
    for name in names:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler.seen
    finally:
        for name in names:
            logging.getLogger(name).removeHandler(handler)


def _raw(base: str, path: str, body: str, token: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.post(f"{base}{path}", content=body.encode(), headers=headers, timeout=30)


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/api/players", '{"name": NaN}', 400, "name"),
        ("/api/players", '{"name": Infinity}', 400, "name"),
        ("/api/players", '{"name": "ann", "admin": true}', 422, "admin"),
        ("/api/players", '{"name": 7}', 422, "name"),
        ("/api/players", '{"name": ["ann"]}', 422, "name"),
        ("/api/players", "[NaN]", 400, "0"),
        ("/api/players", "NaN", 400, None),
        ("/api/players", '{"name": "ann"', 400, None),
        ("/api/rooms", '{"max_deals": NaN}', 400, "max_deals"),
        ("/api/rooms", '{"max_deals": -Infinity}', 400, "max_deals"),
        ("/api/rooms", '{"max_deals": 1e400}', 400, "max_deals"),
        ("/api/rooms", '{"private": NaN}', 400, "private"),
        ("/api/rooms", '{"options": {"kitty_size": NaN}}', 400, "options.kitty_size"),
        ("/api/rooms", '{"stakes": {"kind": "coins", "coefficient": Infinity}}', 400,
         "stakes.coefficient"),
        ("/api/rooms", '{"max_deals": "3"}', 422, "max_deals"),
        ("/api/rooms", '{"max_deals": 3.0}', 422, "max_deals"),
        ("/api/rooms", '{"max_deals": true}', 422, "max_deals"),
        ("/api/rooms", '{"private": "yes"}', 422, "private"),
        ("/api/rooms", '{"private": 1}', 422, "private"),
        ("/api/rooms", '{"preset": 5}', 422, "preset"),
        ("/api/rooms", '{"colour": "red"}', 422, "colour"),
        ("/api/rooms", '{"bots": {"x": "random"}}', 422, "bots.x"),
        ("/api/rooms", '{"bots": {"1": 5}}', 422, "bots.1"),
        ("/api/rooms", '{"bots": {"1": "search:１０００"}}', 400, "bots.1"),
        ("/api/rooms", '{"bots": {"1": "search:٣٠٠"}}', 400, "bots.1"),
        ("/api/rooms", '{"bots": {"1": "search:1_000"}}', 400, "bots.1"),
        ("/api/rooms", '{"bots": {"1": "search:1e3"}}', 400, "bots.1"),
    ],
)
def test_loose_bodies_are_refused_naming_the_field(
    server: str, path: str, body: str, status: int, field: str | None
) -> None:
    p = new_player(server, "ann")
    with tracebacks() as seen:
        r = _raw(server, path, body, p["token"])
    assert r.status_code == status, r.text
    assert r.json()["field"] == field, r.json()
    assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    assert httpx.get(f"{server}/api/rooms").json() == []  # nothing was created
    assert seen == []


def test_websocket_messages_are_strict_and_name_the_field(server: str) -> None:
    p = new_player(server, "ann")
    room = httpx.post(f"{server}/api/rooms", json={"max_deals": 1},
                      headers={"Authorization": f"Bearer {p['token']}"}).json()
    c = Client(server, room["code"], p["token"])
    cases = {
        '{"t":"sit","v":2,"seat":NaN}': "seat",
        '{"t":"sit","v":2,"seat":Infinity}': "seat",
        '{"t":"sit","v":2,"seat":"0"}': "$.seat",
        '{"t":"sit","v":2,"seat":0.0}': "$.seat",
        '{"t":"sit","v":2,"seat":0,"as":"owner"}': "`as`",
        '{"t":"ready","v":2,"ready":"yes"}': "$.ready",
        '{"t":"add_bot","v":2,"seat":1,"bot":"search:１０００"}': "ASCII digits",
    }
    with tracebacks() as seen:
        for frame, named in cases.items():
            c.send(frame)
            err = c.wait(lambda m: m["t"] == "error")
            assert err["code"] in ("bad-message", "unknown-bot"), err
            assert named in err["message"], (frame, err)
        c.send({"t": "ping", "v": 2})
        c.wait(lambda m: m["t"] == "pong")
    info = httpx.get(f"{server}/api/rooms/{room['code']}").json()
    assert all(s["player"] is None for s in info["seats"])  # nothing changed
    c.close()
    assert seen == []


# ---------------------------------------------------------------------- the property


def _json_values() -> st.SearchStrategy[Any]:
    """Any JSON-ish value, NaN and the infinities among them; strings that look like
    numbers and booleans."""
    leaves = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(["3", "yes", "true", "1e3", "search:１０００", "random", "classic",
                         "", "NaN", "rating"]),
        st.text(max_size=12),
    )
    return st.recursive(
        leaves,
        lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids,
                                                                  max_size=3),
        max_leaves=8,
    )


def _bodies(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Bodies for a route: its schema's keys (each maybe present) with any values, perhaps
    an unknown key, or not an object at all."""
    keys = sorted(schema.get("properties", {}))
    obj = st.fixed_dictionaries({}, optional={k: _json_values() for k in keys})
    extra = st.dictionaries(st.text(min_size=1, max_size=8), _json_values(), max_size=2)
    return st.one_of(
        obj,
        st.tuples(obj, extra).map(lambda pair: {**pair[1], **pair[0]}),
        _json_values(),
    )


def _routes(app: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every route with a JSON body: (method, path, its resolved schema)."""
    doc = app.openapi()
    found = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            schema = body["schema"]
            if "$ref" in schema:
                schema = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            found.append((method.upper(), path, schema))
    return found


def test_every_route_body_is_a_4xx_or_a_success_never_a_5xx(tmp_path: Path) -> None:
    s = fast_settings(str(tmp_path), bot_delay_s=5.0, deal_pacing_s=5.0,
                      signup_rate="100000/minute", room_rate="100000/minute",
                      room_rate_per_address="100000/minute", max_rooms_per_player=100000)
    app = create_app(s)
    with live_server(s, app) as base, httpx.Client(base_url=base, timeout=30) as client, \
            tracebacks() as seen:
        token = client.post("/api/players", json={"name": "ann"}).json()["token"]
        routes = _routes(app)
        assert {p for _, p, _ in routes} >= {"/api/players", "/api/rooms"}, routes
        statuses: set[int] = set()

        @settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])
        @given(data=st.data())
        def check(data: st.DataObject) -> None:
            method, path, schema = data.draw(st.sampled_from(routes))
            body = data.draw(_bodies(schema))
            text = json.dumps(body, allow_nan=True)
            r = client.request(method, path, content=text.encode(), headers={
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            statuses.add(r.status_code)
            assert r.status_code < 500, (path, text, r.status_code, r.text)
            if r.status_code >= 400:
                detail = r.json()["detail"]
                assert isinstance(detail, str), (path, text, r.text)
            assert not seen, seen

        check()
    assert statuses & {400, 422} and 200 in statuses, statuses
