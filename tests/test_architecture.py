"""The house rules of src/shengji, read from the source (docs/architecture.md, "Layers").

Every import statement counts: at the top, under ``TYPE_CHECKING``, inside a function, and
``importlib.import_module("shengji...")`` with a literal name. ``from pkg import mod`` is an
arrow to ``pkg.mod`` and to ``pkg`` itself (its ``__init__`` runs first).

- No import cycle anywhere, not even one a lazy import would hide.
- Layers point one way. Below the server: ``core`` imports nothing else of shengji; ``bots``,
  ``judge`` import the core; ``env`` the bots and core; ``ml`` those and ``env``. Inside the
  server, from the bottom: the flat leaf modules (``ALLOWED_FLAT``), then ``wire`` (pure: the
  core only), ``table`` (pure: core, bots, wire), ``store`` (I/O: the database), ``live`` (I/O:
  rooms and sockets, over table, wire and store), ``cluster`` (I/O: leases' routing between
  processes, over live), ``http`` (the app, over everything). Nothing below the server
  imports it; only the ``cli`` and ``__main__`` stand above it.
- No module sits flat in ``server/`` except the leaf modules of ``ALLOWED_FLAT``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import shengji

SRC = Path(shengji.__file__).resolve().parent.parent
SERVER_PACKAGES = ("table", "wire", "live", "store", "cluster", "http")
ALLOWED_FLAT = {"settings", "tasks", "metrics", "gc_tuning", "gc_refreeze", "loop_nap"}
"""Leaf modules every I/O package uses (settings, background tasks, metrics, the process's
collector and loop tuning); each imports no server package."""

BELOW_SERVER = {"shengji", "core"}
LAYERS: dict[str, set[str]] = {
    "core": {"core"},
    "bots": {"core", "bots"},
    "judge": {"core", "judge"},
    "env": {"core", "bots", "env"},
    "ml": {"core", "bots", "env", "ml"},
    "server": set(),
    "server.flat": {"shengji", "core", "server", "server.flat"},
    "server.wire": {"core", "server", "server.wire"},
    "server.table": {"core", "bots", "server", "server.wire", "server.table"},
    "server.store": {"shengji", "core", "server", "server.flat", "server.store"},
    "server.live": {"shengji", "core", "bots", "server", "server.flat", "server.wire",
                    "server.table", "server.store", "server.live"},
    "server.cluster": {"shengji", "core", "bots", "server", "server.flat", "server.wire",
                       "server.table", "server.store", "server.live", "server.cluster"},
}
"""What each layer may import (a layer not listed, ``http`` and ``cli``, may import any)."""


@cache
def modules() -> dict[str, Path]:
    """Every module of src/shengji by dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for p in sorted((SRC / "shengji").rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _resolve(name: str) -> str | None:
    """The module an imported name lives in (``a.b.c`` → ``a.b`` when ``c`` is a name)."""
    mods = modules()
    while name:
        if name in mods:
            return name
        name = name.rpartition(".")[0]
    return None


def _imported(module: str, path: Path) -> Iterator[str]:
    """The shengji names ``module`` imports, by every kind of import statement."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            yield base
            yield from (f"{base}.{a.name}" for a in node.names)
        elif (isinstance(node, ast.Call) and node.args
              and getattr(node.func, "id", getattr(node.func, "attr", None))
              in ("import_module", "__import__")
              and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            yield node.args[0].value


@cache
def arrows() -> dict[str, frozenset[str]]:
    """Module → the shengji modules it imports (itself left out)."""
    out = {}
    for m, p in modules().items():
        targets = {_resolve(t) for t in _imported(m, p) if t.split(".")[0] == "shengji"}
        out[m] = frozenset(t for t in targets if t is not None and t != m)
    return out


def cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative).

    >>> cycles({"a": frozenset("b"), "b": frozenset("a"), "c": frozenset("a")})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, frozenset())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def layer(module: str) -> str:
    """``shengji.server.live.rooms`` → ``server.live``; ``shengji.server.settings`` →
    ``server.flat``; ``shengji.bots.search`` → ``bots``; ``shengji`` → ``shengji``.

    >>> layer("shengji.server.live.rooms"), layer("shengji.server.settings"), layer("shengji")
    ('server.live', 'server.flat', 'shengji')
    """
    parts = module.split(".")
    if len(parts) == 1:
        return "shengji"
    if parts[1] != "server" or len(parts) == 2:
        return parts[1]
    return f"server.{parts[2]}" if parts[2] in SERVER_PACKAGES else "server.flat"


def test_no_import_cycle_anywhere() -> None:
    found = cycles(dict(arrows()))
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_imports_point_down_the_layers() -> None:
    wrong = sorted(
        f"{m} -> {t}"
        for m, ts in arrows().items() if layer(m) in LAYERS
        for t in ts if layer(t) not in LAYERS[layer(m)]
    )
    assert wrong == [], "imports against the layers: " + ", ".join(wrong)


def test_nothing_below_the_server_imports_it() -> None:
    below = ("core", "bots", "judge", "env", "ml")
    wrong = sorted(f"{m} -> {t}" for m, ts in arrows().items() if layer(m) in below
                   for t in ts if t.startswith("shengji.server"))
    assert wrong == []


def test_package_inits_import_nothing_of_the_server() -> None:
    """An ``__init__`` that imported its submodules would tie every ``from pkg import mod``
    to all of them (the ``table`` package's face is the one exception: commands in,
    effects out)."""
    inits = [m for m in modules() if modules()[m].name == "__init__.py"
             and m.startswith("shengji.server") and m != "shengji.server.table"]
    wrong = sorted(f"{m} -> {', '.join(sorted(arrows()[m]))}" for m in inits if arrows()[m])
    assert wrong == []


def test_only_leaf_modules_sit_flat_in_server() -> None:
    server = SRC / "shengji" / "server"
    flat = {p.stem for p in server.glob("*.py")} - {"__init__"}
    assert flat <= ALLOWED_FLAT, f"move these into a package: {sorted(flat - ALLOWED_FLAT)}"
    packages = {p.name for p in server.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVER_PACKAGES)


def test_the_checks_catch_what_they_guard() -> None:
    """The graph is read right: a known arrow, a known function-level import, the init edge."""
    a = arrows()
    assert "shengji.server.live.rooms" in a["shengji.server.cluster.router"]
    assert "shengji.core.legal" in a["shengji.core.state"]
    assert "shengji.server.wire" in a["shengji.server.live.rooms"]  # from pkg import mod
    assert layer("shengji.server.http.app") not in LAYERS
    assert cycles({"x": frozenset({"y"}), "y": frozenset({"z"}), "z": frozenset({"x"})})
