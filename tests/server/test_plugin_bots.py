"""The server seats plug-in bots its operator installed (entry points in the group
``shengji.bots``), by name, and never imports a path a client names."""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint
from pathlib import Path

import httpx
import pytest

from shengji.bots import plugins
from shengji.server.table.validate import server_bot
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room

PATH = "tests.bots.plugin_examples:SlowRandomBot"


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator installed a package whose entry point ``slowpoke`` is ``PATH`` (what pip
    writes into its ``entry_points.txt``; tests/bots/test_plugins.py installs a real one)."""
    ep = EntryPoint(name="slowpoke", value=PATH, group=plugins.GROUP)
    monkeypatch.setattr(plugins, "_entry_points", lambda: {"slowpoke": ep})


def test_server_bot_takes_installed_plugins_by_name_only(installed: None) -> None:
    assert server_bot(" SlowPoke ", 2.0) == "slowpoke"
    with pytest.raises(ValueError, match="import path; this server seats only built-in bots "
                       r"and the plug-ins its operator installed \(slowpoke\)"):
        server_bot(PATH, 2.0)
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        server_bot("nobody", 2.0)


def test_without_the_package_the_name_is_unknown() -> None:
    with pytest.raises(ValueError, match="unknown bot 'slowpoke'"):
        server_bot("slowpoke", 2.0)


def test_a_room_seats_and_plays_an_installed_plugin(
    installed: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="shengji.server.bots")
    with live_server(fast_settings(str(tmp_path))) as base:
        assert "slowpoke" in httpx.get(f"{base}/api/meta", timeout=10).json()["bots"]
        p = new_player(base, "host")
        refused = httpx.post(
            f"{base}/api/rooms", json={"bots": {"1": PATH}},
            headers={"Authorization": f"Bearer {p['token']}"}, timeout=30,
        )
        assert refused.status_code == 400 and refused.json()["field"] == "bots.1"
        room = new_room(base, p["token"], max_deals=1,
                        bots={i: "slowpoke" if i % 2 else "random" for i in range(4)})
        c = Client(base, room["code"], p["token"])
        try:
            over = c.wait(lambda m: m["t"] == "match_over", timeout=120)
        finally:
            c.close()
        record = httpx.get(f"{base}/api/games/{over['game']}", timeout=10).json()
        assert record["result"]["deals"] == 1
        assert record["players"] == ["random", "slowpoke", "random", "slowpoke"]
    # the plug-in itself played: no move of it was replaced by the fallback
    assert not [r for r in caplog.records if r.name == "shengji.server.bots"]
