"""DA CAPO's rare situations (besides each rule's ``<RULE>/fires``): a seat already out while
the others bid, a tie at the top cascading down, nobody advancing. See
:mod:`copa_ref.conformance.explore.situations`.
"""

from __future__ import annotations

from typing import Any

from copa_ref.conformance.explore.situations import Situation
from copa_ref.da_capo import Config, State

__all__ = ["PROGRESS", "SITUATIONS"]


def _three_or_more(config: Config) -> str | None:
    if config.players < 3:
        return (f"a seat out while two others still bid needs three players or more "
                f"(this config: players={config.players})")
    return None


def _out_while_others_bid(before: State, action: Any, after: State) -> bool:
    if len(after.rounds) <= len(before.rounds):
        return False
    bids = after.rounds[-1].bids
    return any(b is None for b in bids) and sum(1 for b in bids if b is not None) >= 2


def _nobody_advances(before: State, action: Any, after: State) -> bool:
    return len(after.rounds) > len(before.rounds) and after.rounds[-1].winner is None


def _tie_at_five(before: State, action: Any, after: State) -> bool:
    if len(after.rounds) <= len(before.rounds):
        return False
    return after.rounds[-1].bids.count(5) >= 2


def PROGRESS(state: State) -> float:
    """How far a game has gone: the furthest advance (the filled cups of a line)."""
    return float(max(sum(1 for cup in line if cup) for line in state.lines))


def _one_spent(state: State) -> float:
    """The emptiest reserve, while at least two others keep beans."""
    keeping = sum(1 for r in state.reserves if r > 0)
    return -float(min(state.reserves)) if keeping >= 2 else -100.0


SITUATIONS: tuple[Situation, ...] = (
    Situation(name="DACAPO-11/tie-at-five", rule="DACAPO-11",
              text="two seats tie on the highest bid there is, 5: the next level benefits",
              fires=_tie_at_five),
    Situation(name="DACAPO-12/nobody-advances", rule="DACAPO-12",
              text="every bid is tied with another: nobody advances",
              fires=_nobody_advances),
    Situation(name="DACAPO-13/out-while-others-bid", rule="DACAPO-13",
              text="a seat with no beans is out while two or more others still bid",
              fires=_out_while_others_bid, why_not=_three_or_more, heuristic=_one_spent),
)
"""DA CAPO's situations beyond each rule's ``/fires``."""
