"""KALA's situations: each rule's ``<RULE>/fires`` (see
:mod:`copa_ref.conformance.explore.situations`), steered by the beans out of the stores.
"""

from __future__ import annotations

from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.kala import Phase, State

__all__ = ["PROGRESS", "SITUATIONS"]


def PROGRESS(state: State) -> float:
    """How far a game has gone: the beans no longer in the stores."""
    return -float(sum(state.stores))


def _three_left(before: State, action: Any, after: State) -> bool:
    """The boundary of "fewer than 4": the game ends with a store on exactly 3."""
    return (after.phase is Phase.OVER and before.phase is not Phase.OVER
            and min(after.stores) == 3)


def _near_three(state: State) -> float:
    return PROGRESS(state) - abs(min(state.stores) - 3)


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="KALA-17/three-beans-left", rule="KALA-17",
              text="the game ends with the loser's store on exactly 3, one short of a turn",
              fires=_three_left, heuristic=_near_three),
)
"""KALA's situations beyond each rule's ``/fires``."""
