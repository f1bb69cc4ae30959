"""DA CAPO values: the variant options, the state, the round record and the actions.

Every class is a frozen attrs class of ints, tuples and enums; nothing is ever modified.
"""

from __future__ import annotations

import enum

import attrs

from copa_ref.core.codec import SOLVER_OPTION
from copa_ref.core.entry import Checked

__all__ = [
    "MAX_BID",
    "START_BEANS",
    "Action",
    "Bid",
    "Bids",
    "Config",
    "LastStep",
    "Observation",
    "Round",
    "State",
    "StateMemos",
    "TargetReached",
    "TieBreak",
    "TieResolution",
]

START_BEANS = 16
"""Beans every player receives (DACAPO-3)."""

MAX_BID = 5
"""The largest bid (DACAPO-6)."""


class TieResolution(enum.Enum):
    """Who advances when the highest bids tie (DACAPO-11, DACAPO-Q3)."""

    CASCADE = "cascade"
    """Every tied level cancels; the highest level bid by exactly one player wins."""
    TWO_LEVEL = "two_level"
    """Only the top two levels count: a tied second level means nobody advances."""


class TargetReached(enum.Enum):
    """When a player has reached the target cup (DACAPO-15, DACAPO-Q4)."""

    TARGET_CUP = "target_cup"
    """The advance after a full line puts the beans into the target cup."""
    LINE_FULL = "line_full"
    """Filling the last cup of the line already reaches the target."""


class TieBreak(enum.Enum):
    """What "used the least beans" counts (DACAPO-17, DACAPO-Q6)."""

    BEANS_IN_CUPS = "beans_in_cups"
    """The beans in the player's cups: the beans that moved him."""
    BEANS_SPENT = "beans_spent"
    """Every bean the player took from his reserve (16, or ``Config.beans``, less what he
    holds)."""


@attrs.frozen
class Config:
    """The variant options; ``Config()`` is the default reading."""

    players: int = 2
    """How many players, 2 to 5 (DACAPO-1)."""
    tie_resolution: TieResolution = TieResolution.CASCADE
    """How tied bids are resolved (DACAPO-11)."""
    target_reached_when: TargetReached = TargetReached.TARGET_CUP
    """When the target counts as reached (DACAPO-15)."""
    tie_break: TieBreak = TieBreak.BEANS_IN_CUPS
    """How equal advances are separated at the end (DACAPO-17)."""
    beans: int | None = attrs.field(default=None, metadata=SOLVER_OPTION)
    """``None``: every player receives the text's 16 beans (DACAPO-3); 1 to 16: that many,
    the solver variant DACAPO-V1 (DACAPO-Q12), a game small enough to solve exactly."""


@attrs.frozen
class Round:
    """One round played: the revealed bids and who advanced (DACAPO-8)."""

    bids: tuple[int | None, ...]
    """Seat ``s``'s bid at position ``s``; ``None`` for a seat that was out."""
    winner: int | None
    """The seat that advanced, or ``None`` when nobody did (DACAPO-12)."""


@attrs.frozen
class LastStep:
    """The last-player step (DACAPO-14): one bean into a cup, the rest to the box."""

    seat: int
    """The seat that was the last with beans."""
    beans: int
    """The beans he held: one went into his next cup, the others to the box."""


class StateMemos(Checked):
    """The memos of a DA CAPO state, plain slots that are no field (never compared, encoded
    or copied; read them with ``getattr(state, name, None)``): its checked mark
    (:class:`~copa_ref.core.entry.Checked`) and ``_mover``, who moves, once worked out
    (``copa_ref.da_capo.rules._to_move``)."""

    __slots__ = ("_mover",)


@attrs.frozen
class State(StateMemos):
    """A DA CAPO position. Everything in it is public (DACAPO-8)."""

    config: Config
    """The variant options."""
    reserves: tuple[int, ...]
    """The beans in each seat's hand."""
    lines: tuple[tuple[int, ...], ...]
    """Each seat's line of cups, nearest to the player first; ``0`` is an empty cup."""
    target: int
    """The beans in the black target cup."""
    finisher: int | None
    """The seat that reached the target (DACAPO-15), else ``None``."""
    box: int
    """The beans put back in the bean box."""
    rounds: tuple[Round, ...]
    """Every round played, in order."""
    last_step: LastStep | None
    """The last-player step, once it has happened."""


@attrs.frozen
class Bid:
    """One seat's part of a round: a choice listed by ``legal_actions(state, seat)``.

    Never applied alone (DACAPO-4): ``joint`` combines the parts into :class:`Bids`.
    """

    seat: int
    """The bidding seat."""
    beans: int
    """How many beans it bids, 1 to 5 (DACAPO-6)."""


@attrs.frozen
class Bids:
    """A round: every seat's bid at once, ``None`` for a seat that is out (DACAPO-4)."""

    bids: tuple[int | None, ...]
    """Seat ``s``'s bid at position ``s``."""


Action = Bid | Bids
"""A DA CAPO action: a seat's part (:class:`Bid`) or a whole round (:class:`Bids`)."""

Observation = State
"""What a seat may know: the whole state (DA CAPO is public between rounds)."""
