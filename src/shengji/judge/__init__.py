"""The JSON-lines rules oracle: ``shengji judge`` (see ``docs/protocol.md``)."""

from shengji.judge.oracle import answer, answer_line, run

__all__ = ["answer", "answer_line", "run"]
