"""A reader that stops early (``shengji protocol-schema | head``) ends the command quietly."""

from __future__ import annotations

import subprocess
import sys


def test_a_closed_pipe_ends_the_command_without_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "shengji", "protocol-schema"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(1) == b"{"
    proc.stdout.close()  # the reader goes away before the schema is written out
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=30) in (0, 141)
    assert "Traceback" not in err, err
