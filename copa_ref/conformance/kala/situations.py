"""KALA's situations (besides each rule's ``<RULE>/fires``, steered by the beans out of the
stores): a store on exactly 3 at the end. See :mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.kala import Config, Phase, State
from copa_ref.kala.state import HarvestRule

__all__ = ["PROGRESS", "REQUIRES", "SITUATIONS"]


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


def _optional_harvest(config: Config) -> str | None:
    if config.harvest is not HarvestRule.OPTIONAL:
        return (f"only harvest=optional has a harvest to decide first (this config: "
                f"harvest={config.harvest.value})")
    return None


REQUIRES: dict[str, Callable[[Config], str | None]] = {"KALA-16": _optional_harvest}
"""KALA-16 orders a decision that only an optional harvest asks for."""
