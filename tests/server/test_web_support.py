"""What the browser table needs from the server: the static files at ``/``, dry-run
``check`` messages, hints from a named bot, and the attackers' point cards in snapshots."""

from __future__ import annotations

import random

import httpx

from shengji.core.cards import cards_str, parse_cards, points
from shengji.core.ruleset import PRESETS
from shengji.core.state import DealState
from shengji.core.views import view_for
from shengji.server.wire.messages import render_view
from tests.server.helpers import Client, Msg, new_player, new_room


def test_the_browser_table_is_served_at_the_root(server: str) -> None:
    page = httpx.get(f"{server}/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="importmap">' in page.text and "/app.js" in page.text
    for path in ("/app.js", "/cards.js", "/vendor/preact/preact.mjs", "/vendor/htm/htm.mjs"):
        r = httpx.get(f"{server}{path}")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], path
    assert httpx.get(f"{server}/i18n/zh-CN.json").json()["card.BJ"] == "大王"
    # the API still wins over the static mount
    assert httpx.get(f"{server}/api/meta").json()["protocol"] == 3
    assert httpx.get(f"{server}/nope.js").status_code == 404


def _checked(c: Client, actions: list[str]) -> list[Msg]:
    c.send({"t": "check", "v": 1, "actions": actions})
    msg = c.wait(lambda m: m["t"] in ("checked", "error"))
    assert msg["t"] == "checked", msg
    results: list[Msg] = msg["results"]
    return results


def test_check_is_a_dry_run_and_hints_come_from_the_named_bot(server: str) -> None:
    me = new_player(server, "ann")
    room = new_room(
        server, me["token"], max_deals=1, bots={"1": "random", "2": "random", "3": "random"}
    )
    c = Client(server, room["code"], me["token"])
    [r] = _checked(c, ["pass"])
    assert not r["ok"] and r["code"] == "not-seated"
    c.send({"t": "sit", "v": 1, "seat": 0})
    c.wait(lambda m: m["t"] == "room" and m["room"]["seats"][0]["kind"] == "human")
    [r] = _checked(c, ["pass"])
    assert r == {
        "action": "pass",
        "ok": False,
        "code": "wrong-phase",
        "message": "no match is being played",
        "note": None,
    }
    c.send({"t": "ready", "v": 1})
    # play until it is my turn in the tricks
    while True:
        m = c.wait(lambda m: m["t"] in ("update", "match_over"))
        assert m["t"] == "update"
        if m["to_act"] == 0 and m["phase"] in ("declaring", "burying", "playing"):
            if m["phase"] == "playing":
                break
            c.send({"t": "hint", "v": 1, "bot": "heuristic"})
            c.act(c.wait(lambda m: m["t"] == "hint")["action"])
    seq = c.last_seq
    c.send({"t": "hint", "v": 1, "bot": "heuristic"})
    hint = c.wait(lambda m: m["t"] == "hint")["action"]
    assert hint.startswith("play ")
    good, bad, junk = _checked(c, [hint, "play BJ BJ BJ", "fly away"])
    note = good.pop("note")
    assert good == {"action": hint, "ok": True, "code": None, "message": None}
    assert note in (None, "throw")  # a throw is checked against the other hands when played
    assert not bad["ok"] and bad["code"] in ("not-in-hand", "wrong-count", "bad-notation")
    assert not junk["ok"] and junk["code"] == "bad-notation" and junk["message"]
    # nothing happened: the same turn is still mine, and no sequence number was taken
    c.send({"t": "sync", "v": 1})
    snap = c.wait(lambda m: m["t"] == "snapshot")
    assert snap["seq"] == seq and snap["game"]["to_act"] == 0
    assert isinstance(snap["game"]["point_cards"], str)
    c.send({"t": "hint", "v": 1, "bot": "no-such-bot"})
    err = c.wait(lambda m: m["t"] in ("error", "hint"))
    assert err["t"] == "error" and err["code"] == "unknown-bot"
    c.close()


def test_point_cards_are_those_of_tricks_the_attackers_won() -> None:
    rng = random.Random(5)
    state = DealState.new(PRESETS["classic"], seed=5, level=0, dealer=0)
    while not state.is_over:
        actor = state.to_act
        assert actor is not None
        state, _ = state.apply(state.legal_actions(actor).sample(rng))
        view = view_for(state, 0)
        if view.tricks and len(view.tricks) % 5 == 0:
            wanted = sorted(
                c
                for t in view.tricks
                if t.winner not in view.defenders
                for _, cs in t.plays
                for c in cs
                if points(c)
            )
            shown = render_view(view, ["2", "2"], False, None).point_cards
            assert shown == cards_str(wanted)
            if not state.is_over:  # before the kitty counts, they are all the points
                assert sum(points(c) for c in parse_cards(shown)) == view.attacker_points
