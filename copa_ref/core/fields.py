"""Exact checks of the values that reach a game's entry points from outside.

Each check raises :class:`~copa_ref.core.errors.MalformedInputError` with a bounded quotation
of the bad value (:func:`~copa_ref.core.codec.excerpt`) and returns nothing. "Exact" means
what protocol P-8 says for JSON, applied to Python values: ``True`` is not a seat, ``3.0``
is not a row, a list is not a tuple. Rules are not checked here: a well-typed value that
breaks a rule is the rule's :class:`~copa_ref.core.errors.IllegalActionError`.

A game keeps its own checks in one small function of its rules module (``_check_action``)
built from these pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.core.codec import MAX_INT, excerpt
from copa_ref.core.errors import MalformedInputError

__all__ = [
    "check_bool",
    "check_instance",
    "check_int",
    "check_position",
    "check_seat",
    "check_square",
    "check_tuple",
]


def _refuse(what: str, expected: str, value: object) -> MalformedInputError:
    return MalformedInputError(f"{what} must be {expected}, got {excerpt(value)}")


def check_instance(value: object, cls: type | tuple[type, ...], what: str,
                   name: str = "the value") -> None:
    """*value* is an instance of *cls* (``what`` says what that is, ``"a KALA state"``;
    *name* names the value, ``"parts[1]"``)."""
    if not isinstance(value, cls):
        raise _refuse(name, what, value)


def check_int(value: object, what: str, low: int | None = None,
              high: int | None = None) -> None:
    """*value* is an ``int`` (not a ``bool``) of at most 63 bits, within ``low .. high``
    where given."""
    if type(value) is not int or not -MAX_INT <= value <= MAX_INT:
        raise _refuse(what, "an integer", value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low} .. {'' if high is None else high}".strip()
        raise _refuse(what, f"an integer in {bounds}", value)


def check_bool(value: object, what: str) -> None:
    """*value* is ``True`` or ``False`` (not ``0`` or ``1``)."""
    if type(value) is not bool:
        raise _refuse(what, "true or false", value)


def check_tuple(value: object, what: str, item: Callable[[Any, str], None] | None = None,
                length: int | None = None) -> None:
    """*value* is a ``tuple`` (of *length* items where given), each item passing *item*
    (called with the item and its name, ``"path[2]"``); the first bad item is named."""
    if type(value) is not tuple:
        raise _refuse(what, "a tuple", value)
    if length is not None and len(value) != length:
        raise _refuse(what, f"a tuple of {length}", value)
    if item is not None:
        for index, part in enumerate(value):
            item(part, f"{what}[{index}]")


def check_square(value: object, what: str) -> None:
    """*value* is a square ``(row, col)``: a tuple of two integers (on the board or not)."""
    if not (type(value) is tuple and len(value) == 2
            and type(value[0]) is int and type(value[1]) is int
            and -MAX_INT <= value[0] <= MAX_INT and -MAX_INT <= value[1] <= MAX_INT):
        raise _refuse(what, "a (row, col) tuple of two integers", value)


def check_seat(seat: object, players: int, what: str = "seat", *,
               optional: bool = False) -> None:
    """*seat* is a seat of a *players*-seat table, ``0 .. players - 1`` (or ``None`` where
    *optional*)."""
    if optional and seat is None:
        return
    check_int(seat, what, 0, players - 1)


def check_position(state: object, cls: type, what: str, seat: object = None,
                   seats: Callable[[Any], int] | None = None) -> None:
    """*state* is an instance of the game's state class *cls* (the class only: a game's
    ``check_state`` is for states that enter from outside), and *seat* is ``None`` or one
    of the ``seats(state)`` seats at its table."""
    check_instance(state, cls, what)
    if seat is not None and seats is not None:
        check_seat(seat, seats(state))
