"""Seats, who is to move, outcomes, and each game's fact sheet."""

from __future__ import annotations

import enum
from typing import NewType, cast

import attrs

__all__ = [
    "CHANCE",
    "NOBODY",
    "FactSheet",
    "MoverKind",
    "Outcome",
    "RuleId",
    "Seat",
    "ToMove",
]

Seat = NewType("Seat", int)
"""A player's place, ``0 .. n-1`` in play order: the next player is always ``seat + 1``."""

RuleId = NewType("RuleId", str)
"""A rule's stable ID, such as ``"KALA-4"``: the game's prefix, a dash, a number."""


class MoverKind(enum.Enum):
    """What kind of node a position is."""

    SEAT = "seat"
    """One seat decides (the usual turn)."""
    JOINT = "joint"
    """Every listed seat decides at once; the choices form one joint action (DA CAPO bids)."""
    ANY = "any"
    """Any listed seat may act next, one action at a time (HOPPER's shoot-out)."""
    CHANCE = "chance"
    """Chance acts: a deal, a shuffle, where a bean lands."""
    NOBODY = "nobody"
    """The game is over."""


@attrs.frozen
class ToMove:
    """Who acts in a position: a seat, several seats, chance, or nobody."""

    kind: MoverKind
    """The kind of node."""
    seats: tuple[Seat, ...] = ()
    """The seats that act, sorted; empty at chance and terminal nodes."""

    @classmethod
    def seat(cls, seat: int) -> ToMove:
        """One seat to move."""
        return cls(MoverKind.SEAT, (Seat(seat),))

    @classmethod
    def joint(cls, seats: tuple[int, ...]) -> ToMove:
        """All *seats* choose at once, as one joint action."""
        # A Seat is an int at run time (NewType): sorting is all the conversion there is.
        return cls(MoverKind.JOINT, cast(tuple[Seat, ...], tuple(sorted(seats))))

    @classmethod
    def any_of(cls, seats: tuple[int, ...]) -> ToMove:
        """Any of *seats* may act next."""
        return cls(MoverKind.ANY, cast(tuple[Seat, ...], tuple(sorted(seats))))

    @property
    def is_chance(self) -> bool:
        """True at a chance node."""
        return self.kind is MoverKind.CHANCE

    @property
    def is_over(self) -> bool:
        """True when the game is over."""
        return self.kind is MoverKind.NOBODY


CHANCE = ToMove(MoverKind.CHANCE)
"""Chance is to act."""
NOBODY = ToMove(MoverKind.NOBODY)
"""Nobody is to act: the game is over."""


@attrs.frozen
class Outcome:
    """The result of a finished game."""

    winners: tuple[Seat, ...]
    """The seats that won, sorted (several for a shared win)."""
    losers: tuple[Seat, ...] = ()
    """The seats that lost, sorted, where the rules name losers (Copas' burst players)."""
    scores: tuple[int, ...] = ()
    """Final score per seat where the game keeps one (empty otherwise)."""
    rule: str = ""
    """The ID of the rule that ended the game and decided the result."""


@attrs.frozen
class FactSheet:
    """What kind of game it is, declared once and checked by the tests."""

    min_players: int
    """Fewest players."""
    max_players: int
    """Most players."""
    chance: bool
    """Whether chance nodes occur."""
    hidden_information: bool
    """Whether some seat may not see part of the state."""
    simultaneous: bool
    """Whether several seats ever act at once (joint or any-of nodes)."""
    max_decisions: int | None
    """An upper bound on the decisions in one game, where one is known."""
