"""Small pieces: client actions take the seat from the session, wire messages, settings."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shengji.cli.main import build_parser
from shengji.core.actions import Bury, Declare, Pass, Play
from shengji.core.cards import parse_cards as p
from shengji.core.errors import NotationError
from shengji.core.events import CardDealt, KittyBuried, Played, TrumpFixed
from shengji.server.live.rooms import action_text, client_action
from shengji.server.settings import Settings
from shengji.server.wire import messages as wire


def test_client_actions_never_name_a_seat() -> None:
    assert client_action("play SA SA", 2) == Play(2, tuple(p("SA SA")))
    assert client_action("PASS", 1) == Pass(1)
    assert client_action("declare H2", 3) == Declare(3, tuple(p("H2")))
    assert client_action("bury S3 S4", 0) == Bury(0, tuple(p("S3 S4")))
    for bad in ("deal", "play 1 SA", "play", "pass SA", "", "hello SA"):
        with pytest.raises(NotationError):
            client_action(bad, 0)
    assert action_text(Play(2, tuple(p("SA SA")))) == "play SA SA"
    assert action_text(Pass(1)) == "pass"


def test_wire_messages_are_versioned_and_strict() -> None:
    assert wire.decode_client('{"t":"sit","v":1,"seat":2}') == wire.Sit(seat=2, v=1)
    assert wire.decode_client('{"t":"sit","v":2,"seat":2}') == wire.Sit(seat=2, v=2)
    assert wire.decode_client('{"t":"sit","v":3,"seat":2}') == wire.Sit(seat=2)
    for bad in ('{"t":"sit","v":4,"seat":2}', '{"t":"sit","seat":"2"}', '{"t":"sit","x":1}'):
        with pytest.raises(msgspec.ValidationError):
            wire.decode_client(bad)
    data = msgspec.json.decode(wire.encode(wire.Error(seq=4, code="x", message="y")))
    assert data == {"t": "error", "v": 3, "seq": 4, "code": "x", "message": "y"}


def _rendered(event: Any) -> Any:
    """An event as a client receives it (the typed struct, as JSON)."""
    return msgspec.to_builtins(wire.render_event(event))


def test_events_render_in_card_notation() -> None:
    assert _rendered(Played(None, 2, tuple(p("SA SA")))) == {
        "type": "played",
        "seat": 2,
        "cards": "SA SA",
    }
    assert _rendered(CardDealt(1, 1, p("BJ")[0])) == {
        "type": "card_dealt",
        "seat": 1,
        "card": "BJ",
    }
    assert _rendered(KittyBuried(None, 0, (), 8))["cards"] == ""
    fixed = _rendered(TrumpFixed(None, -1, 0, None, None))
    assert fixed == {
        "type": "trump_fixed",
        "trump": "NT",
        "dealer": 0,
        "declarer": None,
        "turned": None,
    }


def test_settings_from_environment_and_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHENGJI_PORT", "9123")
    monkeypatch.setenv("SHENGJI_DEAL_PACING_S", "0")
    s = Settings()
    assert s.port == 9123 and s.deal_pacing_s == 0.0
    assert Settings(database_url="postgresql+asyncpg://u@h/db").resolved_database_url() == (
        "postgresql+asyncpg://u@h/db"
    )
    args = build_parser().parse_args(["serve", "--port", "9000", "--data-dir", "/tmp/x"])
    assert args.port == "9000" and args.data_dir == "/tmp/x" and args.host is None
    assert Settings(port=args.port).port == 9000  # flags are checked by the settings
