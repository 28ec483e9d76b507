"""House rules over HTTP: ``/api/meta`` lists the editor's fields, ``POST /api/rules/check``
answers as room creation would (the ruleset and what changed, or 400 naming the field),
and a room keeps the changed fields."""

from __future__ import annotations

import httpx

from shengji.core.ruleset import FIELD_CHOICES, Ruleset
from shengji.server.table.rule_fields import EDITABLE, GROUPS, rule_fields
from tests.server.helpers import new_player, new_room

FIVE = {"tractor_follow": "free", "kitty_cap": 8, "throw_policy": "never",
        "rebury": True, "dealer_rotation": "same"}


def test_every_editable_field_is_a_ruleset_field_in_one_group() -> None:
    names = [n for names in GROUPS.values() for n in names]
    assert len(names) == len(set(names)) == len(EDITABLE)
    fields = set(Ruleset().to_dict())
    assert fields >= EDITABLE
    assert fields - EDITABLE == {"name", "ruff_compare"}
    for g in rule_fields():
        for f in g["fields"]:
            if f["kind"] == "choice" and f["name"] in FIELD_CHOICES:
                assert f["choices"] == list(FIELD_CHOICES[f["name"]])


def test_the_check_names_the_field_and_creates_nothing(server: str) -> None:
    meta = httpx.get(f"{server}/api/meta").json()
    assert meta["rule_fields"] == rule_fields()
    ok = httpx.post(f"{server}/api/rules/check", json={"preset": "classic", "options": FIVE})
    assert ok.status_code == 200 and ok.json()["changed"] == FIVE
    assert ok.json()["rules"] == {"preset": "classic", "options": FIVE}
    bad = httpx.post(f"{server}/api/rules/check",
                     json={"preset": "classic", "options": {"kitty_size": 7}})
    assert bad.status_code == 400 and bad.json()["field"] == "options.kitty_size"
    assert "split evenly" in bad.json()["detail"]
    odd = httpx.post(f"{server}/api/rules/check",
                     json={"preset": "one-deck", "options": {"partnership": "find-friend",
                                                             "friend_call": "other-copy"}})
    assert odd.status_code == 400 and odd.json()["field"] == "options.friend_call"
    assert httpx.get(f"{server}/api/rooms").json() == []


def test_a_room_keeps_its_house_rules(server: str) -> None:
    token = new_player(server, "ho")["token"]
    room = new_room(server, token, preset="classic", private=True, options=FIVE)
    for k, v in FIVE.items():
        assert room["ruleset"][k] == v


def test_a_player_saves_loads_and_forgets_house_rules(server: str) -> None:
    token = new_player(server, "sa")["token"]
    auth = {"Authorization": f"Bearer {token}"}
    url = f"{server}/api/me/rules"
    assert httpx.get(url, headers=auth).json() == {"rules": []}
    body = {"preset": "classic", "options": {**FIVE, "decks": 2}}  # decks: the preset's
    saved = httpx.put(f"{url}/Friday night", json=body, headers=auth)
    assert saved.status_code == 200
    assert saved.json() == {"name": "Friday night", "preset": "classic", "options": FIVE}
    bad = httpx.put(f"{url}/broken", json={"preset": "classic", "options": {"kitty_size": 7}},
                    headers=auth)
    assert bad.status_code == 400 and bad.json()["field"] == "options.kitty_size"
    (kept,) = httpx.get(url, headers=auth).json()["rules"]
    assert (kept["name"], kept["preset"], kept["options"]) == ("Friday night", "classic", FIVE)
    other = new_player(server, "ot")["token"]
    assert httpx.get(url, headers={"Authorization": f"Bearer {other}"}).json() == {"rules": []}
    assert httpx.get(url).status_code == 401
    assert httpx.delete(f"{url}/Friday night", headers=auth).status_code == 200
    assert httpx.delete(f"{url}/Friday night", headers=auth).status_code == 404
    assert httpx.get(url, headers=auth).json() == {"rules": []}
