"""Limits against hostile guests (docs/protocol.md, "Limits"): quotas on sign-ups and rooms
answered 429 with ``Retry-After``, rooms nobody uses expire and free the room cap, request
bodies are capped (413 before the body is read), names are checked, chat is capped in
memory and in the database, one address holds a capped number of sockets."""

from __future__ import annotations

import json
import socket
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.helpers import Client, fast_settings, live_server, new_player, new_room, sql


def _auth(token: str, address: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"}
    if address is not None:  # uvicorn trusts X-Forwarded-For from loopback (a local proxy)
        headers["X-Forwarded-For"] = address
    return headers


def _create(base: str, token: str, address: str | None = None, **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/rooms", json=body, headers=_auth(token, address))


def _retry_after(r: httpx.Response, most: int) -> int:
    value = int(r.headers["Retry-After"])
    assert 1 <= value <= most, value
    return value


# ----------------------------------------------------------------------------- quotas


def test_a_burst_of_rooms_from_one_guest_is_cut_off_while_another_guest_still_creates(
    tmp_path: Path,
) -> None:
    settings = fast_settings(str(tmp_path), room_rate="3/minute", room_rate_per_address="50/minute")
    with live_server(settings) as base:
        ann, bob = new_player(base, "ann"), new_player(base, "bob")
        made = [_create(base, ann["token"], private=True) for _ in range(3)]
        assert [r.status_code for r in made] == [200, 200, 200]
        over = _create(base, ann["token"], private=True)
        assert over.status_code == 429
        assert over.json()["detail"] == "too many rooms from one player: at most 3 per 1 minute"
        _retry_after(over, 60)
        # bob, behind the same address, is not held up by ann's burst
        assert _create(base, bob["token"]).status_code == 200
        # the refused request created nothing: ann owns exactly 3 rooms
        codes = [r.json()["code"] for r in made]
        owners = [httpx.get(f"{base}/api/rooms/{c}").json()["owner"] for c in codes]
        assert owners == [ann["id"]] * 3


def test_sign_ups_and_rooms_are_limited_per_address(tmp_path: Path) -> None:
    settings = fast_settings(
        str(tmp_path), signup_rate="4/minute", room_rate_per_address="2/minute"
    )
    with live_server(settings) as base:
        players = [new_player(base, f"p{i}") for i in range(4)]
        r = httpx.post(f"{base}/api/players", json={"name": "p4"})
        assert r.status_code == 429 and "sign-ups from one address" in r.json()["detail"]
        _retry_after(r, 60)
        far = {"X-Forwarded-For": "203.0.113.9"}
        assert httpx.post(f"{base}/api/players", json={"name": "far"}, headers=far).is_success
        # rooms: two players behind one address share its quota
        assert _create(base, players[0]["token"]).status_code == 200
        assert _create(base, players[1]["token"]).status_code == 200
        r = _create(base, players[2]["token"])
        assert r.status_code == 429 and "rooms from one address" in r.json()["detail"]
        # an IPv6 client is one /64: another host in it shares the quota, another /64 not
        v6 = [_create(base, players[3]["token"], f"2001:db8:1:2::{i}") for i in (1, 2, 3)]
        assert [x.status_code for x in v6] == [200, 200, 429]
        assert _create(base, players[3]["token"], "2001:db8:1:3::1").status_code == 200


def test_a_player_may_own_only_so_many_live_rooms(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), max_rooms_per_player=2)) as base:
        ann = new_player(base, "ann")
        assert [_create(base, ann["token"]).status_code for _ in range(2)] == [200, 200]
        r = _create(base, ann["token"])
        assert r.status_code == 429 and "2 open rooms" in r.json()["detail"]
        _retry_after(r, 600)


# ----------------------------------------------------------------------------- expiry


