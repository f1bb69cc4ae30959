"""The error hierarchy every game shares.

``RuleViolation`` (a ``ValueError``) carries the ID of the rule that was broken; its two kinds
are :class:`IllegalActionError` (an action this position does not allow) and
:class:`InvalidStateError` (a state no legal play can produce). :class:`MalformedInputError`
is input that is not even shaped right. :class:`InvariantViolation` (an ``AssertionError``)
means an *implementation* is wrong, never the user's input.

``str(err)`` always starts with the rule ID: ``KALA-7: path turns twice at (1, 2)``.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidStateError",
    "InvariantViolation",
    "MalformedInputError",
    "RuleViolation",
]


class RuleViolation(ValueError):
    """Input that breaks a numbered rule; ``rule`` names it."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


class IllegalActionError(RuleViolation):
    """An action that the rule named by ``rule`` forbids in this position."""


class InvalidStateError(RuleViolation):
    """A state that no legal play can produce (counts that do not add up, say)."""


class MalformedInputError(ValueError):
    """Input that is not shaped right: bad JSON, an unknown tag, wrong types or sizes."""


class InvariantViolation(AssertionError):
    """An implementation broke the invariant guarding the rule named by ``rule``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")
