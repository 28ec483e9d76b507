"""Every option of a new room is checked before the room exists: a refused request is a 400
naming the field and changes nothing; an accepted one is a room whose first deal deals,
plays and ends (docs/protocol.md, "Limits")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from shengji.core.errors import RulesetError
from shengji.core.ruleset import PRESETS, preset
from tests.ruleset_options import option_dicts, table_shapes
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room


def _post(base: str, token: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{base}/api/rooms", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )


def _plays_one_deal(base: str, token: str, room: dict[str, Any]) -> None:
    """Bots in every seat: the room's first deal is dealt, played and ends (match over).
    The client resumes from seq 0: a deal of two cards a seat (kitty 208 of 216) can end
    before a loaded machine lets the client join, and the room's backlog replays it."""
    c = Client(base, room["code"], token, last_seq=0)
    try:
        over = c.wait(lambda m: m["t"] == "match_over", timeout=120)
    finally:
        c.close()
    record = httpx.get(f"{base}/api/games/{over['game']}", timeout=10).json()
    assert record["result"]["deals"] == 1 and record["actions"]


def test_kitty_of_108_is_refused_and_the_server_keeps_serving(server: str) -> None:
    """The report: a kitty of 108 dealt hands of 0 cards and spun the server at 100% CPU."""
    p = new_player(server, "ann")
    r = _post(server, p["token"], {"preset": "classic", "options": {"kitty_size": 108}})
    assert r.status_code == 400
    assert r.json()["field"] == "options.kitty_size"
    assert "kitty_size must be 0..104" in r.json()["detail"]
    assert httpx.get(f"{server}/api/rooms").json() == []  # nothing was created
    assert httpx.get(f"{server}/healthz", timeout=2).json()["ok"] is True
    room = new_room(server, p["token"], max_deals=1, bots={i: "random" for i in range(4)})
    _plays_one_deal(server, p["token"], room)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"preset": "nope"}, "preset"),
        ({"options": {"kitty_size": 10**30}}, "options.kitty_size"),
        ({"options": {"players": 5, "kitty_size": 8}}, "options.players"),
        ({"options": {"level_sequence": ["A", "2"]}}, "options.level_sequence"),
        ({"options": {"level_sequence": ["2", "Z"]}}, "options.level_sequence"),
        ({"options": {"bogus": 1}}, "options.bogus"),
        ({"preset": "three-player", "options": {"bid_open": 400}}, "options.bid_open"),
        ({"max_deals": 0}, "max_deals"),
        ({"max_deals": 10**30}, "max_deals"),
        ({"stakes": {"kind": "gold"}}, "stakes"),
        ({"stakes": {"kind": "coins", "coefficient": 10**30}}, "stakes"),
        ({"bots": {"1": "search:inf"}}, "bots.1"),
        ({"bots": {"1": "search:nan"}}, "bots.1"),
        ({"bots": {"2": "search:1e12"}}, "bots.2"),
        ({"bots": {"2": "search:100000w"}}, "bots.2"),
        ({"bots": {"1": "search:5000"}}, "bots.1"),  # past this server's 2 s bot budget
        ({"bots": {"4": "random"}}, "bots.4"),  # four seats: 0..3
        ({"bots": {"-1": "random"}}, "bots.-1"),
    ],
)
def test_bad_room_options_are_a_400_naming_the_field(
    server: str, body: dict[str, Any], field: str
) -> None:
    p = new_player(server, "bea")
    r = _post(server, p["token"], body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and r.json()["detail"]
    assert httpx.get(f"{server}/api/rooms").json() == []


def test_add_bot_refuses_endless_search_bots(server: str) -> None:
    p = new_player(server, "cai")
    room = new_room(server, p["token"])
    c = Client(server, room["code"], p["token"])
    try:
        for name in ("search:inf", "search:nan", "search:1e12", "search:99999999w"):
            c.send({"t": "add_bot", "v": 1, "seat": 1, "bot": name})
            err = c.wait(lambda m: m["t"] == "error")
            assert err["code"] == "unknown-bot" and "search" in err["message"]
        c.send({"t": "add_bot", "v": 1, "seat": 1, "bot": "Search:300"})
        update = c.wait(lambda m: m["t"] == "room")
        assert update["room"]["seats"][1]["bot"] == "search:300"
    finally:
        c.close()
    seats = httpx.get(f"{server}/api/rooms/{room['code']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["empty", "bot", "empty", "empty"]


@pytest.mark.parametrize(
    "gid",
    # past PostgreSQL's integer ids, past SQLite's, past anything; none; not integers
    ["2147483648", "9223372036854775808", "1" + "0" * 30, "-1", "0", "abc", "1e5", "1.5", "%00",
     "7"],
)
def test_games_of_any_id_are_never_a_500(server: str, gid: str) -> None:
    """Nor their replay (an id past the database's integers reached the driver: 500)."""
    for path in (f"/api/games/{gid}", f"/api/games/{gid}?download=1", f"/api/games/{gid}/replay"):
        r = httpx.get(f"{server}{path}", timeout=5)
        assert r.status_code in (404, 422), (path, r.status_code)


def _players(name: str, options: dict[str, Any]) -> int:
    try:
        return preset(name, options).players
    except (RulesetError, TypeError, ValueError):
        return PRESETS[name].players


def test_any_room_options_are_refused_by_field_or_play_a_deal(tmp_path: Path) -> None:
    """Property: random option dicts over every preset: a 400 naming the field, or a room
    (bots in every seat) whose first deal deals, plays and ends; the server serves on."""
    # one player creates every room: lift the per-player quotas (server/http/quotas.py)
    lifted = fast_settings(
        str(tmp_path),
        room_rate="10000/minute",
        room_rate_per_address="10000/minute",
        max_rooms_per_player=10000,
    )
    with live_server(lifted) as base:
        token = new_player(base, "prop")["token"]

        @settings(
            max_examples=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(
            name=st.sampled_from(sorted(PRESETS)),
            options=st.one_of(option_dicts(json_safe=True), table_shapes(), table_shapes()),
        )
        def check(name: str, options: dict[str, Any]) -> None:
            n = _players(name, options)
            body = {
                "preset": name,
                "options": options,
                "max_deals": 1,
                "bots": {str(i): "random" for i in range(n)},
            }
            r = _post(base, token, body)
            if r.status_code == 400:
                event("refused")
                field = r.json()["field"]
                assert field == "preset" or field.startswith("options."), r.text
                return
            event("played")
            assert r.status_code == 200, r.text
            _plays_one_deal(base, token, r.json())

        check()
        assert httpx.get(f"{base}/healthz", timeout=2).json()["ok"] is True
