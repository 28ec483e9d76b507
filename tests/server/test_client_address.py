"""Honest client addresses and quotas counted once per group (server/quotas.py, deploy/).

- Through the example deployment's proxy configuration (nginx.conf's ``X-Forwarded-For``,
  compose.yaml's ``FORWARDED_ALLOW_IPS`` and the proxy's address, read from the files) a
  client that writes its own ``X-Forwarded-For`` does not move the per-address limit; the
  configuration the deployment had before (trust every address, nginx appending) lets it,
  so the check can fail.
- Three instances sharing Redis enforce one sign-up limit together.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from pathlib import Path

import httpx
import pytest
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from shengji.server.http.app import create_app
from shengji.server.http.quotas import OverQuota, Quotas
from tests.server.helpers import fast_settings
from tests.server.route_cluster import cluster

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
ATTACKER = "203.0.113.9"


def _nginx_forwarded(conf: str, client_header: str | None, remote_addr: str) -> str:
    """What nginx (``conf``'s ``location /`` rule) sends upstream as X-Forwarded-For."""
    rule = re.findall(r"proxy_set_header X-Forwarded-For (\S+);", conf)[-1]
    if rule == "$remote_addr":
        return remote_addr
    assert rule == "$proxy_add_x_forwarded_for", rule
    return f"{client_header}, {remote_addr}" if client_header else remote_addr


def _deployment() -> tuple[str, str, str]:
    """The nginx rule text, FORWARDED_ALLOW_IPS and the proxy's address, as deployed."""
    compose = (DEPLOY / "compose.yaml").read_text()
    (trusted,) = re.findall(r'^\s+FORWARDED_ALLOW_IPS: "([^"]*)"', compose, re.M)
    proxy = compose[compose.index("\n  proxy:"):]
    (proxy_ip,) = re.findall(r"^\s+ipv4_address: (\S+)", proxy, re.M)
    return (DEPLOY / "nginx.conf").read_text(), trusted, proxy_ip


def _signups_through_proxy(tmp: Path, conf: str, trusted: str, proxy_ip: str,
                           attempts: int) -> int:
    """Sign-ups that get through for one client whose every request claims another
    address; the app behind uvicorn's proxy-headers trust as the deployment sets it."""
    settings = fast_settings(str(tmp), signup_rate="3/minute")
    app = create_app(settings)
    trusting = ProxyHeadersMiddleware(app, trusted_hosts=trusted)

    async def run() -> int:
        ok = 0
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=trusting, client=(proxy_ip, 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://shengji") as c:
                for i in range(attempts):
                    spoofed = f"198.51.100.{i + 1}"
                    forwarded = _nginx_forwarded(conf, spoofed, ATTACKER)
                    r = await c.post("/api/players", json={"name": f"p{i}"},
                                     headers={"X-Forwarded-For": forwarded})
                    assert r.status_code in (200, 429), r.text
                    ok += r.status_code == 200
        return ok

    return asyncio.run(run())


def test_a_spoofed_forwarded_header_does_not_move_the_limit(tmp_path: Path) -> None:
    conf, trusted, proxy_ip = _deployment()
    assert _signups_through_proxy(tmp_path / "now", conf, trusted, proxy_ip, 8) == 3
    # the configuration before: trust everyone, nginx appends: every spoofed sign-up passes
    before = conf.replace("$remote_addr;", "$proxy_add_x_forwarded_for;")
    assert _signups_through_proxy(tmp_path / "before", before, "*", proxy_ip, 8) == 8


def test_a_request_not_from_the_proxy_cannot_claim_an_address(tmp_path: Path) -> None:
    """Straight to an instance (not through the proxy): the header is ignored."""
    _, trusted, _ = _deployment()
    settings = fast_settings(str(tmp_path), signup_rate="2/minute")
    app = create_app(settings)
    trusting = ProxyHeadersMiddleware(app, trusted_hosts=trusted)

    async def run() -> list[int]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=trusting, client=(ATTACKER, 40000))
            async with httpx.AsyncClient(transport=transport, base_url="http://shengji") as c:
                return [(await c.post("/api/players", json={"name": "x"}, headers={
                    "X-Forwarded-For": f"198.51.100.{i}"})).status_code for i in range(4)]

    assert asyncio.run(run()) == [200, 200, 429, 429]


def test_three_instances_sharing_redis_enforce_one_limit(tmp_path: Path) -> None:
    with cluster(tmp_path, ["a", "b", "c"], SHENGJI_SIGNUP_RATE="4/minute") as group:
        answers = []
        for i in range(12):  # round robin, as a balancer would
            inst = group.instances[i % 3]
            r = httpx.post(f"{inst.base}/api/players", json={"name": f"p{i}"}, timeout=10)
            answers.append(r.status_code)
        assert answers.count(200) == 4, answers
        assert set(answers) == {200, 429}, answers


def test_quotas_count_here_while_the_shared_count_is_away(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Redis does not answer: each process still enforces the limit alone, says so once."""
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    q = Quotas("3/minute", "1/minute", "1/minute", f"redis://127.0.0.1:{closed}/0", "t:")

    async def run() -> list[bool]:
        out = []
        for _ in range(5):
            try:
                await q.signup("192.0.2.4")
                out.append(True)
            except OverQuota:
                out.append(False)
        return out

    with caplog.at_level(logging.WARNING, logger="shengji.server"):
        assert asyncio.run(run()) == [True, True, True, False, False]
    said = [r for r in caplog.records if "shared count" in r.getMessage()]
    assert len(said) == 1, said
