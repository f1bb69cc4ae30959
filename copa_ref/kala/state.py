"""KALA's values: the variant options, the state, and the four kinds of action."""

from __future__ import annotations

import enum

import attrs

from copa_ref.core.codec import SOLVER_OPTION
from copa_ref.core.entry import Checked

__all__ = [
    "BOARD",
    "MIN_STORE",
    "PLAYERS",
    "STORE",
    "TOTAL_BEANS",
    "Action",
    "Bonus",
    "BonusRule",
    "Config",
    "EndCheck",
    "Harvest",
    "HarvestRule",
    "Phase",
    "Place",
    "Sow",
    "Square",
    "State",
]

BOARD = 4
"""The field is ``BOARD`` × ``BOARD`` cups (KALA-1)."""
PLAYERS = 2
"""KALA is a game for two (KALA-1)."""
TOTAL_BEANS = 56
"""Beans in play: 28 per store at the start (KALA-1), conserved throughout (KALA-18)."""
STORE = TOTAL_BEANS // PLAYERS
"""Each store's beans at the start (KALA-1); ``Config.store`` may make it smaller."""
MIN_STORE = 4
"""The smallest store of the solver variant: one regular sowing (KALA-4)."""

Square = tuple[int, int]
"""A square as ``(row, col)``, row 0 at the top; JSON ``[row, col]``."""


class HarvestRule(enum.Enum):
    """Whether a harvest may be declined (KALA-Q7)."""

    OPTIONAL = "optional"
    """"Is allowed to empty": the player chooses (default)."""
    MANDATORY = "mandatory"
    """Every harvestable cup is emptied."""


class BonusRule(enum.Enum):
    """Whether the bonus move may be declined (KALA-Q8)."""

    MANDATORY = "mandatory"
    """"Can (and must!) be sown": the bonus is always taken (default)."""
    OPTIONAL = "optional"
    """"Entitled to": the player chooses."""


class EndCheck(enum.Enum):
    """When the end of KALA-17 is checked (KALA-Q10)."""

    AFTER_TURN = "after_turn"
    """The moment a turn leaves its player with fewer than 4 beans (default)."""
    START_OF_TURN = "start_of_turn"
    """When a player is due to move with fewer than 4 beans (a bean awarded by the
    opponent's bonus in between can rescue him)."""


class Phase(enum.Enum):
    """Where in a turn the game stands; each phase is one kind of decision."""

    SOW = "sow"
    """The player to move chooses the path of his regular sowing."""
    HARVEST = "harvest"
    """He chooses whether to empty the cup that took the last bean."""
    PLACE = "place"
    """He chooses where his playing cup goes (last bean in the opponent's cup)."""
    BONUS = "bonus"
    """He chooses whether to take the bonus move (only with ``BonusRule.OPTIONAL``)."""
    BONUS_SOW = "bonus_sow"
    """He chooses the path of the bonus sowing."""
    OVER = "over"
    """The game has ended."""


@attrs.frozen
class Config:
    """KALA's variant options; ``Config()`` is the default reading."""

    first_player: int = 0
    """The seat that moves first ("the first player is nominated"; KALA-Q1)."""
    harvest: HarvestRule = HarvestRule.OPTIONAL
    """Whether a harvest may be declined (KALA-Q7)."""
    bonus: BonusRule = BonusRule.MANDATORY
    """Whether the bonus move may be declined (KALA-Q8)."""
    end_check: EndCheck = EndCheck.AFTER_TURN
    """When the end of the game is checked (KALA-Q10)."""
    store: int | None = attrs.field(default=None, metadata=SOLVER_OPTION)
    """``None``: each store starts with the text's 28 beans (KALA-1); 4 to 28: that many, the
    solver variant KALA-V1 (KALA-Q21), a game small enough to solve exactly."""


@attrs.frozen
class State(Checked):
    """A KALA position. Everything is public (KALA-11). Its checked mark:
    :class:`~copa_ref.core.entry.Checked` (no field, never compared, encoded or copied)."""

    config: Config
    """The variant options in force."""
    field: tuple[int, ...]
    """Beans in each of the 16 field cups, row by row (square ``(row, col)`` is index
    ``4 * row + col``); a covered field cup keeps its beans."""
    cups: tuple[Square, Square]
    """The square each seat's playing cup stands on."""
    cup_beans: tuple[int, int]
    """The beans in each seat's playing cup."""
    stores: tuple[int, int]
    """Each seat's store."""
    bank: int
    """Beans returned to the bank by harvests (KALA-15)."""
    turn: int
    """The seat whose turn it is; when the game is over, the seat that could not move."""
    phase: Phase
    """The decision the turn waits for."""
    bonus_sowing: bool = False
    """True while the sowing being finished (harvest, placement) is the bonus sowing."""
    last: Square | None = None
    """The square of the last bean sown, during the harvest and placement decisions."""


@attrs.frozen
class Sow:
    """Sow along *path* (regular or bonus sowing): one bean per square, the first into the
    player's own playing cup."""

    seat: int
    """The seat sowing."""
    path: tuple[Square, ...]
    """The squares in sowing order, starting on the player's own playing cup."""


@attrs.frozen
class Harvest:
    """Empty the cup that took the last bean (``take``), or leave it."""

    seat: int
    """The seat deciding."""
    take: bool
    """True to harvest."""


@attrs.frozen
class Place:
    """Put the playing cup on *square*, next to the opponent's cup that took the last bean."""

    seat: int
    """The seat placing."""
    square: Square
    """Where the cup goes."""


@attrs.frozen
class Bonus:
    """Take the bonus move or not (only with ``BonusRule.OPTIONAL``)."""

    seat: int
    """The seat deciding."""
    take: bool
    """True to take the bonus move."""


Action = Sow | Harvest | Place | Bonus
"""Any KALA action."""
