"""Stakes on the server: rooms that play for ratings or coins settle each finished deal once,
in one transaction with its ledger rows, also across a restart; the leaderboard API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx

from shengji.bots.driver import play_match
from shengji.bots.random_bot import RandomBot
from shengji.core.match import MatchState
from shengji.core.ruleset import PRESETS
from shengji.core.scoring import level_change
from shengji.core.stakes import StakeRules, settle
from shengji.core.state import DealResult
from shengji.server.live.rooms import Room, Seat
from shengji.server.live.stakes import settle_deals
from shengji.server.store.models import STARTING_COINS, STARTING_RATING
from shengji.server.store.storage import Store
from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room

CLASSIC = PRESETS["classic"]


def _match(seed: str, deals: int) -> MatchState:
    m, _ = play_match(CLASSIC, [RandomBot(f"{seed}{i}") for i in range(4)], seed, deals=deals)
    return m


def _fake_room(
    store: Store, rid: int, match: MatchState, seats: list[Seat], rules: StakeRules
) -> Room:
    """What ``settle_deals`` reads of a room."""
    room = SimpleNamespace(
        stakes=rules,
        match=match,
        store=store,
        rid=rid,
        match_no=1,
        seats=seats,
        code=f"r{rid}",
        rosters={},
    )
    return cast(Room, room)


async def _setup(tmp: Path, rooms: int) -> tuple[Store, list[str], list[int]]:
    store = Store(f"sqlite+aiosqlite:///{tmp / 'db.sqlite'}")
    await store.start()
    players = [(await store.players.create(f"p{i}"))[0].id for i in range(4)]
    rids = [
        await store.rooms.create(f"code{i}", "classic", {}, "s", False, None, None, {}, None)
        for i in range(rooms)
    ]
    return store, players, rids


def test_settling_a_deal_twice_changes_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        store, players, (rid,) = await _setup(tmp_path, 1)
        m = _match("twice", 1)
        res = m.history[0].result
        rules = StakeRules("coins", coefficient=1000)
        first = await store.ledger.settle_deal(rid, 1, 0, res, rules, [*players[:3], None])
        assert first is not None
        again = await store.ledger.settle_deal(rid, 1, 0, res, rules, [*players[:3], None])
        assert again is None
        assert await store.ledger.settled_deals(rid, 1) == {0}
        for seat, pid in enumerate(players):
            mine = await store.ledger.of_player(pid)
            expected = STARTING_COINS + (first.deltas[seat] if seat < 3 else 0)
            assert mine["coins"] == expected
            assert len(mine["ledger"]) == (1 if seat < 3 else 0)
            assert mine["rating"] == STARTING_RATING
        await store.close()

    asyncio.run(go())


def test_a_restored_room_settles_only_what_a_crash_left_unsettled(tmp_path: Path) -> None:
    async def go() -> None:
        store, players, (rid,) = await _setup(tmp_path, 1)
        full = _match("crash", 4)
        assert len(full.history) == 4
        seats = [Seat("human", p, f"p{i}") for i, p in enumerate(players)]
        rules = StakeRules("rating")
        # the server settled deals 0-1, then died after the last action of deal 2 was logged
        before = _fake_room(store, rid, full, seats, rules)
        before.match = cast(Any, SimpleNamespace(history=full.history[:2]))
        assert await settle_deals(before) == 2
        assert await settle_deals(before) == 0
        # restart: the match is replayed (all four deals), settling runs again
        after = _fake_room(store, rid, full, seats, rules)
        assert await settle_deals(after) == 2
        assert await settle_deals(after) == 0
        total = 0
        for pid in players:
            mine = await store.ledger.of_player(pid)
            deals = sorted(r["deal_no"] for r in mine["ledger"])
            assert deals == [d.deal_no for d in full.history]
            assert mine["rating"] == STARTING_RATING + sum(r["delta"] for r in mine["ledger"])
            # the same as settling the whole match at once, from the starting ratings
            assert mine["deals"]["rating"] == 4
            total += mine["rating"]
        assert total == 4 * STARTING_RATING  # zero-sum
        await store.close()

    asyncio.run(go())


def test_concurrent_rooms_settle_every_deal_once(tmp_path: Path) -> None:
    async def go() -> None:
        store, players, rids = await _setup(tmp_path, 6)
        rules = StakeRules("coins", coefficient=100)
        rooms = []
        for i, rid in enumerate(rids):
            # the same four players in every room, seated differently
            order = players[i % 4 :] + players[: i % 4]
            seats = [Seat("human", p, "x") for p in order]
            rooms.append(_fake_room(store, rid, _match(f"c{i}", 3), seats, rules))
        counts = await asyncio.gather(*(settle_deals(r) for r in rooms for _ in range(3)))
        settled = sum(len(r.match.history) for r in rooms if r.match is not None)
        assert sum(counts) == settled
        expected = dict.fromkeys(players, STARTING_COINS)
        for r in rooms:
            assert r.match is not None
            ids = [s.player for s in r.seats]
            for d in r.match.history:
                s = settle(d.result, rules, [0] * 4)
                for seat, pid in enumerate(ids):
                    assert pid is not None
                    expected[pid] += s.deltas[seat]
        for pid in players:
            mine = await store.ledger.of_player(pid, limit=200)
            assert mine["coins"] == expected[pid]
            assert mine["deals"]["coins"] == settled
        await store.close()

    asyncio.run(go())


def test_a_side_of_bots_settles_nothing(tmp_path: Path) -> None:
    async def go() -> None:
        store, players, (rid,) = await _setup(tmp_path, 1)
        m = _match("bots", 2)
        # seats 0 and 2 are partners: the other side is all bots
        seats = [
            Seat("human", players[0], "a"),
            Seat("bot", None, "r", "random"),
            Seat("human", players[1], "b"),
            Seat("bot", None, "r", "random"),
        ]
        assert await settle_deals(_fake_room(store, rid, m, seats, StakeRules("rating"))) == 0
        assert (await store.ledger.of_player(players[0]))["ledger"] == []
        await store.close()

    asyncio.run(go())


# ------------------------------------------------------------------------------ live server


def _ready_in(seat: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["t"] == "room" and bool(m["room"]["seats"][seat]["ready"])


def _play_room(base: str, stakes: dict[str, Any], deals: int) -> tuple[list[dict[str, Any]], str]:
    """Two humans on opposite sides (seats 0 and 1) with two bots; the humans sit, get ready
    and leave the socket, so stand-in bots play for them; returns the players and room."""
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    room = new_room(
        base, ann["token"], max_deals=deals, stakes=stakes, bots={"2": "random", "3": "random"}
    )
    assert room["stakes"] == StakeRules.from_dict(stakes).to_dict()
    for seat, p in enumerate((ann, bob)):
        c = Client(base, room["code"], p["token"])
        c.send({"t": "sit", "v": 1, "seat": seat})
        c.send({"t": "ready", "v": 1})
        c.wait(_ready_in(seat))
        c.close()
    return [ann, bob], room["code"]


def _wait_deals(base: str, pid: str, kind: str, n: int, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        mine: dict[str, Any] = httpx.get(f"{base}/api/players/{pid}/stakes").json()
        if mine["deals"][kind] >= n or time.monotonic() > deadline:
            return mine
        time.sleep(0.1)


def test_a_rating_room_settles_each_deal_and_the_leaderboard_shows_it(tmp_path: Path) -> None:
    settings = fast_settings(str(tmp_path), seat_grace_s=0.0)
    with live_server(settings) as base:
        (ann, bob), code = _play_room(base, {"kind": "rating"}, deals=2)
        a = _wait_deals(base, ann["id"], "rating", 2)
        b = _wait_deals(base, bob["id"], "rating", 2)
        assert a["deals"]["rating"] == b["deals"]["rating"] == 2
        assert a["rating"] + b["rating"] == 2 * STARTING_RATING  # opposite sides
        assert a["rating"] == STARTING_RATING + sum(r["delta"] for r in a["ledger"])
        assert sorted(r["deal_no"] for r in a["ledger"]) == [0, 1]
        assert all(r["kind"] == "rating" and r["reason"] for r in a["ledger"])
        board = httpx.get(f"{base}/api/leaderboard", params={"kind": "rating"}).json()
        assert board["kind"] == "rating"
        assert [e["rank"] for e in board["entries"]] == [1, 2]
        assert {e["name"] for e in board["entries"]} == {"ann", "bob"}
        values = [e["value"] for e in board["entries"]]
        assert values == sorted(values, reverse=True)
        assert (
            httpx.get(f"{base}/api/leaderboard", params={"kind": "coins"}).json()["entries"] == []
        )
        assert httpx.get(f"{base}/api/leaderboard", params={"kind": "gold"}).status_code == 400
        assert httpx.get(f"{base}/api/leaderboard", params={"limit": 0}).status_code == 400
        assert httpx.get(f"{base}/api/players/nobody/stakes").status_code == 404
        assert httpx.get(f"{base}/api/rooms/{code}").json()["stakes"]["kind"] == "rating"


def test_bad_stakes_options_are_refused(server: str) -> None:
    p = new_player(server, "ann")
    h = {"Authorization": f"Bearer {p['token']}"}
    for bad in ({"kind": "gold"}, {"kind": "beans", "coefficient": 10, "house": 20}):
        r = httpx.post(f"{server}/api/rooms", json={"stakes": bad}, headers=h)
        assert r.status_code == 400, r.text
    plain = new_room(server, p["token"])
    assert plain["stakes"]["kind"] == "plain"


def test_a_restart_mid_match_settles_no_deal_twice(tmp_path: Path) -> None:
    # a pause after each deal: the server stops between two deals of the match
    settings = fast_settings(str(tmp_path), seat_grace_s=0.0, deal_end_pause_s=1.0)
    kind = "coins"
    stakes = {"kind": kind, "coefficient": 1000}
    with live_server(settings) as base:
        (ann, bob), code = _play_room(base, stakes, deals=4)
        first = _wait_deals(base, ann["id"], kind, 1)
        assert 1 <= first["deals"][kind] < 4  # stopped while the match is on
    with live_server(settings) as base:  # the room is restored and its match replayed
        a = _wait_deals(base, ann["id"], kind, 4)
        b = _wait_deals(base, bob["id"], kind, 4)
        for mine in (a, b):
            deals = [r["deal_no"] for r in mine["ledger"]]
            assert sorted(deals) == [0, 1, 2, 3], deals
            assert mine[kind] == STARTING_COINS + sum(r["delta"] for r in mine["ledger"])
        assert (
            httpx.get(f"{base}/api/rooms/{code}").json()["stakes"]
            == StakeRules.from_dict(stakes).to_dict()
        )
        assert a[kind] + b[kind] < 2 * STARTING_COINS  # the house keeps a tenth of each deal


# ------------------------------------------------------ 反主/反底 doubling, a room option


def _overturned_deal() -> DealResult:
    """A classic deal the dealer side (seats 0, 2) won by two levels after one 反主 and one
    反底: the stake is 4."""
    return DealResult(
        attacker_points=20,
        kitty_points=0,
        kitty_multiplier=0,
        kitty_gain=0,
        last_winner=0,
        last_winning_cards=(12,),
        change=level_change(20, CLASSIC),
        defenders=(0, 2),
        stake=4,
        failed_throws=0,
    )


def test_a_coin_room_doubles_for_overturns_only_when_it_was_created_so(tmp_path: Path) -> None:
    """Seed 001 states "每次反主游戏基数*2" for 欢乐豆; seed 000's 游戏币 rule does not, so a
    coin room doubles only by choice (docs/rules.md Decision 120)."""

    async def go() -> None:
        store, players, rids = await _setup(tmp_path, 3)
        seats = [Seat("human", p, f"p{i}") for i, p in enumerate(players)]
        deal = SimpleNamespace(deal_no=0, result=_overturned_deal())
        match = cast(MatchState, SimpleNamespace(history=[deal]))
        plain_coins = StakeRules.from_dict({"kind": "coins", "coefficient": 1000})
        doubling = StakeRules.from_dict(
            {"kind": "coins", "coefficient": 1000, "overturn_doubling": True}
        )
        bean_room = StakeRules.from_dict({"kind": "beans", "coefficient": 100, "house": 10})
        assert bean_room.overturn_doubling  # the sheet's default for 欢乐豆
        rooms = [
            _fake_room(store, rid, match, seats, rules)
            for rid, rules in zip(rids, (plain_coins, doubling, bean_room), strict=True)
        ]
        for room in rooms:
            assert await settle_deals(room) == 1
        ledgers = {pid: (await store.ledger.of_player(pid))["ledger"] for pid in players}
        by_room = {
            rid: [next(r for r in ledgers[pid] if r["room_id"] == rid) for pid in players]
            for rid in rids
        }
        # X = Y + 1 = 3 without doubling, 3 × 4 = 12 with it
        assert [r["delta"] for r in by_room[rids[0]]] == [2700, -3000, 2700, -3000]
        assert [r["delta"] for r in by_room[rids[1]]] == [10800, -12000, 10800, -12000]
        assert "stake" not in by_room[rids[0]][0]["reason"]
        assert "stake x4" in by_room[rids[1]][0]["reason"]
        # 欢乐豆: X = 3 points doubled twice = 12; winners 12·100 − 10, losers 12·100 + 10
        assert [r["delta"] for r in by_room[rids[2]]] == [1190, -1210, 1190, -1210]
        for seat, pid in enumerate(players):
            mine = await store.ledger.of_player(pid)
            assert mine["coins"] == STARTING_COINS + (13500 if seat % 2 == 0 else -15000)
        await store.close()

    asyncio.run(go())


def test_the_doubling_option_is_kept_with_the_room_and_refused_when_bad(server: str) -> None:
    p = new_player(server, "ann")
    coins = new_room(server, p["token"], stakes={"kind": "coins", "coefficient": 1000})
    assert coins["stakes"]["overturn_doubling"] is False
    chosen = {"kind": "coins", "coefficient": 1000, "overturn_doubling": True}
    doubled = new_room(server, p["token"], stakes=chosen)
    assert doubled["stakes"]["overturn_doubling"] is True
    assert httpx.get(f"{server}/api/rooms/{doubled['code']}").json()["stakes"] == {
        "kind": "coins",
        "coefficient": 1000,
        "house": 0,
        "slam_points": None,
        "overturn_doubling": True,
    }
    beans = new_room(server, p["token"], stakes={"kind": "beans", "coefficient": 100})
    assert beans["stakes"]["overturn_doubling"] is True
    off = {"kind": "beans", "coefficient": 100, "overturn_doubling": False}
    assert new_room(server, p["token"], stakes=off)["stakes"]["overturn_doubling"] is False
    h = {"Authorization": f"Bearer {p['token']}"}
    for bad, words in (
        ({"kind": "coins", "overturn_doubling": "yes"}, "true or false"),
        ({"kind": "plain", "overturn_doubling": True}, "plain room"),
    ):
        r = httpx.post(f"{server}/api/rooms", json={"stakes": bad}, headers=h)
        assert r.status_code == 400 and words in r.text, r.text


def _coin_deal(base: str, doubling: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """One deal in a coin room (N = 10) that doubles or not: two humans who sit, get ready and
    leave (stand-in bots play for them) and two bots, with the rebury (反底) option on so that
    overturns can happen; returns the deal's ``deal_ended`` event and the ``settled`` message."""
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    stakes = {"kind": "coins", "coefficient": 10, "overturn_doubling": doubling}
    room = new_room(
        base,
        ann["token"],
        max_deals=1,
        stakes=stakes,
        options={"rebury": True},
        bots={"2": "random", "3": "random"},
    )
    watcher = Client(base, room["code"], new_player(base, "cy")["token"])
    watcher.wait(lambda m: m["t"] == "snapshot")
    for seat, p in enumerate((ann, bob)):
        c = Client(base, room["code"], p["token"])
        c.send({"t": "sit", "v": 2, "seat": seat})
        c.send({"t": "ready", "v": 2})
        c.wait(lambda m, s=seat: m["t"] == "room" and bool(m["room"]["seats"][s]["ready"]))
        c.close()
    settled = watcher.wait(lambda m: m["t"] == "settled", timeout=60)
    ended = next(
        e
        for m in watcher.messages
        if m["t"] == "update"
        for e in m["events"]
        if e["type"] == "deal_ended"
    )
    watcher.close()
    return ended, settled


