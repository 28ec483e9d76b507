"""``--out FILE``: what a long run has finished, written as it goes, so a run can resume.

The file holds the run's configuration, every finished unit by index (a deal pair, a match)
and the report so far. Running the same command again with the same ``--out`` skips what is
done; a file from a different run (another preset, bots, seed or size) is refused.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.json"
>>> f = ResultsFile(path, "duplicate", {"seed": 1})
>>> f.load(), f.add(0, {"x": 1}), f.save({"pairs": 1}, complete=True)
({}, None, None)
>>> ResultsFile(path, "duplicate", {"seed": 1}).load()
{0: {'x': 1}}
>>> ResultsFile(path, "duplicate", {"seed": 2}).load()
Traceback (most recent call last):
...
ValueError: ... holds another run (seed 1, not 2): use another --out or remove it
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

VERSION = 1
SAVE_EVERY = 5.0
"""Seconds between intermediate writes."""


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


class ResultsFile:
    """One run's ``--out`` file (``path`` None: nothing is written)."""

    def __init__(self, path: Path | None, kind: str, config: dict[str, Any]) -> None:
        self.path = path
        self.kind = kind
        self.config = config
        self.done: dict[int, Any] = {}
        self._saved: float | None = None  # the first unit is written at once

    def load(self) -> dict[int, Any]:
        """Finished units from an earlier run of the same command (empty if none)."""
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"--out {self.path}: cannot read it ({e})") from None
        if not isinstance(data, dict) or data.get("kind") != self.kind:
            raise ValueError(
                f"--out {self.path} is not {_article(self.kind)} {self.kind} results file: "
                "use another --out"
            )
        old = data.get("config", {})
        for key, value in self.config.items():
            if old.get(key) != value:
                raise ValueError(
                    f"--out {self.path} holds another run ({key} {old.get(key)}, not {value}): "
                    "use another --out or remove it"
                )
        self.done = {int(k): v for k, v in data.get("done", {}).items()}
        return dict(self.done)

    def add(self, index: int, unit: Any) -> None:
        """Record one finished unit (written with the next ``save``)."""
        self.done[index] = unit

    def save(self, report: dict[str, Any] | None, complete: bool, force: bool = True) -> None:
        """Write the file (atomically); unless ``force``, at most every ``SAVE_EVERY`` s after
        the first write."""
        if self.path is None:
            return
        now = time.monotonic()
        if not force and self._saved is not None and now - self._saved < SAVE_EVERY:
            return
        self._saved = now
        data = {
            "kind": self.kind,
            "version": VERSION,
            "config": self.config,
            "complete": complete,
            "finished": len(self.done),
            "report": report,
            "done": {str(k): self.done[k] for k in sorted(self.done)},
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)
