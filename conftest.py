"""Doctests of the optional parts run only where their extras are installed (``env``:
pettingzoo/gymnasium/numpy; ``ml``: torch). ``make test`` installs both through ``dev``.

Every test but the browser tests runs with no event loop marked running in its thread
(``_no_browser_loop``): pytest-playwright's sync API keeps its loop marked running for the
rest of the session once a browser test has started it, and a later test or doctest on the
same worker that calls ``asyncio.run`` would be refused.

Hypothesis runs without its per-example deadline (200 ms of wall clock by default): on a
machine busy with other work an example can take longer without anything being wrong, and
a test about speed measures it itself."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("shengji", deadline=None)
settings.load_profile("shengji")

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore_glob += ["src/shengji/env/*.py", "src/shengji/ml/*.py"]
elif importlib.util.find_spec("torch") is None:
    collect_ignore_glob += ["src/shengji/ml/*.py"]

_BROWSER_FIXTURES = frozenset({"page", "context", "browser", "playwright"})


@pytest.fixture(autouse=True)
def _no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Unmark a loop left marked running in this thread (pytest-playwright's) for the
    length of a test that is not a browser test, and mark it again after."""
    loop = asyncio.events._get_running_loop()
    if loop is None or _BROWSER_FIXTURES & set(request.fixturenames):
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)
