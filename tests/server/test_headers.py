"""Security headers on every response (server/http/headers.py): pages, static files, the API,
errors and refusals; the pages' policy allows no inline script but their import map."""

from __future__ import annotations

import asyncio
import re

import httpx
from fastapi.routing import APIRoute

from shengji.server.http.app import create_app
from shengji.server.http.headers import csp_hash, scan_page
from shengji.server.http.static import WEB_STATIC
from tests.server.helpers import fast_settings, new_player

PAGES = sorted(WEB_STATIC.glob("*.html"))


def _policy(r: httpx.Response) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in r.headers["Content-Security-Policy"].split(";"):
        name, _, value = part.strip().partition(" ")
        out[name] = value
    return out


def _assert_common(r: httpx.Response) -> None:
    h = r.headers
    assert h["X-Content-Type-Options"] == "nosniff", r.url
    assert h["X-Frame-Options"] == "DENY", r.url
    assert h["Referrer-Policy"] == "no-referrer", r.url
    assert _policy(r)["frame-ancestors"] == "'none'", r.url


def test_every_kind_of_route_carries_the_headers(server: str) -> None:
    token = new_player(server, "ann")["token"]
    answers = {
        "index": httpx.get(f"{server}/"),
        "page": httpx.get(f"{server}/leaderboard.html"),
        "script": httpx.get(f"{server}/app.js"),
        "vendor": httpx.get(f"{server}/vendor/preact/preact.mjs"),
        "style": httpx.get(f"{server}/styles.css"),
        "json file": httpx.get(f"{server}/i18n/en.json"),
        "missing file": httpx.get(f"{server}/nope.txt"),
        "api": httpx.get(f"{server}/api/meta"),
        "health": httpx.get(f"{server}/healthz"),
        "api 404": httpx.get(f"{server}/api/rooms/nope"),
        "api 401": httpx.post(f"{server}/api/rooms", json={}),
        "api 422": httpx.post(f"{server}/api/players", json={}),
        "api 400": httpx.post(f"{server}/api/players", json={"name": "a\x07"}),
        "room": httpx.post(
            f"{server}/api/rooms", json={}, headers={"Authorization": f"Bearer {token}"}
        ),
        "docs": httpx.get(f"{server}/docs"),
    }
    expected = {"missing file": 404, "api 404": 404, "api 401": 401, "api 422": 422}
    expected["api 400"] = 400
    for kind, r in answers.items():
        assert r.status_code == expected.get(kind, 200), (kind, r.status_code)
        _assert_common(r)
    for kind in ("api", "health", "api 404", "room"):
        assert _policy(answers[kind])["default-src"] == "'none'", kind
    for kind in ("index", "page", "script", "style", "missing file"):
        policy = _policy(answers[kind])
        assert policy["default-src"] == "'self'"
        assert policy["connect-src"] == "'self'"  # the room's WebSocket: same origin
        assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'"
        assert "unsafe" not in policy["script-src"] and "unsafe" not in policy["style-src"]
    # /docs keeps working: Swagger UI's CDN and start-up script, still never framed
    assert "cdn.jsdelivr.net" in _policy(answers["docs"])["script-src"]


def test_the_pages_policy_allows_exactly_their_import_maps(server: str) -> None:
    for page in PAGES:
        r = httpx.get(f"{server}/{page.name}")
        sources = _policy(r)["script-src"].split()
        found = scan_page(r.text)
        maps = [text for kind, text in found.scripts if kind == "importmap"]
        assert maps, page.name  # the modules name preact through it
        assert all(f"'{csp_hash(text)}'" in sources for text in maps)
        assert sources[0] == "'self'" and len(sources) == 1 + len({csp_hash(t) for t in maps})


def test_the_pages_hold_no_inline_script_handler_or_style() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        found = scan_page(text)
        assert [kind for kind, _ in found.scripts] == ["importmap"], page.name
        assert found.handlers == [] and found.styles == [], page.name
        assert not re.search(r"<style[\s>]", text), page.name
    for script in WEB_STATIC.glob("*.js"):
        code = script.read_text(encoding="utf-8")
        assert not re.search(r"\beval\(|new Function\(|innerHTML|javascript:", code), script


def test_an_unexpected_server_error_still_carries_the_headers(tmp_path: object) -> None:
    app = create_app(fast_settings(str(tmp_path)))

    async def boom() -> None:
        raise RuntimeError("boom")

    app.router.routes.insert(0, APIRoute("/boom", boom))

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            return await client.get("/boom")

    r = asyncio.run(get())
    assert r.status_code == 500
    _assert_common(r)
