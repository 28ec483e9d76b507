"""The example deployment (deploy/) says only what the code understands: every
``SHENGJI_*`` it sets is a setting, every command it runs parses, the health check asks a
route the app has, the proxy upgrades WebSockets, and the image installs the pinned
versions of extras that exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from shengji.cli.main import build_parser
from shengji.server.http.app import create_app
from shengji.server.settings import Settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
ROOT = DEPLOY.parent


def test_every_variable_the_deployment_sets_is_a_setting() -> None:
    fields = {f"SHENGJI_{name.upper()}" for name in Settings.model_fields}
    for name in ("Dockerfile", "compose.yaml"):
        used = set(re.findall(r"SHENGJI_[A-Z_]+", (DEPLOY / name).read_text()))
        assert used, name
        assert used <= fields, (name, used - fields)


def test_the_commands_it_runs_parse() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    commands = [
        re.findall(r'"([^"]+)"', line)
        for line in re.findall(r"^\s*command: (\[.*\])$", compose, re.M)
    ]
    shengji = [c for c in commands if c and c[0] in ("serve", "db")]
    assert ["db", "upgrade"] in shengji and ["serve"] in shengji
    for args in shengji:
        build_parser().parse_args(args)


def test_the_health_check_asks_a_route_of_the_app() -> None:
    (path,) = re.findall(r"http://127\.0\.0\.1:8765(/\w+)", (DEPLOY / "Dockerfile").read_text())
    routes = create_app(Settings()).openapi()["paths"]  # included routers' routes too
    assert path == "/readyz" and "get" in routes[path]


def test_the_image_installs_pinned_extras_that_exist() -> None:
    docker = (DEPLOY / "Dockerfile").read_text()
    # both stages (the compile and the image) install the checkout in place, pinned
    found = re.findall(r'pip install -c constraints\.txt -e "\.\[([a-z,]+)\]"', docker)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert len(found) == 2
    for extras in found:
        assert set(extras.split(",")) <= set(project["optional-dependencies"])
    assert "USER shengji" in docker


def test_the_proxy_upgrades_websockets_and_keeps_metrics_inside() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    ws = conf[conf.index("location /ws/") : conf.index("}", conf.index("location /ws/"))]
    for line in (
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
    ):
        assert line in ws, line
    assert "location = /metrics {\n        return 404;" in conf
    # the client address: overwritten by nginx everywhere, trusted from the proxy only
    forwarded = re.findall(r"proxy_set_header X-Forwarded-For (\S+);", conf)
    assert forwarded and set(forwarded) == {"$remote_addr"}, forwarded
    assert "FORWARDED_ALLOW_IPS: \"*\"" not in (DEPLOY / "compose.yaml").read_text()


def _service(compose: str, name: str) -> str:
    """The text of one service of compose.yaml (up to the next one)."""
    start = compose.index(f"\n  {name}:\n")
    nxt = re.search(r"^  [a-z]+:\n", compose[start + 2:], re.M)
    return compose[start:start + 2 + nxt.start()] if nxt else compose[start:]


def test_redis_has_a_password_on_a_private_network() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    redis, postgres = _service(compose, "redis"), _service(compose, "postgres")
    assert '"--requirepass", "${REDIS_PASSWORD:?' in redis
    assert re.search(r"^  private:.*\n    internal: true$", compose, re.M)
    for service in (redis, postgres):
        assert "networks: [private]" in service and "ports:" not in service
    assert "SHENGJI_REDIS_URL: redis://:${REDIS_PASSWORD:?" in compose
    assert "SHENGJI_BUS_SECRET: ${SHENGJI_BUS_SECRET:?" in compose
    (proxy_ip,) = re.findall(r"ipv4_address: (\S+)", _service(compose, "proxy"))
    assert f'FORWARDED_ALLOW_IPS: "{proxy_ip}"' in compose
