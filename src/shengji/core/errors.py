"""Errors raised by the rules engine."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why an action or an input was refused."""

    BAD_NOTATION = "bad-notation"
    IMPOSSIBLE_CARDS = "impossible-cards"
    NOT_IN_HAND = "not-in-hand"
    WRONG_COUNT = "wrong-count"
    MUST_FOLLOW_SUIT = "must-follow-suit"
    MUST_FOLLOW_STRUCTURE = "must-follow-structure"
    MIXED_LEAD = "mixed-lead"
    THROW_NOT_ALLOWED = "throw-not-allowed"
    EMPTY_PLAY = "empty-play"
    BAD_RULESET = "bad-ruleset"
    WRONG_PHASE = "wrong-phase"
    NOT_YOUR_TURN = "not-your-turn"
    BAD_DECLARATION = "bad-declaration"
    BAD_KITTY = "bad-kitty"
    BAD_BID = "bad-bid"
    BAD_CALL = "bad-call"


class ShengjiError(ValueError):
    """Base class: a clear message plus a machine-readable reason."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Picklable whatever the subclass's arguments (an error raised in a worker
        process reaches its pool intact)."""
        return (_rebuild, (type(self), self.reason, self.message))


def _rebuild(cls: type[ShengjiError], reason: Reason, message: str) -> ShengjiError:
    """The error ``cls`` with this reason and message (``ShengjiError.__reduce__``)."""
    err = cls.__new__(cls)
    ShengjiError.__init__(err, reason, message)
    return err


class NotationError(ShengjiError):
    """A card, rank or trump written wrongly, e.g. ``"SX"``."""

    def __init__(self, message: str) -> None:
        super().__init__(Reason.BAD_NOTATION, message)


class RulesetError(ShengjiError):
    """An unknown preset or option, or an option value out of range; ``field`` names the
    option at fault when there is one (``"kitty_size"``)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(Reason.BAD_RULESET, message)
        self.field = field


class IllegalAction(ShengjiError):
    """An action the rules refuse; the state it was applied to is unchanged."""
