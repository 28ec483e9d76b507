"""``run_indexed`` and Ctrl-C: a result is handed on whole, or not at all."""

from __future__ import annotations

import signal

from shengji.cli.runner import run_indexed


def test_a_ctrl_c_while_a_result_is_recorded_waits_for_the_record() -> None:
    """The interrupt lands between the two places a result is kept (the report's and the
    --out file's, as in ``shengji arena --duplicate --out``): both get it, then the run
    stops."""
    report: dict[int, int] = {}
    stored: dict[int, int] = {}

    def on_result(index: int, result: int) -> None:
        report[index] = result
        if index == 1:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C, right here
        stored[index] = result

    tasks = [(i, i) for i in range(5)]
    assert run_indexed(abs, tasks, 1, on_result) is True  # interrupted
    assert report == stored == {0: 0, 1: 1}


def test_without_ctrl_c_every_result_is_handed_on_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGINT)
    seen: dict[int, int] = {}
    assert run_indexed(abs, [(0, -3), (1, 4), (2, -5)], 1, seen.__setitem__) is False
    assert seen == {0: 3, 1: 4, 2: 5}
    assert signal.getsignal(signal.SIGINT) is before


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        seen: dict[int, int] = {}

        def on_result(index: int, result: int) -> None:
            signal.raise_signal(signal.SIGINT)
            seen[index] = result

        assert run_indexed(abs, [(0, 1), (1, 2)], 1, on_result) is False
        assert seen == {0: 1, 1: 2}
    finally:
        signal.signal(signal.SIGINT, before)
