"""RONDA's rare situations (besides each rule's ``<RULE>/fires``): the winner's last bean,
and the last bean filling a group to the maximum. See
:mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.ronda import Add, Config, Phase, State

__all__ = ["PROGRESS", "REQUIRES", "SITUATIONS"]


def _ends_on_add(before: State, action: Any, after: State) -> bool:
    return isinstance(action, Add) and after.phase is Phase.OVER


def _last_bean_fills(before: State, action: Any, after: State) -> bool:
    return _ends_on_add(before, action, after) and all(
        before.cups[c] == before.config.max_beans for c in before.lifted)


def PROGRESS(state: State) -> float:
    """How near a seat is to its last bean (its supply, fewest first)."""
    return -float(min(state.supplies)) if state.supplies else 0.0


def _towards_full(state: State) -> float:
    full = sum(1 for c in state.lifted if state.cups[c] == state.config.max_beans - 1)
    return 3.0 * PROGRESS(state) + full


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="RONDA-13/winner-plays-last-bean", rule="RONDA-13",
              text="the winner adds its last bean: the game ends there",
              fires=_ends_on_add, heuristic=PROGRESS),
    Situation(name="RONDA-13/last-bean-fills-group", rule="RONDA-13",
              text="the winner's last bean fills a group to the maximum: the group goes to "
                   "the middle first, then the game ends",
              fires=_last_bean_fills, heuristic=_towards_full),
)
"""RONDA's situations beyond each rule's ``/fires``."""


def _option(test: Callable[[Config], bool], needs: str) -> Callable[[Config], str | None]:
    def why_not(config: Config) -> str | None:
        return None if test(config) else f"only {needs} plays it"
    return why_not


REQUIRES: dict[str, Callable[[Config], str | None]] = {
    "RONDA-16": _option(lambda c: c.relift_after_match, "relift_after_match=true"),
    "RONDA-17": _option(lambda c: c.max_beans == 4, "max_beans=4"),
    "RONDA-18": _option(lambda c: not c.penalty_beans, "penalty_beans=false"),
    "RONDA-8": _option(lambda c: not c.relift_after_match, "relift_after_match=false"),
    "RONDA-11": _option(lambda c: c.penalty_beans, "penalty_beans=true"),
    "RONDA-12": _option(lambda c: c.penalty_beans, "penalty_beans=true"),
}
"""The simpler rules are options (RONDA-16 to RONDA-18): lifting two again replaces going
on (RONDA-8, ``keep`` refused under RONDA-16); without penalty beans (RONDA-18)
there are none to take (RONDA-11) nor to move with a six (RONDA-12)."""
