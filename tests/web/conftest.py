"""Browser tests: pytest-playwright driving Debian's chromium (never `playwright install`).

They are skipped when /usr/bin/chromium (or playwright) is missing; CI installs
`chromium` and `fonts-wqy-microhei` with apt (.ci/run).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import fast_settings, live_server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
"""Screenshots land here (git-ignored)."""

HAVE_PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
HAVE_BROWSER = CHROMIUM.exists() and HAVE_PLAYWRIGHT

collect_ignore = [] if HAVE_PLAYWRIGHT else ["table.py", "test_table.py"]
"""Without playwright (no dev extras) the browser tests are not even imported."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the tests that need a browser when there is none."""
    if HAVE_BROWSER:
        return
    here = Path(__file__).resolve().parent
    skip = pytest.mark.skip(reason=f"needs {CHROMIUM} and playwright (apt-get install chromium)")
    for item in items:
        if here in Path(str(item.path)).resolve().parents and "browser" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's chromium, headless, without sandbox, GPU or background traffic."""
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": ARGS}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    """A live server (no deal pacing, bots without delay); yields its base URL."""
    with live_server(fast_settings(str(tmp_path), bot_delay_s=0.0)) as base:
        yield base


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The screenshot folder."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
