"""The small vocabulary of executable invariants."""

from __future__ import annotations

from copa_ref.core.errors import InvariantViolation

__all__ = ["require"]


def require(condition: bool, rule: str, message: str) -> None:
    """Raise :class:`~copa_ref.core.errors.InvariantViolation` for *rule* unless *condition* holds.

    Unlike ``assert`` it survives ``python -O`` and names its rule.
    """
    if not condition:
        raise InvariantViolation(rule, message)
