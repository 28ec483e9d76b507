"""``shengji serve`` says which URL to open before it starts listening."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
import uvicorn

from shengji.cli.serve import add_serve, browser_url, serve


def test_serve_prints_the_url_to_open(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(kw))
    parser = argparse.ArgumentParser()
    add_serve(parser.add_subparsers())
    args = parser.parse_args(["serve", "--port", "9123", "--data-dir", str(tmp_path)])
    assert serve(args) == 0
    assert capsys.readouterr().out == "open http://127.0.0.1:9123/ in a browser\n"
    assert ran["port"] == 9123


def test_browser_url_for_wildcard_hosts() -> None:
    assert browser_url("0.0.0.0", 8765) == "http://127.0.0.1:8765/"
    assert browser_url("example.org", 80) == "http://example.org:80/"
