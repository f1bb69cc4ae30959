"""What every game shares: seats, who moves, errors, the ``Game`` protocol, the JSON codec."""

from copa_ref.core.chance import shuffled
from copa_ref.core.codec import JSON, canonical_json, make_converter, register_union, tag_of
from copa_ref.core.errors import (
    IllegalActionError,
    InvalidStateError,
    InvariantViolation,
    MalformedInputError,
    RuleViolation,
)
from copa_ref.core.game import Game
from copa_ref.core.invariants import require
from copa_ref.core.misreading import Misreading, misread
from copa_ref.core.types import (
    CHANCE,
    NOBODY,
    FactSheet,
    MoverKind,
    Outcome,
    RuleId,
    Seat,
    ToMove,
)

__all__ = [
    "CHANCE",
    "JSON",
    "NOBODY",
    "FactSheet",
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "InvariantViolation",
    "MalformedInputError",
    "Misreading",
    "MoverKind",
    "Outcome",
    "RuleId",
    "RuleViolation",
    "Seat",
    "ToMove",
    "canonical_json",
    "make_converter",
    "misread",
    "register_union",
    "require",
    "shuffled",
    "tag_of",
]
