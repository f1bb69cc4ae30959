"""RONDA's values: the variant options, the state, the actions and the observation.

Every class is a frozen attrs class of tuples, ints and enums, with no validators: states
are checked by :func:`copa_ref.ronda.rules.check_state` where they enter.
"""

from __future__ import annotations

import enum

import attrs

from copa_ref.core.codec import SOLVER_OPTION
from copa_ref.core.entry import Checked

__all__ = [
    "CIRCLE_BEANS",
    "COUNTS",
    "PLACES",
    "Action",
    "Add",
    "Again",
    "Arrange",
    "Config",
    "Keep",
    "Lift",
    "Observation",
    "Phase",
    "State",
    "Stop",
]

PLACES = 10
"""The cups of the circle, places ``0 .. 9`` clockwise (RONDA-1)."""
COUNTS: tuple[int, ...] = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4)
"""The beans hidden under the ten cups, in some order (RONDA-3)."""
CIRCLE_BEANS = 20
"""The beans that fill the cups (RONDA-1)."""


class Phase(enum.Enum):
    """Where a game stands; each decision phase is one kind of action."""

    SET_UP = "set_up"
    """Chance arranges the beans under the cups (RONDA-3)."""
    LIFT = "lift"
    """The mover lifts a covered cup (RONDA-5, RONDA-8)."""
    ADD = "add"
    """Two equal groups are open: the mover adds a bean to one (RONDA-7)."""
    CHOOSE = "choose"
    """After adding: stop (RONDA-9) or go on (RONDA-8, RONDA-16)."""
    OVER = "over"
    """A player has no beans left (RONDA-13)."""


@attrs.frozen(kw_only=True)
class Config:
    """RONDA's options; ``Config()`` is the original game with the default readings."""

    players: int = 2
    """2 to 5 seats (RONDA-1, RONDA-Q16)."""
    beans_per_player: int = 10
    """9 (the materials) or 10 (the preparation, default; RONDA-Q1)."""
    relift_after_match: bool = False
    """Simpler rule 1: after a match and the added bean, cover both and lift two again
    (RONDA-16)."""
    max_beans: int = 5
    """Simpler rule 2: 4 instead of 5, the most beans a cup holds (RONDA-17)."""
    penalty_beans: bool = True
    """Simpler rule 3 when false: no penalty beans; dissolved groups leave the game
    (RONDA-18)."""
    solver_beans: int | None = attrs.field(default=None, metadata=SOLVER_OPTION)
    """``None``: each player receives ``beans_per_player``; 1 to 8: that many instead, the
    solver variant RONDA-V1 (RONDA-Q17), a game small enough to solve exactly."""


@attrs.frozen(kw_only=True)
class State(Checked):
    """A RONDA position. ``cups`` is hidden from every seat (RONDA-14).

    Whether the rules checked it where it entered, or built it, is kept in the slot of
    :class:`~copa_ref.core.entry.Checked`: no field, never compared, encoded or copied.
    """

    config: Config
    """The options in force."""
    phase: Phase
    """The decision the game waits for."""
    cups: tuple[int, ...]
    """The beans under each place 0 .. 9 (hidden); empty before the arrangement."""
    lifted: tuple[int, ...]
    """The places lifted now, in the order lifted (at most two)."""
    shown: tuple[int, int] | None
    """``(place, beans)`` of the cup the last action lifted (even if it was covered again at
    once after a mismatch); ``None`` after any other action."""
    black: int
    """Beans in the black cup."""
    out: int
    """Beans out of the game."""
    supplies: tuple[int, ...]
    """Each seat's beans."""
    turn: int
    """The seat to move; when the game is over, the winner."""


@attrs.frozen
class Arrange:
    """The chance action of the set-up: the beans under places 0 .. 9 (RONDA-3)."""

    cups: tuple[int, ...]
    """A permutation of 1,1,2,2,3,3,4,4,0,0."""


@attrs.frozen
class Lift:
    """Lift the covered cup at *cup* (RONDA-5)."""

    seat: int
    """The seat lifting."""
    cup: int
    """The place lifted, 0 .. 9."""


@attrs.frozen
class Add:
    """Add one own bean to the matched cup at *cup* (RONDA-7); with two groups of the
    maximum, that cup's group goes to the middle (RONDA-10)."""

    seat: int
    """The seat adding."""
    cup: int
    """One of the two open places."""


@attrs.frozen
class Stop:
    """Miss a go after adding: cover both groups, the turn passes (RONDA-9)."""

    seat: int
    """The seat stopping."""


@attrs.frozen
class Keep:
    """Go on: cover the other group and keep *cup* open for the next lift (RONDA-8)."""

    seat: int
    """The seat going on."""
    cup: int
    """The open place that stays open."""


@attrs.frozen
class Again:
    """Simpler rule 1: cover both groups and lift two cups anew (RONDA-16)."""

    seat: int
    """The seat going on."""


Action = Arrange | Lift | Add | Stop | Keep | Again
"""Any RONDA action."""


@attrs.frozen(kw_only=True)
class Observation:
    """What a seat (or, with ``seat`` ``None``, a spectator) sees: every seat sees the same,
    and no one sees under a covered cup (RONDA-14)."""

    config: Config
    """The options in force."""
    seat: int | None
    """The observing seat, ``None`` for the public view."""
    phase: Phase
    """The decision the game waits for."""
    lifted: tuple[tuple[int, int], ...]
    """``(place, beans)`` of each lifted cup, in the order lifted."""
    shown: tuple[int, int] | None
    """``(place, beans)`` the last action's lift showed, or ``None``."""
    circle: int
    """The total of beans in the circle (every change to it happens in the open)."""
    black: int
    """Beans in the black cup."""
    out: int
    """Beans out of the game."""
    supplies: tuple[int, ...]
    """Each seat's beans."""
    turn: int
    """The seat to move; when the game is over, the winner."""
