"""HOPPER's situations (besides each rule's ``<RULE>/fires``, steered by the cups claimed;
HOPPER-11's by a seat running out of beans with none loose): a landing outside every cup,
the last loose bean. See
:mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.hopper import Config, Ending, Land, State

__all__ = ["HEURISTICS", "PROGRESS", "REQUIRES", "SITUATIONS"]


def PROGRESS(state: State) -> float:
    """How far a game has gone: the cups claimed."""
    return float(len(state.claims))


def _outside(before: State, action: Any, after: State) -> bool:
    return isinstance(action, Land) and action.cup is None


def _last_loose(before: State, action: Any, after: State) -> bool:
    return before.loose > 0 and after.loose == 0


def _loose(state: State) -> float:
    return float(state.loose)


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="HOPPER-6/lands-outside", rule="HOPPER-6",
              text="the bean lands outside every cup", fires=_outside),
    Situation(name="HOPPER-10/last-loose-bean", rule="HOPPER-10",
              text="a seat takes the last loose bean", fires=_last_loose, heuristic=_loose),
)
"""HOPPER's situations beyond each rule's ``/fires``."""


def _starved(state: State) -> float:
    """How near a seat is to being skipped, out of beans with none loose (HOPPER-11): while
    some seat holds more than the poorest seat and the loose beans together, those two
    going down; then the loose beans going down as the poorest seat's hand does not."""
    poorest = min(state.hands)
    if max(state.hands) > poorest + state.loose:
        return -float(poorest + state.loose)
    return float(state.loose - poorest)


HEURISTICS = {"HOPPER-11": _starved}
"""A seat skipped with no bean to shoot is aimed at by starving one seat, not by claims."""


def _ending(wanted: Ending) -> Callable[[Config], str | None]:
    def why_not(config: Config) -> str | None:
        if config.ending is not wanted:
            return (f"only ending={wanted.value} plays it (this config: "
                    f"ending={config.ending.value})")
        return None
    return why_not


REQUIRES: dict[str, Callable[[Config], str | None]] = {
    "HOPPER-12": _ending(Ending.END_1),
    **{rule: _ending(Ending.END_2)
       for rule in ("HOPPER-13", "HOPPER-14", "HOPPER-15", "HOPPER-16", "HOPPER-17")},
}
"""The rules of one ending: End 1 stops at four cups before the black cup joins (HOPPER-12);
the black cup, the shoot-out and the points are End 2's (HOPPER-13 to HOPPER-17)."""