def _wait_for(pred: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_empty_rooms_expire_free_the_cap_and_stay_closed_after_a_restart(
    tmp_path: Path,
) -> None:
    idle = 2.0  # long enough that ``left`` is still there for the next request, loaded or not
    settings = fast_settings(str(tmp_path), max_rooms=2, room_idle_s=idle, room_abandoned_s=60)
    with live_server(settings) as base:
        ann = new_player(base, "ann")
        kept = new_room(base, ann["token"])  # someone watches it: it stays
        watcher = Client(base, kept["code"], ann["token"])
        left = new_room(base, ann["token"], bots={"0": "random"})  # nobody ever comes
        full = _create(base, ann["token"])
        assert full.status_code == 503 and "as many rooms" in full.json()["detail"]
        assert int(full.headers["Retry-After"]) >= 1
        gone = f"{base}/api/rooms/{left['code']}"
        _wait_for(lambda: httpx.get(gone).status_code == 404, timeout=idle + 15)
        listed = [r["code"] for r in httpx.get(f"{base}/api/rooms").json()]
        assert listed == [kept["code"]]
        late = Client(base, left["code"], ann["token"])
        assert late.welcome["t"] == "error" and late.welcome["code"] == "no-room"
        # the cap counts live rooms only: one may be created again
        third = _create(base, ann["token"])
        assert third.status_code == 200
        # a room whose seated human went away waits much longer (room_abandoned_s)
        seated = Client(base, third.json()["code"], ann["token"])
        seated.send({"t": "sit", "v": 2, "seat": 0})
        seated.wait(lambda m: m["t"] == "room" and m["room"]["seats"][0]["kind"] == "human")
        seated.close()
        time.sleep(idle + 1.0)  # past room_idle_s
        assert httpx.get(f"{base}/api/rooms/{third.json()['code']}").status_code == 200
        assert httpx.get(f"{base}/api/rooms/{kept['code']}").status_code == 200
        watcher.close()
    ((rid, closed),) = sql(tmp_path, "SELECT id, closed FROM rooms WHERE code = :c", c=left["code"])
    assert closed  # its row stays (records name it), closed, and its log is deleted
    assert sql(tmp_path, "SELECT COUNT(*) FROM room_log WHERE room_id = :r", r=rid) == [(0,)]
    with live_server(fast_settings(str(tmp_path))) as base:
        assert httpx.get(f"{base}/api/rooms/{left['code']}").status_code == 404
        assert httpx.get(f"{base}/api/rooms/{kept['code']}").status_code == 200


# ----------------------------------------------------------------------------- bodies


def _raw(base: str, request: bytes, chunks: list[bytes] | None = None) -> bytes:
    """Send a raw HTTP request (then ``chunks``, as long as the server reads) and return
    the response head and body as far as the server sends them."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(request)
        for chunk in chunks or []:
            try:
                s.sendall(chunk)
            except OSError:  # the server answered and closed: it stopped reading
                break
        out = b""
        while True:
            try:
                data = s.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            out += data
        return out


def test_a_body_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), max_body_bytes=4096)) as base:
        # 300 MB announced, not one byte sent: the answer comes at once
        head = (
            b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 300000000\r\n\r\n"
        )
        t0 = time.monotonic()
        answer = _raw(base, head)
        assert time.monotonic() - t0 < 5
        assert answer.startswith(b"HTTP/1.1 413 ")
        assert b"request bodies are at most 4096 bytes" in answer
        assert b"x-content-type-options: nosniff" in answer.lower()
        # a chunked body is cut off once it passes the limit
        chunked = (
            b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        piece = b"400\r\n" + b" " * 1024 + b"\r\n"
        answer = _raw(base, chunked, [piece] * 2000)  # 2 MB offered
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
        # over httpx, an oversized name is 413 and a small body goes through
        big = httpx.post(f"{base}/api/players", json={"name": "x" * 5000})
        assert big.status_code == 413
        assert httpx.post(f"{base}/api/players", json={"name": "ann"}).status_code == 200
        assert httpx.get(f"{base}/healthz").json()["ok"] is True


# ----------------------------------------------------------------------------- names


def test_names_are_trimmed_and_refuse_control_and_direction_characters(server: str) -> None:
    def post(name: str) -> httpx.Response:
        return httpx.post(f"{server}/api/players", json={"name": name})

    assert post("  Ann \u3000 Lee\n").json()["name"] == "Ann Lee"
    assert post("小明").json()["name"] == "小明"
    refused = {
        "ann\u202egnp.exe": "U+202E RIGHT-TO-LEFT OVERRIDE",
        "\u2066bob\u2069": "U+2066 LEFT-TO-RIGHT ISOLATE",
        "bo\u200fb": "U+200F RIGHT-TO-LEFT MARK",
        "a\x07b": "U+0007 (a control character)",
        "a\tb": "U+0009 (a control character)",
        "a\u2028b": "U+2028 LINE SEPARATOR",
        "   ": "at least one visible character",
        "\u200b": "at least one visible character",
        "x" * 33: "at most 32 characters",
    }
    for name, why in refused.items():
        r = post(name)
        assert r.status_code == 400, name
        assert why in r.json()["detail"], (name, r.json())


# ----------------------------------------------------------------------------- chat


def test_chat_is_capped_in_memory_and_in_the_database(tmp_path: Path) -> None:
    with live_server(fast_settings(str(tmp_path), chat_keep=5, chat_max_chars=20)) as base:
        ann = new_player(base, "ann")
        room = new_room(base, ann["token"])
        c = Client(base, room["code"], ann["token"])
        c.send({"t": "chat", "v": 2, "text": "x" * 21})
        err = c.wait(lambda m: m["t"] == "error")
        assert err["code"] == "bad-chat" and err["message"] == "chat lines are 1..20 characters"
        for i in range(12):
            c.send({"t": "chat", "v": 2, "text": f"line {i}"})
            c.wait(lambda m: m["t"] == "chat")
        c.send({"t": "sync", "v": 2})
        snap = c.wait(lambda m: m["t"] == "snapshot")
        assert [x["text"] for x in snap["chat"]] == [f"line {i}" for i in range(7, 12)]

        def stored() -> list[str]:
            rows = sql(tmp_path, "SELECT data FROM room_log WHERE kind = 'chat' ORDER BY seq")
            return [str(r[0]) for r in rows]

        _wait_for(lambda: len(stored()) <= 7)  # at most half the cap more than it keeps
        assert '"line 0"' not in " ".join(stored()) and '"line 11"' in stored()[-1]
        c.close()


# ------------------------------------------------------------------------ open sockets


def _socket_from(base: str, code: str, address: str) -> Any:
    return connect(
        base.replace("http://", "ws://") + f"/ws/{code}",
        additional_headers={"X-Forwarded-For": address},  # trusted from loopback
        open_timeout=10,
    )


@pytest.mark.usefixtures("ws_layer")
def test_one_address_holds_at_most_its_cap_of_sockets_and_gets_one_back_when_one_closes(
    tmp_path: Path,
) -> None:
    with live_server(fast_settings(str(tmp_path), max_sockets_per_address=2)) as base:
        p = new_player(base, "ann")
        code = new_room(base, p["token"])["code"]
        held = ExitStack()
        first = held.enter_context(_socket_from(base, code, "198.51.100.7"))
        held.enter_context(_socket_from(base, code, "198.51.100.7"))
        with _socket_from(base, code, "198.51.100.7") as third:  # over the cap: told why
            refused = json.loads(third.recv(timeout=10))
            assert refused["t"] == "error" and refused["code"] == "too-many-sockets"
            with pytest.raises(ConnectionClosed) as closed:
                third.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        with _socket_from(base, code, "203.0.113.9") as other:  # another address: let in
            other.send(json.dumps({"t": "hello", "v": 1, "token": p["token"]}))
            assert json.loads(other.recv(timeout=10))["t"] == "welcome"
        first.close()
        deadline = time.monotonic() + 30
        while True:  # the server counts the closed socket out once it sees it closed
            with _socket_from(base, code, "198.51.100.7") as again:
                again.send(json.dumps({"t": "hello", "v": 1, "token": p["token"]}))
                got = json.loads(again.recv(timeout=10))
            if got["t"] == "welcome" or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert got["t"] == "welcome"
        held.close()
        c = Client(base, code, p["token"])  # loopback itself is never counted
        assert c.welcome["t"] == "welcome"
        c.close()
