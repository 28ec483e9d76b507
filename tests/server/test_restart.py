"""A server killed with SIGKILL mid-deal and started again resumes the table: every card a
client saw dealt is still in its hand, the deal goes on and the match finishes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

from shengji.core.cards import parse_cards
from tests.server.helpers import Client, database_flags, new_player, new_room


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        SHENGJI_DEAL_PACING_S="0.02",
        SHENGJI_BOT_DELAY_S="0",
        SHENGJI_DEAL_END_PAUSE_S="0",
        SHENGJI_RATE_PER_S="1000",
        SHENGJI_RATE_BURST="1000",
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "shengji",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *database_flags(data_dir),
            "--log-level",
            "warning",
        ],
        env=env,
    )
    deadline = time.monotonic() + 120  # imports and a database: slow on a busy machine
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError(f"server did not start (exit status {proc.poll()})")
        time.sleep(0.05)


def test_sigkill_mid_deal_then_restart_resumes_the_table(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _serve(tmp_path, port)
    try:
        p = new_player(base, "ann")
        room = new_room(
            base, p["token"], max_deals=1, bots={"1": "random", "2": "random", "3": "random"}
        )
        c = Client(base, room["code"], p["token"])
        c.send({"t": "sit", "v": 1, "seat": 0})
        c.send({"t": "ready", "v": 1})
        seen: Counter[str] = Counter()
        dealt = 0
        while dealt < 40:
            m = c.recv()
            if m["t"] == "update":
                for e in m["events"]:
                    if e["type"] == "card_dealt":
                        seen[e["card"]] += 1
                    if e["type"] == "card_count_dealt":
                        dealt += 1
        last = c.last_seq
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        c.close()
    finally:
        if proc.poll() is None:
            proc.kill()

    proc = _serve(tmp_path, port)
    try:
        c = Client(base, room["code"], p["token"], last_seq=last)
        assert c.welcome["seat"] == 0 and c.welcome["seq"] >= last
        snap = c.wait(lambda m: m["t"] == "snapshot")
        game = snap["game"]
        assert snap["room"]["status"] == "playing" and game["seat"] == 0
        assert game["cards_dealt"] >= dealt
        hand = Counter(game["hand"].split())
        assert not seen - hand, "a card seen before the kill is missing"
        # the deal goes on and the match ends
        while True:
            m = c.recv(20)
            assert m["t"] != "error", m
            if m["t"] == "match_over":
                break
            if m["t"] == "update" and m["to_act"] == 0 and m["phase"] != "dealing":
                c.send({"t": "hint", "v": 1})
                h = c.wait(lambda m: m["t"] == "hint")
                c.act(h["action"])
        record = httpx.get(f"{base}/api/games/{m['game']}").json()
        assert len(record["actions"]) > 100
        assert all(parse_cards(x) for x in seen)
        c.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
