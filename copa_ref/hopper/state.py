"""HOPPER's values: the variant options, the shot models, the state and the two actions.

Every class is a frozen attrs class of ints, tuples, enums and exact fractions; nothing is
ever modified.
"""

from __future__ import annotations

import enum
from fractions import Fraction

import attrs

from copa_ref.core.entry import Checked

__all__ = [
    "BLACK",
    "CUP_BEANS",
    "NEUTRAL_CUPS",
    "TOTAL_BEANS",
    "Action",
    "AimedShot",
    "Claim",
    "Config",
    "Ending",
    "Land",
    "Phase",
    "Remainder",
    "SeatAccuracy",
    "Shoot",
    "ShotModel",
    "State",
    "TrayCup",
]

NEUTRAL_CUPS = 16
"""The neutral cups, named ``0 .. 15`` (HOPPER-2)."""
BLACK = 16
"""The name of the black cup (HOPPER-2, HOPPER-14)."""
CUP_BEANS = 3
"""The most beans a cup in the tray holds once a shot is resolved (HOPPER-8)."""
TOTAL_BEANS = 80
"""The beans in the box by default (HOPPER-3)."""

TrayCup = tuple[int, int]
"""A cup in the tray as ``(cup, beans)``; JSON ``[cup, beans]``."""
Claim = tuple[int, int]
"""A claimed cup as ``(seat, cup)``; JSON ``[seat, cup]``."""


class Ending(enum.Enum):
    """Which of the text's two endings is played (HOPPER-12, HOPPER-13; HOPPER-Q5)."""

    END_1 = "end_1"
    """The first to claim 4 cups wins (default)."""
    END_2 = "end_2"
    """Play until the last cup is taken; the black cup and the shoot-out; points."""


class Remainder(enum.Enum):
    """Where the beans that do not deal evenly go (HOPPER-3; HOPPER-Q3)."""

    BOX = "box"
    """They stay in the bean box, out of the game (default)."""
    LOOSE = "loose"
    """They lie in the tray as loose beans from the start."""
    FIRST_SEATS = "first_seats"
    """One more each to seats 0, 1, …, as if dealt one by one clockwise from seat 0."""


class Phase(enum.Enum):
    """Where a shot stands."""

    AIM = "aim"
    """A shot is to be aimed (a decision)."""
    LAND = "land"
    """A bean is in the air: chance says where it lands."""
    OVER = "over"
    """The game has ended."""


@attrs.frozen(cache_hash=True)
class AimedShot:
    """The default shot model (HOPPER-6): a bean lands outside with probability ``outside``,
    in the aimed cup with probability ``aimed``, and the rest is shared evenly by the other
    cups in the tray (with aiming off, ``1 - outside`` is shared by all of them)."""

    outside: Fraction = Fraction(1, 2)
    """The probability of landing outside the cups."""
    aimed: Fraction = Fraction(1, 4)
    """The probability of landing in the aimed cup."""


@attrs.frozen(cache_hash=True)
class SeatAccuracy:
    """A shot model with one accuracy per seat (HOPPER-6): seat ``s``'s bean lands in the
    aimed cup with probability ``accuracy[s]`` and outside otherwise (with aiming off,
    ``accuracy[s]`` is shared evenly by the cups in the tray)."""

    accuracy: tuple[Fraction, ...]
    """Each seat's probability of hitting the cup it aims at."""


ShotModel = AimedShot | SeatAccuracy
"""A shot model: JSON-encodable data in the config, tagged by ``"type"``."""


@attrs.frozen(cache_hash=True)
class Config:
    """HOPPER's variant options; ``Config()`` is the default reading."""

    players: int = 2
    """How many players, 2 to 5 (HOPPER-1)."""
    total_beans: int = TOTAL_BEANS
    """The beans in the box, dealt evenly (HOPPER-3)."""
    remainder: Remainder = Remainder.BOX
    """Where the beans that do not deal evenly go (HOPPER-3; HOPPER-Q3)."""
    first_player: int = 0
    """The seat that shoots first ("the first player is nominated"; HOPPER-4)."""
    ending: Ending = Ending.END_1
    """End 1 or End 2 (HOPPER-12, HOPPER-13)."""
    aiming: bool = True
    """Whether a shot is aimed at a cup (HOPPER-5); ``False``: every shot is pure chance."""
    shot_model: ShotModel = AimedShot()
    """Where beans land, for ``chance_outcomes`` and ``sample_chance`` (HOPPER-6)."""


@attrs.frozen
class State(Checked):
    """A HOPPER position. Everything in it is public (HOPPER-18).

    Whether the rules checked it where it entered, or built it, is kept in the slot of
    :class:`~copa_ref.core.entry.Checked`: no field, never compared, encoded or copied.
    """

    config: Config
    """The variant options in force."""
    hands: tuple[int, ...]
    """The beans each seat holds."""
    tray: tuple[TrayCup, ...]
    """Every cup in the tray, in tray order, as ``(cup, beans)``."""
    loose: int
    """The beans outside the cups (in the tray or on the table), in play."""
    claims: tuple[Claim, ...]
    """Every cup claimed, in the order claimed, as ``(seat, cup)``."""
    phase: Phase
    """What the position waits for."""
    turn: int | None
    """The seat whose turn it is (turn play) or whose bean is in the air; ``None`` in the
    shoot-out's aim phase and once the game is over."""
    aim: int | None = None
    """The cup the bean in the air was aimed at (``LAND`` phase, aiming on), else ``None``."""


@attrs.frozen
class Shoot:
    """A shot by *seat*, aimed at cup *aim* (``None`` when aiming is off)."""

    seat: int
    """The seat shooting."""
    aim: int | None
    """The cup aimed at: a cup in the tray, or ``None`` with aiming off."""


@attrs.frozen
class Land:
    """The chance action after a shot: the bean falls into *cup*, or outside (``None``)."""

    cup: int | None
    """The cup the bean falls into (a cup in the tray), or ``None`` for outside the cups."""


Action = Shoot | Land
"""Any HOPPER action: a seat's shot or chance's landing."""
