"""Errors cross process boundaries intact (a worker's illegal action reaches its pool)."""

from __future__ import annotations

import pickle

from shengji.core.errors import IllegalAction, NotationError, Reason


def test_errors_pickle_with_reason_and_message() -> None:
    for err in (IllegalAction(Reason.MUST_FOLLOW_SUIT, "must follow ♠"),
                NotationError("bad card 'SX'")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err)
        assert (back.reason, back.message, str(back)) == (err.reason, err.message, str(err))