def test_live_coin_rooms_settle_as_configured(tmp_path: Path) -> None:
    """Whatever the deal (random bots), X is Y + 1 or Y + 2, times the deal's stake only in the
    room that doubles."""
    with live_server(fast_settings(str(tmp_path), seat_grace_s=0.0)) as base:
        for doubling in (False, True):
            ended, settled = _coin_deal(base, doubling)
            assert settled["settled"] is True
            dealer_won = not ended["attackers_take_over"] and ended["defender_levels"] > 0
            y = ended["defender_levels"] if dealer_won else ended["attacker_levels"]
            x = (y + (1 if dealer_won else 2)) * (ended["stake"] if doubling else 1)
            assert settled["base"] == x, (doubling, ended, settled)
            assert sorted(settled["deltas"][:2]) == [-x * 10, x * 10 * 9 // 10]
# ------------------------------------------------- who pays: the leaver, never a substitute


def _play_seat_until_match_over(c: Client, seat: int) -> list[dict[str, Any]]:
    """Play ``seat`` by hints until ``match_over``; returns the ``settled`` messages."""
    settled = []
    while True:
        m = c.recv(20)
        assert m["t"] != "error", m
        if m["t"] == "match_over":
            return settled
        if m["t"] == "settled":
            settled.append(m)
        if m["t"] == "update" and m["to_act"] == seat and m["phase"] != "dealing":
            c.send({"t": "hint", "v": 1})
            c.act(c.wait(lambda x: x["t"] == "hint")["action"])


def _sit_both_and_start(
    base: str, stakes: dict[str, Any], deals: int
) -> tuple[dict[str, Any], dict[str, Any], str, Client, Client]:
    """Ann (seat 0) and bob (seat 1, the other side) sit with two bots; both stay connected
    (nobody moves for ann until she acts: the test sets the pace). Returns once the first
    card is dealt."""
    ann, bob = new_player(base, "ann"), new_player(base, "bob")
    room = new_room(
        base, ann["token"], max_deals=deals, stakes=stakes, bots={"2": "random", "3": "random"}
    )
    a = Client(base, room["code"], ann["token"])
    b = Client(base, room["code"], bob["token"])
    for seat, c in ((0, a), (1, b)):
        c.send({"t": "sit", "v": 1, "seat": seat})
        c.wait(lambda m, s=seat: m["t"] == "room" and m["room"]["seats"][s]["kind"] == "human")
    for c in (a, b):
        c.send({"t": "ready", "v": 1})
    b.wait(lambda m: m["t"] == "update" and any(e["type"] == "card_dealt" for e in m["events"]))
    return ann, bob, room["code"], a, b


def test_a_player_who_leaves_mid_deal_still_pays(tmp_path: Path) -> None:
    # decision 131: leaving does not make the deal unsettled; the leaver is settled for it
    settings = fast_settings(str(tmp_path), seat_grace_s=0.0)
    with live_server(settings) as base:
        ann, bob, _, a, b = _sit_both_and_start(base, {"kind": "rating"}, deals=1)
        b.send({"t": "leave", "v": 1})  # the first card is out: bob is on this deal
        b.close()
        settled = _play_seat_until_match_over(a, 0)
        a.close()
        mine, his = (_wait_deals(base, p["id"], "rating", 1) for p in (ann, bob))
    assert [r["deal_no"] for r in mine["ledger"]] == [0]
    assert [r["deal_no"] for r in his["ledger"]] == [0]
    assert his["ledger"][0]["seat"] == 1
    assert mine["ledger"][0]["delta"] == -his["ledger"][0]["delta"] != 0  # zero-sum
    (msg,) = settled
    assert msg["settled"] and msg["players"] == [ann["id"], bob["id"], None, None]
    assert msg["deltas"][1] == his["ledger"][0]["delta"]


def test_a_substitute_is_not_charged_for_the_deal_they_joined(tmp_path: Path) -> None:
    # decision 132: carol takes bob's vacated seat mid-deal: bob pays for deal 0, carol
    # nothing; deal 1 is dealt with carol seated, so she is settled for it
    settings = fast_settings(str(tmp_path), seat_grace_s=0.0)
    kind = "coins"
    with live_server(settings) as base:
        ann, bob, code, a, b = _sit_both_and_start(
            base, {"kind": kind, "coefficient": 100}, deals=2
        )
        b.send({"t": "leave", "v": 1})
        b.close()
        carol = new_player(base, "carol")
        c = Client(base, code, carol["token"])
        c.wait(lambda m: m["t"] == "snapshot" and m["room"]["seats"][1]["kind"] == "empty")
        c.send({"t": "sit", "v": 1, "seat": 1})
        c.wait(lambda m: m["t"] == "room" and m["room"]["seats"][1]["player"] == carol["id"])
        c.close()  # a stand-in plays for her (grace 0); she stays in the seat
        settled = _play_seat_until_match_over(a, 0)
        a.close()
        got = {p["name"]: _wait_deals(base, p["id"], kind, 1) for p in (ann, bob, carol)}
    deals = {name: [r["deal_no"] for r in mine["ledger"]] for name, mine in got.items()}
    assert deals == {"ann": [1, 0], "bob": [0], "carol": [1]}  # newest first
    assert got["bob"][kind] != STARTING_COINS  # the leaver paid or gained deal 0
    carol_row = got["carol"]["ledger"][0]
    assert got["carol"][kind] == STARTING_COINS + carol_row["delta"]  # deal 1 only
    assert [m["players"][1] for m in settled] == [bob["id"], carol["id"]]
