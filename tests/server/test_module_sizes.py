"""Small modules (issue 13): no file of the server is over 400 lines without saying why at
its top — its module docstring gives the reason ("... for a reason: ...")."""

from __future__ import annotations

import ast
from pathlib import Path

import shengji.server

LIMIT = 400
SERVER = Path(shengji.server.__file__).resolve().parent


def test_every_long_server_module_says_why_at_its_top() -> None:
    unexplained = []
    for path in sorted(SERVER.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") <= LIMIT:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if "for a reason" not in doc:
            unexplained.append(f"{path.relative_to(SERVER)}: {text.count(chr(10))} lines")
    assert unexplained == [], "over 400 lines with no reason at the top: " + ", ".join(unexplained)
