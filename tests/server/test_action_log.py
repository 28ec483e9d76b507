"""A table's action log (``ActionLog``): appended one update at a time without copying the
whole match; it always reads as every text added, in order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shengji.server.table.model import LOG_FOLD, ActionLog

_texts = st.lists(st.sampled_from(["deal", "pass", "play 0 SA", "bury 1 S3 S4"]), max_size=7)


@given(st.lists(_texts.map(tuple), max_size=120))
def test_the_log_reads_as_everything_added_in_order(updates: list[tuple[str, ...]]) -> None:
    log = ActionLog()
    want: list[str] = []
    for texts in updates:
        before = log
        log = log.add(texts)
        want.extend(texts)
        assert list(before) == want[: len(want) - len(texts)]  # the old log is unchanged
    assert list(log) == want and len(log) == len(want)
    assert log == tuple(want) and log == ActionLog(tuple(want))
    assert len(log.tail) < LOG_FOLD  # folded as it grows: a copy per LOG_FOLD texts


def test_a_log_differs_from_another_match() -> None:
    assert ActionLog().add(("deal",)) != ActionLog().add(("pass",))
    assert ActionLog().add(("deal",)) != ("deal", "deal")
