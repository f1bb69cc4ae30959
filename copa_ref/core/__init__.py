"""What every game shares: seats, who moves, errors, the ``Game`` protocol, the JSON codec,
and the loop that plays any game (:func:`play`)."""

from copa_ref.core.chance import shuffled
from copa_ref.core.codec import JSON, canonical_json, make_converter, register_union, tag_of
from copa_ref.core.entry import StateChecks, check_rng, remember, rule
from copa_ref.core.errors import (
    IllegalActionError,
    InvalidStateError,
    InvariantViolation,
    MalformedInputError,
    RuleViolation,
)
from copa_ref.core.game import Game, Trusted
from copa_ref.core.invariants import require
from copa_ref.core.loop import MAX_STEPS, Policy, Step, next_action, play, steps, uniform
from copa_ref.core.misreading import Misreading, misread, seam
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
    "MAX_STEPS",
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
    "Policy",
    "RuleId",
    "RuleViolation",
    "Seat",
    "StateChecks",
    "Step",
    "ToMove",
    "Trusted",
    "canonical_json",
    "check_rng",
    "make_converter",
    "misread",
    "next_action",
    "play",
    "register_union",
    "remember",
    "require",
    "rule",
    "seam",
    "shuffled",
    "steps",
    "tag_of",
    "uniform",
]
